// Times Thumbnails side by side with vipsthumbnail on the same generated 12-megapixel JPEGs.
//
//   swift build -c release --product ThumbnailBenchmark
//   .build/release/ThumbnailBenchmark [--count 100] [--threads 2] [--rounds 3] [--folder DIR] [--keep]
//
// The photos are 4000 × 3000 JPEGs (quality 90) with gradients, edges and noise, so they
// compress like camera photos. Then, with a warm page cache and in `--rounds` alternating rounds
// (the best of each counts): Thumbnails with an empty cache (thumbnail, then preview) on
// `--threads` threads, and `vipsthumbnail` making the same thumbnails (height 320, JPEG quality
// 80, no metadata) `--threads` processes at a time; then cached hits.
//
// `--server-load` runs the hostile load against `shoebox serve` instead (see ServerLoad.swift);
// `--render FILE` renders one photo with chosen limits (see RenderOne.swift).

import CVips
import Foundation
import SeededRandom
import Synchronization
import Thumbnails

/// A synthetic photo: gradients, a checker of soft edges, waves and grain.
func makePhoto(width: Int, height: Int, seed: UInt64) -> [UInt8] {
    var random = SplitMix64(seed: seed)
    var pixels = [UInt8](repeating: 0, count: width * height * 3)
    let phase = Double(seed % 97)
    let columns = (0..<width).map { x in Double(x) / Double(width) }
    pixels.withUnsafeMutableBufferPointer { buffer in
        var index = 0
        for y in 0..<height {
            let fy = Double(y) / Double(height)
            let wave = sin(Double(y) / 41 + phase) * 28
            for x in 0..<width {
                let grain = random.next()
                let fx = columns[x]
                let block = ((x + Int(phase) * 13) / 220 + y / 180) % 2 == 0 ? 18.0 : -18.0
                let values = (
                    40 + fx * 150 + wave + block,
                    70 + fy * 120 - wave * 0.5 + block,
                    150 - fx * 80 + sin(Double(x) / 57 + phase) * 25 - block
                )
                buffer[index] = UInt8(clamping: Int(values.0) + Int(grain & 0x0F) - 8)
                buffer[index + 1] = UInt8(clamping: Int(values.1) + Int(grain >> 8 & 0x0F) - 8)
                buffer[index + 2] = UInt8(clamping: Int(values.2) + Int(grain >> 16 & 0x0F) - 8)
                index += 3
            }
        }
    }
    return pixels
}

/// Writes `pixels` as a JPEG of the given quality with libvips.
func writeJPEG(_ pixels: [UInt8], width: Int, height: Int, to path: String) throws {
    let saved = pixels.withUnsafeBytes { memory -> Bool in
        guard let image = shoebox_vips_image_from_memory(
            memory.baseAddress, memory.count, Int32(width), Int32(height), 3, Int32(SHOEBOX_VIPS_FORMAT_UCHAR))
        else { return false }
        defer { shoebox_vips_unref(image) }
        return shoebox_vips_jpegsave(image, path, 90) == 0
    }
    guard saved else { throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path]) }
}

/// CPU seconds (user + system) used so far by this process, or by its finished children.
func cpuSeconds(children: Bool = false) -> Double {
    var usage = rusage()
    getrusage(__rusage_who_t(children ? RUSAGE_CHILDREN.rawValue : RUSAGE_SELF.rawValue), &usage)
    return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
}

/// Seconds taken by `body`.
func time(_ body: () throws -> Void) rethrows -> Double {
    let start = ContinuousClock.now
    try body()
    let elapsed = ContinuousClock.now - start
    return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
}

/// Runs `work(index)` for every index below `count` on `threads` threads.
func parallel(_ count: Int, threads: Int, _ work: @Sendable (Int) -> Void) {
    let next = Atomic(0)
    DispatchQueue.concurrentPerform(iterations: threads) { _ in
        while true {
            let index = next.add(1, ordering: .relaxed).oldValue
            guard index < count else { return }
            work(index)
        }
    }
}

/// Runs a shell command; returns its wall time, or nil when it failed.
func shell(_ command: String) -> Double? {
    var status: Int32 = 0
    let seconds = time {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", command]
        do {
            try process.run()
            process.waitUntilExit()
            status = process.terminationStatus
        } catch {
            status = -1
        }
    }
    return status == 0 ? seconds : nil
}

// Arguments.
var count = 100
var threads = 2
var rounds = 3
var folder: String?
var keep = false
if CommandLine.arguments.dropFirst().first == "--server-load" {
    do {
        try ServerLoad(arguments: CommandLine.arguments.dropFirst(2)).run()
        exit(0)
    } catch {
        print("server load: \(error)")
        exit(1)
    }
}

if CommandLine.arguments.dropFirst().first == "--render" {
    do {
        try RenderOne(arguments: CommandLine.arguments.dropFirst(2)).run()
        exit(0)
    } catch {
        print("render: \(error)")
        exit(1)
    }
}

var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
    switch argument {
    case "--count": count = Int(arguments.popFirst() ?? "") ?? count
    case "--threads": threads = max(1, Int(arguments.popFirst() ?? "") ?? threads)
    case "--rounds": rounds = max(1, Int(arguments.popFirst() ?? "") ?? rounds)
    case "--folder": folder = arguments.popFirst()
    case "--keep": keep = true
    default:
        print("usage: ThumbnailBenchmark [--count N] [--threads N] [--rounds N] [--folder DIR] [--keep]")
        exit(2)
    }
}

guard shoebox_vips_load() == 0, shoebox_vips_init(CommandLine.arguments[0]) == 0 else {
    print("libvips did not start: \(String(cString: shoebox_vips_load_error()))")
    exit(1)
}
let (width, height) = (4000, 3000)
let work = folder ?? NSTemporaryDirectory() + "shoebox-thumbnail-bench-\(count)"
let photos = work + "/photos"
try FileManager.default.createDirectory(atPath: photos, withIntermediateDirectories: true)
var paths: [String] = []
var generated = 0
let generation = try time {
    for index in 0..<count {
        let path = photos + String(format: "/IMG_%05d.jpg", index)
        paths.append(path)
        if FileManager.default.fileExists(atPath: path) { continue }
        if generated == 0 { print("Generating \(count) photos of \(width)×\(height) under \(photos)…") }
        try writeJPEG(makePhoto(width: width, height: height, seed: UInt64(index)), width: width, height: height, to: path)
        generated += 1
    }
}
if generated > 0 { print(String(format: "  made %d in %.1f s", generated, generation)) }

var sources: [ThumbnailSource] = []
var totalBytes: Int64 = 0
for (index, path) in paths.enumerated() {
    let attributes = try FileManager.default.attributesOfItem(atPath: path)
    let size = (attributes[.size] as? NSNumber)?.int64Value ?? 0
    let modified = (attributes[.modificationDate] as? Date).map { Int64($0.timeIntervalSince1970 * 1e9) } ?? 0
    sources.append(ThumbnailSource(id: Int64(index + 1), path: path, fileSize: size, modified: modified))
    totalBytes += size
}
print(String(format: "%d JPEG files of %d×%d (%.1f MB each on average), %d cores, %d threads",
             count, width, height, Double(totalBytes) / Double(count) / 1e6, ProcessInfo.processInfo.activeProcessorCount, threads))
_ = shell("cat '\(photos)'/*.jpg > /dev/null")  // warm the page cache
var loads = [Double](repeating: 0, count: 3)
_ = getloadavg(&loads, 3)
let loadBefore = loads[0]

struct Row {
    var name: String
    var seconds: Double
    /// CPU seconds used, all threads or processes together.
    var cpu: Double
    var requests: Int
    var note = ""
}
var rows: [Row] = []

// Cold runs, alternating so that other work on the machine falls on both sides alike; the best
// round of each counts. Each Thumbnails round starts from an empty cache.
let snapshot = sources
let vipsOutput = work + "/vipsthumbnail"
let batch = max(1, count / (threads * 4))
let command = "ls '\(photos)'/*.jpg | xargs -d '\\n' -P \(threads) -n \(batch) vipsthumbnail --size x320 "
    + "-o '\(vipsOutput)/%s.jpg[Q=80,strip,optimize_coding]'"
var best: [String: Row] = [:]
var cache = ThumbnailCache(directory: work + "/cache")
var vipsthumbnailWorks = true
for _ in 0..<rounds {
    try? FileManager.default.removeItem(atPath: work + "/cache")
    cache = ThumbnailCache(directory: work + "/cache")
    let roundCache = cache
    for size in ThumbnailSize.allCases {
        let cpuBefore = cpuSeconds()
        let seconds = time {
            parallel(snapshot.count, threads: threads) { index in
                let result = roundCache.image(for: snapshot[index], size: size)
                if result.isPlaceholder { print("  \(snapshot[index].path): \(result.error?.message ?? "placeholder")") }
            }
        }
        let row = Row(name: "Thumbnails \(size.rawValue) (empty cache)", seconds: seconds, cpu: cpuSeconds() - cpuBefore,
                      requests: snapshot.count)
        if best[row.name].map({ $0.seconds > row.seconds }) ?? true { best[row.name] = row }
        if size == .thumbnail && vipsthumbnailWorks {
            // vipsthumbnail on the same files: the same thumbnail size and encoding, `threads` at a time.
            try? FileManager.default.removeItem(atPath: vipsOutput)
            try FileManager.default.createDirectory(atPath: vipsOutput, withIntermediateDirectories: true)
            let childrenBefore = cpuSeconds(children: true)
            if let seconds = shell(command) {
                let row = Row(name: "vipsthumbnail x320 (\(threads) processes)", seconds: seconds,
                              cpu: cpuSeconds(children: true) - childrenBefore, requests: count, note: "\(batch) files per process")
                if best[row.name].map({ $0.seconds > row.seconds }) ?? true { best[row.name] = row }
            } else {
                print("vipsthumbnail failed or is not installed (apt-get install libvips-tools): skipped")
                vipsthumbnailWorks = false
            }
        }
    }
}
rows = ["Thumbnails thumbnail (empty cache)", "vipsthumbnail x320 (\(threads) processes)", "Thumbnails preview (empty cache)"]
    .compactMap { best[$0] }

// Cached hits.
let passes = 20
let warmCache = cache
let hitStart = warmCache.statistics.hits
let hitCPU = cpuSeconds()
let hits = time {
    parallel(snapshot.count * passes, threads: threads) { index in
        _ = warmCache.image(for: snapshot[index % snapshot.count], size: .thumbnail)
    }
}
rows.append(Row(name: "Thumbnails thumbnail (cached hits)", seconds: hits, cpu: cpuSeconds() - hitCPU, requests: snapshot.count * passes))
precondition(warmCache.statistics.hits - hitStart == snapshot.count * passes)

// Sizes side by side, from the first photo.
let ours = warmCache.image(for: sources[0], size: .thumbnail).bytes
let theirs = (try? Data(contentsOf: URL(fileURLWithPath: vipsOutput + "/IMG_00000.jpg"))).map { [UInt8]($0) } ?? []
print(String(format: "first photo's thumbnail: Thumbnails %d bytes, vipsthumbnail %d bytes", ours.count, theirs.count))

print("")
print("what".padding(toLength: 42, withPad: " ", startingAt: 0) + "seconds   images/s   CPU ms/image   note")
for row in rows {
    print(row.name.padding(toLength: 42, withPad: " ", startingAt: 0)
        + String(format: "%7.3f  %9.1f   %12.3f   ", row.seconds, Double(row.requests) / row.seconds, row.cpu / Double(row.requests) * 1000)
        + row.note)
}
print(String(format: "best of %d rounds; load average before the run: %.2f", rounds, loadBefore))
var usage = rusage()
getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
print(String(format: "peak resident memory of this process (photo generation included): %.0f MB", Double(usage.ru_maxrss) / 1024))
if !keep && folder == nil { try? FileManager.default.removeItem(atPath: work) }
