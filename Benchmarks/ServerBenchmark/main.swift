// Times `shoebox serve`: on a large library, start-up until the API answers, the server's peak
// memory and the latency of every timeline endpoint under load (wrk, 50 connections), each JSON
// answer once as sent plainly and once as sent to a client that accepts gzip (as browsers do);
// then cached thumbnail hits over HTTP, on photos it makes with `vips` whose thumbnails are the
// size of a camera photo's (about 24 KB).
//
//   swift build -c release --product shoebox && swift build -c release --product ServerBenchmark
//   .build/release/ServerBenchmark [--photos 1000000] [--db FILE] [--seconds 10] [--connections 50] [--rounds 3]
//
// Each wrk measurement runs `--rounds` times, in alternating rounds over all endpoints; the table
// shows the median of the rounds and, for p99, every round, so a burst of other work on the
// cores shows as one outlier instead of hiding in a single number.
// Without --db it writes a synthetic library with `make-library` (rows only, no files) into a
// temporary folder first (build it too: `swift build -c release --product make-library`).
// wrk and vips come from Debian (`apt-get install wrk libvips-tools`).

import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// GETs `url` synchronously; the body, or `nil` on any failure.
func fetch(_ url: String) -> Data? {
    let done = DispatchSemaphore(value: 0)
    nonisolated(unsafe) var body: Data?
    URLSession.shared.dataTask(with: URL(string: url)!) { data, response, _ in
        if (response as? HTTPURLResponse)?.statusCode == 200 { body = data }
        done.signal()
    }.resume()
    done.wait()
    return body
}

var photos = 1_000_000
var database: String?
var seconds = 10
var connections = 50
var rounds = 3
var arguments = CommandLine.arguments.dropFirst()
while let flag = arguments.popFirst() {
    switch flag {
    case "--photos": photos = arguments.popFirst().flatMap(Int.init) ?? photos
    case "--db": database = arguments.popFirst()
    case "--seconds": seconds = arguments.popFirst().flatMap(Int.init) ?? seconds
    case "--connections": connections = arguments.popFirst().flatMap(Int.init) ?? connections
    case "--rounds": rounds = max(1, arguments.popFirst().flatMap(Int.init) ?? rounds)
    default:
        print("usage: ServerBenchmark [--photos N] [--db FILE] [--seconds S] [--connections C] [--rounds R]")
        exit(2)
    }
}

let binaries = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
func tool(_ name: String) -> String { binaries.appendingPathComponent(name).path }

/// Runs a command to completion and returns its standard output.
@discardableResult
func run(_ executable: String, _ arguments: [String]) throws -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    let pipe = Pipe()
    process.standardOutput = pipe
    try process.run()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return String(decoding: data, as: UTF8.self)
}

let folder = NSTemporaryDirectory() + "shoebox-server-bench-\(getpid())"
try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(atPath: folder) }
let db: String
if let database {
    db = database
} else {
    db = folder + "/library.sqlite"
    let start = ContinuousClock.now
    try run(tool("make-library"), ["--photos", String(photos), "--db", db])
    print("make-library: \(photos) photos in \(ContinuousClock.now - start)")
}

/// Starts `shoebox serve` on a free port; returns it with its port and the time until the API answered.
func startServer(_ database: String) -> (process: Process, port: Int, ready: Duration?) {
    let server = Process()
    server.executableURL = URL(fileURLWithPath: tool("shoebox"))
    server.arguments = ["serve", "--db", database, "--port", "0"]
    let errors = Pipe()
    server.standardError = errors
    server.standardOutput = FileHandle.nullDevice
    let start = ContinuousClock.now
    guard (try? server.run()) != nil else { print("cannot start shoebox"); exit(1) }
    var port: Int?
    var buffered = ""
    while port == nil, ContinuousClock.now - start < .seconds(60) {
        let chunk = errors.fileHandleForReading.availableData
        if chunk.isEmpty { break }
        buffered += String(decoding: chunk, as: UTF8.self)
        if let range = buffered.range(of: #"http://127\.0\.0\.1:(\d+)/"#, options: .regularExpression) {
            port = Int(buffered[range].split(separator: ":").last!.dropLast())
        }
    }
    guard let port else {
        print("the server did not start: \(buffered)")
        server.terminate()
        exit(1)
    }
    var ready: Duration?
    while ready == nil, ContinuousClock.now - start < .seconds(60) {
        if fetch("http://127.0.0.1:\(port)/api/library") != nil { ready = ContinuousClock.now - start } else { usleep(20_000) }
    }
    // Keep draining the server's log so it never blocks on a full pipe.
    Thread.detachNewThread { while !errors.fileHandleForReading.availableData.isEmpty {} }
    return (server, port, ready)
}

let (server, port, ready) = startServer(db)
let base = "http://127.0.0.1:\(port)"
func peakMB(_ pid: Int32) -> Double {
    let status = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
    let line = status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") } ?? ""
    return (Double(line.split(separator: " ").dropFirst().first ?? "") ?? .nan) / 1024
}

/// The system's load averages (1, 5, 15 minutes): other work sharing the cores shows here.
func loadAverage() -> String {
    ((try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8)) ?? "?").split(separator: " ").prefix(3).joined(separator: " ")
}

print("\(photos) photos (\(db)), \(ProcessInfo.processInfo.activeProcessorCount) cores, load average \(loadAverage())")
print("server ready (until /api/library answers): \(ready.map { String(format: "%.2f s", Double($0.components.seconds) + Double($0.components.attoseconds) / 1e18) } ?? "timed out")")
print("peak memory after start: \(String(format: "%.0f", peakMB(server.processIdentifier))) MB")
print("")
/// What one wrk run measured (nil where wrk printed nothing readable).
struct Load {
    var requestsPerSecond: Double?
    var p50: Double?
    var p99: Double?
    var max: Double?
    /// Bytes per response on the wire, headers included (wrk's transfer rate over its request rate).
    var wireBytes: Double?
    var failures = 0
}

/// Runs wrk against `url` with `connections` connections for `seconds`, sending `headers`.
@MainActor
func wrk(_ url: String, headers: [String] = [], script: String? = nil) -> Load {
    var arguments = ["-t2", "-c\(connections)", "-d\(seconds)s", "--latency"]
    for header in headers { arguments += ["-H", header] }
    if let script { arguments += ["-s", script] }
    let output = (try? run("/usr/bin/wrk", arguments + [url])) ?? ""
    let lines = output.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
    func fields(_ label: String) -> [Substring] {
        lines.first { $0.hasPrefix(label) }.map { $0.split(separator: " ", omittingEmptySubsequences: true) } ?? []
    }
    /// Milliseconds from wrk's `850.00us`, `1.20ms`, `1.01s` or `2.00m`.
    func ms(_ text: Substring?) -> Double? {
        guard let text else { return nil }
        for (suffix, scale) in [("us", 0.001), ("ms", 1.0), ("m", 60_000.0), ("s", 1000.0)] where text.hasSuffix(suffix) {
            return Double(text.dropLast(suffix.count)).map { $0 * scale }
        }
        return nil
    }
    func bytes(_ text: Substring?) -> Double? {
        guard let text else { return nil }
        for (suffix, scale) in [("GB", 1_073_741_824.0), ("MB", 1_048_576.0), ("KB", 1024.0), ("B", 1.0)] where text.hasSuffix(suffix) {
            return Double(text.dropLast(suffix.count)).map { $0 * scale }
        }
        return nil
    }
    var load = Load()
    load.requestsPerSecond = fields("Requests/sec:").last.flatMap { Double($0) }
    load.p50 = ms(fields("50%").dropFirst().first)
    load.p99 = ms(fields("99%").dropFirst().first)
    load.max = ms(fields("Latency").dropFirst(3).first)
    if let transfer = bytes(fields("Transfer/sec:").last), let rate = load.requestsPerSecond, rate > 0 {
        load.wireBytes = transfer / rate
    }
    load.failures = fields("Non-2xx or 3xx responses:").last.flatMap { Int($0) } ?? 0
    if let errors = lines.first(where: { $0.hasPrefix("Socket errors:") }), errors.contains("timeout") || errors.contains("read") {
        load.failures += 1
    }
    return load
}

/// The median of the values present, formatted; `?` when there are none.
func median(_ values: [Double?], _ format: String = "%.2f") -> String {
    let sorted = values.compactMap { $0 }.sorted()
    guard !sorted.isEmpty else { return "?" }
    let middle = sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
    return String(format: format, middle)
}

/// The columns of a table row for `loads` (one per round): medians, the worst max, each round's p99.
func columns(_ loads: [Load]) -> [String] {
    let p99s = loads.map { $0.p99.map { String(format: "%.1f", $0) } ?? "?" }.joined(separator: " / ")
    let failures = loads.reduce(0) { $0 + $1.failures }
    return [median(loads.map(\.wireBytes), "%.0f"), median(loads.map(\.requestsPerSecond), "%.0f"), median(loads.map(\.p50)),
            median(loads.map(\.p99)), loads.compactMap(\.max).max().map { String(format: "%.1f", $0) } ?? "?", "  " + p99s]
        + (failures > 0 ? ["(\(failures) failed responses or socket errors!)"] : [])
}

/// `cells` padded into columns: the first left-aligned to `first` characters, the rest right-aligned
/// to `width` except a cell starting with two spaces, which is left as it is.
func row(_ cells: [String], first: Int = 46, width: Int = 9) -> String {
    guard let head = cells.first else { return "" }
    return head.padding(toLength: max(first, head.count), withPad: " ", startingAt: 0)
        + cells.dropFirst().map { $0.hasPrefix("  ") ? $0 : String(repeating: " ", count: max(0, width - $0.count)) + $0 }
            .joined(separator: " ")
}

let gzipHeader = "Accept-Encoding: gzip"
let header = ["wire B", "req/s", "p50 ms", "p99 ms", "max ms", "  p99 ms of each round"]
print(row(["endpoint (wrk, \(connections) connections, \(seconds) s, median of \(rounds))", "gzip"] + header, first: 52, width: 8))
// A page of 120 photos, as the viewer asks for them, from the first fine section that has as many.
let fineSections = fetch(base + "/api/sections?level=fine").flatMap { try? JSONSerialization.jsonObject(with: $0) as? [[String: Any]] } ?? []
let pageSection = fineSections.firstIndex { ($0["shown"] as? Int ?? 0) >= 120 } ?? 0
let endpoints: [(path: String, gzip: Bool)] = [
    ("/api/sections?level=coarse", true), ("/api/sections?level=fine", true),
    ("/api/sections/fine/\(pageSection)?from=0&count=120", true),
    ("/api/layout?level=coarse&viewport=1440x900", true), ("/api/layout?level=fine&viewport=390x844", true),
    ("/api/zoom?from=coarse&section=3&item=2&offset=0", false), ("/api/library", false),
]
let measurements = endpoints.flatMap { endpoint in (endpoint.gzip ? [false, true] : [false]).map { (path: endpoint.path, gzip: $0) } }
// Warm every answer once (the first request encodes it).
for endpoint in endpoints { _ = fetch(base + endpoint.path) }
var loads = Array(repeating: [Load](), count: measurements.count)
for _ in 0..<rounds {
    for (index, measurement) in measurements.enumerated() {
        loads[index].append(wrk(base + measurement.path, headers: measurement.gzip ? [gzipHeader] : []))
    }
}
for (index, measurement) in measurements.enumerated() {
    print(row([measurement.path, measurement.gzip ? "yes" : "no"] + columns(loads[index]), first: 52, width: 8))
}
print("")

// Search, as the viewer asks for it: a city, a year and a camera model of the synthetic library.
// First each query's first requests (nothing of it cached: the first search also loads every
// photo's place), then wrk: once on the same URL (the answer encoded once, as for the rows above),
// once with every request asking a different `limit` (random, 1–1000), so that most answers are
// not in the answer cache and each is a search answered again (its photos, total and sections).
let searches = ["Sintra", "2019", "X100V"]
print(row(["search: first requests, in this order (nothing cached)", "ms"], first: 52, width: 8))
for query in searches {
    for path in ["/api/search?q=\(query)", "/api/sections?level=fine&q=\(query)", "/api/layout?level=fine&viewport=390x844&q=\(query)"] {
        let start = ContinuousClock.now
        let body = fetch(base + path)
        let elapsed = ContinuousClock.now - start
        let total = body.flatMap { try? JSONSerialization.jsonObject(with: $0) as? [String: Any] }?["total"] as? Int
        let milliseconds = Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
        print(row([path + (total.map { "  (\($0) photos)" } ?? ""), body == nil ? "failed" : String(format: "%.1f", milliseconds)], first: 52, width: 8))
    }
}
print("")
print(row(["search (wrk, \(connections) connections, \(seconds) s, median of \(rounds))", "gzip"] + header, first: 52, width: 8))
let searchRuns: [(label: String, query: String, script: String?)] = searches.flatMap { query in
    [("/api/search?q=\(query)", query, nil), ("/api/search?q=\(query)&limit=(1–1000)", query, folder + "/search-\(query).lua")]
}
for run in searchRuns {
    guard let script = run.script else { continue }
    try """
        request = function()
          return wrk.format("GET", "/api/search?q=\(run.query)&limit=" .. math.random(1, 1000))
        end
        """.write(toFile: script, atomically: true, encoding: .utf8)
}
var searchLoads = Array(repeating: [Load](), count: searchRuns.count)
for _ in 0..<rounds {
    for (index, run) in searchRuns.enumerated() {
        searchLoads[index].append(wrk(base + (run.script == nil ? run.label : "/"), headers: [gzipHeader], script: run.script))
    }
}
for (index, run) in searchRuns.enumerated() {
    print(row([run.label, "yes"] + columns(searchLoads[index]), first: 52, width: 8))
}
print("")
print("peak memory after load: \(String(format: "%.0f", peakMB(server.processIdentifier))) MB")
server.terminate()
server.waitUntilExit()

// Cached thumbnails over HTTP: photos made here with `vips` (1708 × 1280, noise over waves, so a
// 320-px thumbnail is about 24 KB like a camera photo's), indexed and rendered ahead of time.
let photoCount = 16
let photosFolder = folder + "/photos"
try FileManager.default.createDirectory(atPath: photosFolder, withIntermediateDirectories: true)
for number in 0..<photoCount {
    let scratch = folder + "/scratch-"
    try run("/usr/bin/vips", ["sines", scratch + "s.v", "427", "320", "--hfreq", String(2 + number % 3), "--vfreq", "3"])
    try run("/usr/bin/vips", ["linear", scratch + "s.v", scratch + "w.v", "50", "128"])
    var bands: [String] = []
    for band in 0..<2 {
        try run("/usr/bin/vips", ["gaussnoise", scratch + "n.v", "427", "320", "--sigma", "12", "--mean", "0", "--seed", String(number * 2 + band)])
        try run("/usr/bin/vips", ["add", scratch + "w.v", scratch + "n.v", scratch + "b\(band).v"])
        bands.append(scratch + "b\(band).v")
    }
    try run("/usr/bin/vips", ["bandjoin", (bands + [scratch + "w.v"]).joined(separator: " "), scratch + "rgb.v"])
    try run("/usr/bin/vips", ["resize", scratch + "rgb.v", scratch + "big.v", "4"])
    try run("/usr/bin/vips", ["cast", scratch + "big.v", scratch + "big8.v", "uchar"])
    try run("/usr/bin/vips", ["jpegsave", scratch + "big8.v", photosFolder + "/photo\(number).jpg", "--Q", "90"])
}
let smallDB = folder + "/photos.sqlite"
try run(tool("shoebox"), ["index", photosFolder, "--db", smallDB])
setenv("XDG_CACHE_HOME", folder + "/cache", 1)
try run(tool("shoebox"), ["thumbnails", "--db", smallDB])
let (thumbnails, thumbnailPort, _) = startServer(smallDB)
let thumbnailBase = "http://127.0.0.1:\(thumbnailPort)"

/// The ids of the photos, from the fine sections.
var ids: [Int] = []
if let list = fetch(thumbnailBase + "/api/sections?level=fine").flatMap({ try? JSONSerialization.jsonObject(with: $0) as? [[String: Any]] }) {
    for section in list.indices {
        let body = fetch(thumbnailBase + "/api/sections/fine/\(section)").flatMap { try? JSONSerialization.jsonObject(with: $0) as? [String: Any] }
        ids += (body?["photos"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? Int }
    }
}
let sizes = ids.map { fetch(thumbnailBase + "/api/photos/\($0)/thumbnail?size=thumbnail")?.count ?? 0 }
print("")
print("cached thumbnails: \(ids.count) photos, \(sizes.min() ?? 0)–\(sizes.max() ?? 0) bytes each (wrk, \(connections) connections, \(seconds) s)")
let script = folder + "/rotate.lua"
try """
    local ids = {\(ids.map(String.init).joined(separator: ","))}
    local next = 0
    request = function()
      next = next % #ids + 1
      return wrk.format("GET", "/api/photos/" .. ids[next] .. "/thumbnail?size=thumbnail")
    end
    """.write(toFile: script, atomically: true, encoding: .utf8)
let etag: String = {
    let done = DispatchSemaphore(value: 0)
    nonisolated(unsafe) var tag = ""
    URLSession.shared.dataTask(with: URL(string: thumbnailBase + "/api/photos/\(ids.first ?? 1)/thumbnail?size=thumbnail")!) { _, response, _ in
        tag = (response as? HTTPURLResponse)?.value(forHTTPHeaderField: "ETag") ?? ""
        done.signal()
    }.resume()
    done.wait()
    return tag
}()
let runs: [(label: String, path: String, headers: [String], script: String?)] = [
    ("one photo, 200", "/api/photos/\(ids.first ?? 1)/thumbnail?size=thumbnail", [], nil),
    ("\(ids.count) photos in turn, 200", "/", [], script),
    ("one photo, If-None-Match → 304", "/api/photos/\(ids.first ?? 1)/thumbnail?size=thumbnail", ["If-None-Match: \(etag)"], nil),
]
print(row(["(median of \(rounds))"] + header, first: 52, width: 8))
var thumbnailLoads = Array(repeating: [Load](), count: runs.count)
for _ in 0..<rounds {
    for (index, phase) in runs.enumerated() {
        thumbnailLoads[index].append(wrk(thumbnailBase + phase.path, headers: phase.headers, script: phase.script))
    }
}
for (index, phase) in runs.enumerated() {
    print(row([phase.label] + columns(thumbnailLoads[index]), first: 52, width: 8))
}
print("peak memory of the thumbnail server: \(String(format: "%.0f", peakMB(thumbnails.processIdentifier))) MB")
print("load average at the end: \(loadAverage())")
thumbnails.terminate()
thumbnails.waitUntilExit()
