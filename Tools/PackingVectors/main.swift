import Foundation
import SeededRandom
import ZoomMapping

// packing-vectors: random libraries packed by ZoomMapping.PackedLayout, as JSON, so the viewer's
// JavaScript (packing.js) can be held to the same positions (Tests/Browser/test_archive.py).
//
//   packing-vectors [--cases N] [--seed S]
//
// Each case: a level, a width (1 to 100,000 px, extremes included), per section its shown count
// and group, and what the Swift packing gives: columns, cell side, content height and per section
// [line, column, columns, rows, x, y, width, height, label y, label height].

var cases = 200
var seed: UInt64 = 1
var arguments = CommandLine.arguments.dropFirst()
while let flag = arguments.popFirst() {
    switch flag {
    case "--cases": cases = arguments.popFirst().flatMap(Int.init).map { max(0, min($0, 100_000)) } ?? cases
    case "--seed": seed = arguments.popFirst().flatMap(UInt64.init) ?? seed
    default:
        FileHandle.standardError.write(Data("usage: packing-vectors [--cases N] [--seed S]\n".utf8))
        exit(2)
    }
}

struct Case: Encodable {
    var level: String
    var width: Double
    var counts: [Int]
    var groups: [Int]
    var columns: Int
    var cellSide: Double
    var contentHeight: Double
    var blocks: [[Double]]
}

var rng = SplitMix64(seed: seed)
let widths: [Double] = [1, 2, 37.5, 320, 390, 599, 600, 768, 1024, 1440, 2560, 10_000, 100_000]
var out: [Case] = []
for k in 0..<cases {
    let level = PackedLevel.allCases[k % 3]
    let width = k < widths.count * 3 ? widths[k / 3] : Double(Int.random(in: 100...4000, using: &rng)) + [0, 0.5, 0.25][k % 3]
    let sections = Int.random(in: 0...(k % 10 == 0 ? 2000 : 200), using: &rng)
    var counts: [Int] = []
    var groups: [Int] = []
    var group = Int.random(in: 1900 * 12...2100 * 12, using: &rng)
    for _ in 0..<sections {
        let roll = Int.random(in: 0..<100, using: &rng)
        counts.append(level == .years ? 1 : roll < 55 ? Int.random(in: 1...3, using: &rng)
            : roll < 85 ? Int.random(in: 4...30, using: &rng) : roll < 98 ? Int.random(in: 31...400, using: &rng) : Int.random(in: 0...12_000, using: &rng))
        if Int.random(in: 0..<4, using: &rng) == 0 { group += Int.random(in: 1...30, using: &rng) }
        groups.append(level == .years ? 0 : group)
    }
    let layout = try PackedLayout(level: level, counts: counts, groups: groups, width: width)
    let blocks = try (0..<sections).map { s -> [Double] in
        let b = try layout.block(s)
        return [Double(b.line), Double(b.column), Double(b.columns), Double(b.rows), b.frame.minX, b.frame.minY,
                b.frame.width, b.frame.height, b.labelFrame.minY, b.labelFrame.height]
    }
    out.append(Case(level: level.rawValue, width: width, counts: counts, groups: groups, columns: layout.columns,
                    cellSide: layout.cellSide, contentHeight: layout.contentHeight, blocks: blocks))
}
let encoder = JSONEncoder()
FileHandle.standardOutput.write(try encoder.encode(out))
