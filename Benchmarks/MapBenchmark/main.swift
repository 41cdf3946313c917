// Times `GET /api/map` of `shoebox serve` on a library of GPS photos: per zoom 0–12 (and beyond,
// for the record), random boxes the size of a 1280×800 window showing cells of 64 px (the Map
// page's), centred on a random photo (where the photos are) four times in five and anywhere on
// Earth otherwise; the latency of each answer (sequential requests over loopback HTTP, as a
// browser panning makes them), its size, and whether the whole world's clusters add up to every
// photo with a position.
//
//   swift build --product shoebox && swift build --product MapBenchmark     (or -c release for both)
//   .build/debug/MapBenchmark [--photos 1000000] [--db FILE] [--requests 200] [--zooms 0-12] [--seed 1]
//
// Without --db it writes a library of `--photos` rows (no files) with positions into a temporary
// folder: 60% around a home, the rest around 300 places on every continent and 2% anywhere (each
// place's photos spread over a few kilometres), so cells hold from one photo to hundreds of
// thousands. `shoebox` is the executable beside this one.

import Foundation
import LibraryIndex
import PhotoMetadata
import SeededRandom
import WallClock
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

var photos = 1_000_000
var database: String?
var requests = 200
var zooms = 0...12
var seed: UInt64 = 1
var arguments = CommandLine.arguments.dropFirst()
while let flag = arguments.popFirst() {
    switch flag {
    case "--photos": photos = arguments.popFirst().flatMap(Int.init) ?? photos
    case "--db": database = arguments.popFirst()
    case "--requests": requests = max(1, arguments.popFirst().flatMap(Int.init) ?? requests)
    case "--seed": seed = arguments.popFirst().flatMap(UInt64.init) ?? seed
    case "--zooms":
        let parts = (arguments.popFirst() ?? "").split(separator: "-").compactMap { Int($0) }
        if parts.count == 2, parts[0] <= parts[1], parts[0] >= 0, parts[1] <= 20 { zooms = parts[0]...parts[1] }
    default:
        print("usage: MapBenchmark [--photos N] [--db FILE] [--requests R] [--zooms A-B] [--seed S]")
        exit(2)
    }
}

/// A uniform number in 0..<1.
func unit(_ rng: inout SplitMix64) -> Double { Double(rng.next() >> 11) / Double(1 << 53) }

/// A normally distributed number (Box–Muller).
func normal(_ rng: inout SplitMix64) -> Double {
    sqrt(-2 * log(max(unit(&rng), 1e-300))) * cos(2 * .pi * unit(&rng))
}

/// The places the synthetic photos are taken around: (latitude, longitude, spread in degrees).
func places(_ rng: inout SplitMix64) -> [(Double, Double, Double)] {
    var out: [(Double, Double, Double)] = [(52.52, 13.405, 0.05)]  // home
    for _ in 0..<300 { out.append((unit(&rng) * 125 - 55, unit(&rng) * 360 - 180, 0.02 + unit(&rng) * 0.2)) }
    return out
}

/// `count` rows with positions, in capture order.
func library(count: Int, seed: UInt64) -> (rows: [IndexedPhoto], positions: [(Double, Double)]) {
    var rng = SplitMix64(seed: seed)
    let around = places(&rng)
    var rows: [IndexedPhoto] = []
    var positions: [(Double, Double)] = []
    rows.reserveCapacity(count)
    for n in 0..<count {
        let roll = unit(&rng)
        var latitude: Double, longitude: Double
        if roll < 0.02 {
            (latitude, longitude) = (unit(&rng) * 170 - 85, unit(&rng) * 360 - 180)
        } else {
            let place = roll < 0.62 ? around[0] : around[1 + Int(rng.next() % UInt64(around.count - 1))]
            latitude = min(89.9, max(-89.9, place.0 + normal(&rng) * place.2))
            longitude = place.1 + normal(&rng) * place.2
            if longitude > 180 { longitude -= 360 } else if longitude < -180 { longitude += 360 }
        }
        let day = TimelineDayNumber(3650 + n / 150)
        positions.append((latitude, longitude))
        rows.append(IndexedPhoto(
            path: RelativePath(String(format: "%07d/IMG_%07d.jpg", n / 1000, n)), fileSize: 2_000_000, modificationTime: 0, format: .jpeg,
            captureDate: CaptureDate(local: day.local(second: n % 86_400), offset: nil, source: .dateTimeOriginal),
            position: GeoPosition(latitude: latitude, longitude: longitude)))
    }
    return (rows, positions)
}

/// Days since 2001-01-01, for the synthetic capture dates.
struct TimelineDayNumber {
    var days: Int
    init(_ days: Int) { self.days = days }
    func local(second: Int) -> LocalDateTime {
        let date = Date(timeIntervalSince1970: 978_307_200 + Double(days) * 86_400)
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let c = calendar.dateComponents([.year, .month, .day], from: date)
        return LocalDateTime(year: c.year!, month: c.month!, day: c.day!, hour: second / 3600, minute: second / 60 % 60, second: second % 60)
    }
}

let folder = FileManager.default.temporaryDirectory.appendingPathComponent("map-benchmark-\(ProcessInfo.processInfo.processIdentifier)")
var centres: [(Double, Double)] = []
let path: String
if let database {
    path = database
    // Centres from the library itself: a sample of its positions.
    let store = try LibraryStore(path: path, mode: .readOnly)
    var n = 0
    try store.forEachPhoto { photo in
        n += 1
        if n % 97 == 0, let p = photo.position { centres.append((p.latitude, p.longitude)) }
    }
} else {
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    path = folder.appendingPathComponent("map.sqlite").path
    let started = ContinuousClock.now
    let made = library(count: photos, seed: seed)
    let store = try LibraryStore(path: path, mode: .readWrite)
    try store.insertSynthetic(made.rows, root: "/synthetic/map")
    centres = stride(from: 0, to: made.positions.count, by: 97).map { made.positions[$0] }
    print("Wrote \(photos) photos with positions to \(path) in \(ContinuousClock.now - started) (cell counts included)")
}
defer { if database == nil { try? FileManager.default.removeItem(at: folder) } }

// The server, on a free port.
let shoebox = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent().appendingPathComponent("shoebox").path
let server = Process()
server.executableURL = URL(fileURLWithPath: shoebox)
server.arguments = ["serve", "--db", path, "--port", "0", "--host", "127.0.0.1"]
let errors = Pipe()
server.standardError = errors
server.standardOutput = FileHandle.nullDevice
try server.run()
defer { server.terminate(); server.waitUntilExit() }
var base: String?
var buffered = ""
while base == nil {
    let chunk = errors.fileHandleForReading.availableData
    guard !chunk.isEmpty else { print("shoebox serve stopped before it printed its address"); exit(1) }
    buffered += String(decoding: chunk, as: UTF8.self)
    if let range = buffered.range(of: #"http://127\.0\.0\.1:\d+"#, options: .regularExpression) { base = String(buffered[range]) }
}
let url = base!
Thread { while !errors.fileHandleForReading.availableData.isEmpty {} }.start()  // keep its log flowing

/// GETs `path`: the body, or nil on any failure.
func fetch(_ path: String) -> Data? {
    let done = DispatchSemaphore(value: 0)
    nonisolated(unsafe) var body: Data?
    var request = URLRequest(url: URL(string: url + path)!)
    request.setValue("identity", forHTTPHeaderField: "Accept-Encoding")
    URLSession.shared.dataTask(with: request) { data, response, _ in
        if (response as? HTTPURLResponse)?.statusCode == 200 { body = data }
        done.signal()
    }.resume()
    done.wait()
    return body
}
while fetch("/api/library") == nil { Thread.sleep(forTimeInterval: 0.2) }
do {
    let start = ContinuousClock.now
    _ = fetch("/api/map?bbox=-180,-90,180,90&zoom=0")
    print("The first /api/map after start-up: \(ContinuousClock.now - start) (not counted below)")
}

// The whole world's clusters add up to every photo with a position.
if let data = fetch("/api/map?bbox=-180,-90,180,90&zoom=4"),
   let world = try JSONSerialization.jsonObject(with: data) as? [String: Any],
   let clusters = world["clusters"] as? [[String: Any]] {
    let sum = clusters.reduce(0) { $0 + ($1["count"] as? Int ?? 0) }
    print("The world at zoom 4: \(clusters.count) clusters holding \(sum) photos; located \(world["located"] ?? "?"), unlocated \(world["unlocated"] ?? "?") (\(sum == world["located"] as? Int ? "they add up" : "THEY DO NOT ADD UP"))")
}

/// The box a 1280×800 window shows at map zoom `zoom − 2` around (latitude, longitude), as W,S,E,N.
func box(zoom: Int, latitude: Double, longitude: Double) -> String {
    let mapZoom = Double(zoom - 2)
    let worldPixels = 256 * pow(2, mapZoom)
    if worldPixels <= 1280 { return "-180,-85.0511,180,85.0511" }
    let halfWidth = 640 / worldPixels * 360
    let y = (0.5 - log(tan(.pi / 4 + latitude * .pi / 360)) / (2 * .pi)) * worldPixels
    func lat(_ py: Double) -> Double { atan(sinh(.pi * (1 - 2 * py / worldPixels))) * 180 / .pi }
    let north = lat(max(0, y - 400)), south = lat(min(worldPixels, y + 400))
    func wrap(_ x: Double) -> Double { ((x + 180).truncatingRemainder(dividingBy: 360) + 360).truncatingRemainder(dividingBy: 360) - 180 }
    return [wrap(longitude - halfWidth), south, wrap(longitude + halfWidth), north].map { String(format: "%.6f", $0) }.joined(separator: ",")
}

var rng = SplitMix64(seed: seed &+ 99)
var all: [Double] = []
var largest = 0
print("zoom  requests   p50 ms   p95 ms   max ms   clusters (max)   largest answer")
for zoom in zooms {
    var times: [Double] = []
    var sizes: [Int] = []
    var clusterCounts: [Int] = []
    for _ in 0..<requests {
        let (latitude, longitude) = unit(&rng) < 0.8 ? centres[Int(rng.next() % UInt64(centres.count))]
            : (unit(&rng) * 170 - 85, unit(&rng) * 360 - 180)
        let path = "/api/map?bbox=\(box(zoom: zoom, latitude: min(85, max(-85, latitude)), longitude: longitude))&zoom=\(zoom)"
        let start = ContinuousClock.now
        guard let body = fetch(path) else { print("failed: \(path)"); exit(1) }
        let elapsed = ContinuousClock.now - start
        times.append(Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15)
        sizes.append(body.count)
        if let answer = try? JSONSerialization.jsonObject(with: body) as? [String: Any] {
            clusterCounts.append((answer["clusters"] as? [Any])?.count ?? 0)
        }
    }
    all += times
    largest = max(largest, sizes.max() ?? 0)
    times.sort()
    func percentile(_ p: Double) -> Double { times[min(times.count - 1, Int(Double(times.count) * p))] }
    print(String(format: "%4d  %8d  %7.1f  %7.1f  %7.1f   %8.0f (%d)   %8.1f KB",
                 zoom, times.count, percentile(0.5), percentile(0.95), times.last ?? 0,
                 Double(clusterCounts.reduce(0, +)) / Double(max(1, clusterCounts.count)), clusterCounts.max() ?? 0,
                 Double(sizes.max() ?? 0) / 1024))
}
all.sort()
print(String(format: "all   %8d  %7.1f  %7.1f  %7.1f   largest answer %.1f KB", all.count,
             all[all.count / 2], all[min(all.count - 1, Int(Double(all.count) * 0.95))], all.last ?? 0, Double(largest) / 1024))
