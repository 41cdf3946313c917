// Times `shoebox serve` on a large library: start-up until the API answers, latency of the
// timeline endpoints under load (wrk, 50 connections), and the server's peak memory.
//
//   swift build -c release
//   .build/release/ServerBenchmark [--photos 1000000] [--db FILE] [--seconds 10] [--connections 50]
//
// Without --db it writes a synthetic library with `make-library` (rows only, no files) into a
// temporary folder first. wrk comes from Debian (`apt-get install wrk`).

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
var arguments = CommandLine.arguments.dropFirst()
while let flag = arguments.popFirst() {
    switch flag {
    case "--photos": photos = arguments.popFirst().flatMap(Int.init) ?? photos
    case "--db": database = arguments.popFirst()
    case "--seconds": seconds = arguments.popFirst().flatMap(Int.init) ?? seconds
    case "--connections": connections = arguments.popFirst().flatMap(Int.init) ?? connections
    default:
        print("usage: ServerBenchmark [--photos N] [--db FILE] [--seconds S] [--connections C]")
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

print("\(photos) photos (\(db)), \(ProcessInfo.processInfo.activeProcessorCount) cores")
print("server ready (until /api/library answers): \(ready.map { String(format: "%.2f s", Double($0.components.seconds) + Double($0.components.attoseconds) / 1e18) } ?? "timed out")")
print("peak memory after start: \(String(format: "%.0f", peakMB(server.processIdentifier))) MB")
print("")
print(String(format: "%-46@ %9@ %9@ %8@ %8@ %8@", "endpoint (wrk, \(connections) connections, \(seconds) s)" as NSString, "bytes" as NSString, "req/s" as NSString, "p50 ms" as NSString, "p99 ms" as NSString, "max ms" as NSString))
for path in ["/api/sections?level=coarse", "/api/sections?level=fine", "/api/layout?level=fine&viewport=390x844",
             "/api/layout?level=coarse&viewport=1440x900", "/api/zoom?from=coarse&section=3&item=2&offset=0", "/api/library"] {
    // Warm the answer once (the first request encodes it).
    let size = fetch(base + path)?.count ?? 0
    let output = (try? run("/usr/bin/wrk", ["-t2", "-c\(connections)", "-d\(seconds)s", "--latency", base + path])) ?? ""
    func value(_ label: String) -> String {
        guard let line = output.split(separator: "\n").first(where: { $0.trimmingCharacters(in: .whitespaces).hasPrefix(label) }) else { return "?" }
        let parts = line.split(separator: " ", omittingEmptySubsequences: true)
        return parts.count > 1 ? String(parts[1]) : "?"
    }
    func ms(_ text: String) -> String {
        if text.hasSuffix("us"), let v = Double(text.dropLast(2)) { return String(format: "%.2f", v / 1000) }
        if text.hasSuffix("ms"), let v = Double(text.dropLast(2)) { return String(format: "%.2f", v) }
        if text.hasSuffix("s"), let v = Double(text.dropLast(1)) { return String(format: "%.2f", v * 1000) }
        return text
    }
    let maxLine = output.split(separator: "\n").first { $0.contains("Latency") && !$0.contains("Distribution") }
    let maxValue = maxLine.map { String($0.split(separator: " ", omittingEmptySubsequences: true)[3]) } ?? "?"
    print(String(format: "%-46@ %9d %9@ %8@ %8@ %8@", path as NSString, size, value("Requests/sec:") as NSString, ms(value("50%")) as NSString,
                 ms(value("99%")) as NSString, ms(maxValue) as NSString))
}
print("")
print("peak memory after load: \(String(format: "%.0f", peakMB(server.processIdentifier))) MB")
server.terminate()
server.waitUntilExit()

// Cached thumbnails over HTTP: the project's own photos, indexed and rendered ahead of time.
let photosFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("testdata/photos").path
let smallDB = folder + "/testdata.sqlite"
try run(tool("shoebox"), ["index", photosFolder, "--db", smallDB])
setenv("XDG_CACHE_HOME", folder + "/cache", 1)
try run(tool("shoebox"), ["thumbnails", "--db", smallDB])
let (thumbnails, thumbnailPort, _) = startServer(smallDB)
let thumbnailBase = "http://127.0.0.1:\(thumbnailPort)"
let path = "/api/photos/1/thumbnail?size=thumbnail"
let size = fetch(thumbnailBase + path)?.count ?? 0
let output = (try? run("/usr/bin/wrk", ["-t2", "-c\(connections)", "-d\(seconds)s", "--latency", thumbnailBase + path])) ?? ""
let rate = output.split(separator: "\n").first { $0.hasPrefix("Requests/sec:") }.map { String($0.split(separator: " ").last ?? "?") } ?? "?"
print("cached thumbnail \(path) (\(size) bytes): \(rate) requests/s")
thumbnails.terminate()
thumbnails.waitUntilExit()
