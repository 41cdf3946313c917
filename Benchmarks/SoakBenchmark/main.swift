// Soaks `shoebox serve --watch`: for a while (10 minutes by default) clients send a mix of API,
// thumbnail, preview and original requests while photos are added, changed and removed in the
// library's folder and `photos`, `index` and `backup` run beside the server on the same database.
// At the end it reports the requests served, the errors (there should be none), the server's peak
// and final memory, whether the index matches the folder, and SQLite's integrity check.
//
//   swift build -c release --product shoebox && swift build -c release --product SoakBenchmark
//   .build/release/SoakBenchmark [--minutes 10] [--clients 8] [--photos 300]
//
// An error is a failed connection, a 5xx, or a 4xx that a correct server would not send. A 404
// for a photo the churn has just removed is counted apart, as "gone". `index` beside the watching
// server may be told that another run is writing; that is counted as "waited", not as an error.

import Foundation
import GRDB
import PhotoFixtures
import SeededRandom
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

var minutes = 10.0
var clients = 8
var initialPhotos = 300
var arguments = CommandLine.arguments.dropFirst()
while let flag = arguments.popFirst() {
    switch flag {
    case "--minutes": minutes = arguments.popFirst().flatMap(Double.init).map { max(0.1, $0) } ?? minutes
    case "--clients": clients = arguments.popFirst().flatMap(Int.init).map { max(1, min($0, 64)) } ?? clients
    case "--photos": initialPhotos = arguments.popFirst().flatMap(Int.init).map { max(10, $0) } ?? initialPhotos
    default:
        print("usage: SoakBenchmark [--minutes M] [--clients C] [--photos N]")
        exit(2)
    }
}

let binaries = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
let shoebox = binaries.appendingPathComponent("shoebox").path
guard FileManager.default.isExecutableFile(atPath: shoebox) else {
    print("error: \(shoebox) is missing: swift build -c release --product shoebox")
    exit(1)
}

let folder = NSTemporaryDirectory() + "shoebox-soak-\(getpid())"
let root = folder + "/photos"
let database = folder + "/library.sqlite"
try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(atPath: folder) }

// MARK: The library

/// A camera-sized grey JPEG dated `day` days into 2024, `minute` minutes into it.
@Sendable func photoBytes(day: Int, minute: Int) -> [UInt8] {
    let month = 1 + (day / 28) % 12, dayOfMonth = 1 + day % 28
    let date = String(format: "2024:%02d:%02d %02d:%02d:00", month, dayOfMonth, 8 + (minute / 60) % 12, minute % 60)
    return PhotoFixtures.jpeg(width: 3000, height: 2000, exif: ExifFields(dateTimeOriginal: date, make: "Soak", model: "Camera"))
}

for n in 0..<initialPhotos {
    let subfolder = root + "/roll-\(n / 50)"
    try FileManager.default.createDirectory(atPath: subfolder, withIntermediateDirectories: true)
    _ = FileManager.default.createFile(atPath: subfolder + "/IMG_\(n).jpg", contents: Data(photoBytes(day: n / 7, minute: n)))
}

// The built-in defaults, so that no config file of the machine or the current folder applies.
let configuration = folder + "/config.json"
do {
    let defaults = Process()
    defaults.executableURL = URL(fileURLWithPath: shoebox)
    defaults.arguments = ["config", "--defaults"]
    let output = Pipe()
    defaults.standardOutput = output
    defaults.standardError = FileHandle.nullDevice
    try defaults.run()
    let json = output.fileHandleForReading.readDataToEndOfFile()
    defaults.waitUntilExit()
    try json.write(to: URL(fileURLWithPath: configuration))
}

/// Runs `shoebox ARGUMENTS --db DATABASE --config CONFIGURATION` to completion: its exit status
/// and standard error.
@Sendable func shoeboxRun(_ arguments: [String]) -> (status: Int32, errors: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: shoebox)
    process.arguments = arguments + ["--db", database, "--config", configuration]
    let errors = Pipe()
    process.standardOutput = FileHandle.nullDevice
    process.standardError = errors
    do { try process.run() } catch { return (-1, "\(error)") }
    let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    return (process.terminationStatus, text)
}

let first = shoeboxRun(["index", root])
guard first.status == 0 else {
    print("error: the first index failed: \(first.errors)")
    exit(1)
}

// MARK: The server

let server = Process()
server.executableURL = URL(fileURLWithPath: shoebox)
server.arguments = ["serve", "--watch", "--port", "0", "--db", database, "--config", configuration]
var environment = ProcessInfo.processInfo.environment
environment["XDG_CACHE_HOME"] = folder + "/cache"
server.environment = environment
let serverErrors = Pipe()
server.standardError = serverErrors
server.standardOutput = FileHandle.nullDevice
try server.run()

/// Lines the server writes to standard error, kept for the report; the port from its first line.
final class ServerLog: @unchecked Sendable {
    private let lock = NSLock()
    private var lines: [String] = []
    private var pending = ""
    let ready = DispatchSemaphore(value: 0)
    private(set) var port: Int?

    func append(_ data: Data) {
        lock.lock()
        defer { lock.unlock() }
        pending += String(decoding: data, as: UTF8.self)
        while let newline = pending.firstIndex(of: "\n") {
            let line = String(pending[..<newline])
            pending.removeSubrange(...newline)
            lines.append(line)
            if port == nil, let range = line.range(of: #":(\d+)/"#, options: .regularExpression) {
                port = Int(line[range].dropFirst().dropLast())
                ready.signal()
            }
        }
    }

    var all: [String] { lock.lock(); defer { lock.unlock() }; return lines }
}
let log = ServerLog()
serverErrors.fileHandleForReading.readabilityHandler = { handle in
    let data = handle.availableData
    if !data.isEmpty { log.append(data) }
}
guard log.ready.wait(timeout: .now() + 60) == .success, let port = log.port else {
    print("error: the server did not say where it listens within 60 s:\n" + log.all.joined(separator: "\n"))
    server.terminate()
    exit(1)
}
let base = "http://127.0.0.1:\(port)"

/// The server's memory in KiB: its peak (VmHWM) and current (VmRSS) resident set.
@Sendable func serverMemory() -> (peak: Int, current: Int) {
    guard let status = try? String(contentsOfFile: "/proc/\(server.processIdentifier)/status", encoding: .utf8) else { return (0, 0) }
    func field(_ name: String) -> Int {
        guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix(name + ":") }) else { return 0 }
        return Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "") ?? 0
    }
    return (field("VmHWM"), field("VmRSS"))
}

// MARK: Requests

/// One GET with a deadline: the status (0 when the connection failed) and the body.
@Sendable func get(_ path: String, range: String? = nil) -> (status: Int, body: Data) {
    var request = URLRequest(url: URL(string: base + path)!)
    request.timeoutInterval = 30
    if let range { request.setValue(range, forHTTPHeaderField: "Range") }
    let done = DispatchSemaphore(value: 0)
    nonisolated(unsafe) var result = (status: 0, body: Data())
    URLSession.shared.dataTask(with: request) { data, response, _ in
        result = ((response as? HTTPURLResponse)?.statusCode ?? 0, data ?? Data())
        done.signal()
    }.resume()
    done.wait()
    return result
}

/// Running totals, shared by the clients.
final class Totals: @unchecked Sendable {
    private let lock = NSLock()
    private(set) var served = 0
    private(set) var gone = 0
    private(set) var errors: [String] = []
    private(set) var byRoute: [String: Int] = [:]

    func record(_ route: String, _ path: String, status: Int, photoRoute: Bool) {
        lock.lock()
        defer { lock.unlock() }
        switch status {
        case 200, 206, 304: served += 1; byRoute[route, default: 0] += 1
        case 404 where photoRoute: gone += 1
        default: errors.append("\(status) \(path)")
        }
    }
}
let totals = Totals()

/// Photo ids and section counts as the clients last saw them.
final class Known: @unchecked Sendable {
    private let lock = NSLock()
    private var ids: [Int64] = []
    private var sections = (coarse: 1, fine: 1)

    func update(ids new: [Int64]) { lock.lock(); if !new.isEmpty { ids = new }; lock.unlock() }
    func update(coarse: Int, fine: Int) { lock.lock(); sections = (max(coarse, 1), max(fine, 1)); lock.unlock() }
    func id(_ random: inout SplitMix64) -> Int64? {
        lock.lock(); defer { lock.unlock() }
        return ids.isEmpty ? nil : ids[Int(random.next() % UInt64(ids.count))]
    }
    func section(_ level: String, _ random: inout SplitMix64) -> Int {
        lock.lock(); defer { lock.unlock() }
        return Int(random.next() % UInt64(level == "coarse" ? sections.coarse : sections.fine))
    }
}
let known = Known()

struct LibraryAnswer: Decodable { var photos: Int; var sections: [String: Int] }
struct SectionAnswer: Decodable { struct Photo: Decodable { var id: Int64 }; var photos: [Photo]? }

/// Reads the section counts and the ids of one fine section.
@Sendable func refresh(_ random: inout SplitMix64) {
    let answer = get("/api/library")
    totals.record("library", "/api/library", status: answer.status, photoRoute: false)
    if let library = try? JSONDecoder().decode(LibraryAnswer.self, from: answer.body) {
        known.update(coarse: library.sections["coarse"] ?? 1, fine: library.sections["fine"] ?? 1)
    }
    let path = "/api/sections/fine/\(known.section("fine", &random))"
    let section = get(path)
    // A section index can fall past the end when the churn merges two days: a 404 is "gone" then.
    totals.record("section", path, status: section.status, photoRoute: true)
    if let decoded = try? JSONDecoder().decode(SectionAnswer.self, from: section.body) {
        known.update(ids: (decoded.photos ?? []).map(\.id))
    }
}

let deadline = ContinuousClock.now + .seconds(minutes * 60)
let group = DispatchGroup()

for client in 0..<clients {
    group.enter()
    Thread.detachNewThread {
        var random = SplitMix64(seed: UInt64(client + 1))
        var count = 0
        while ContinuousClock.now < deadline {
            if count % 20 == 0 { refresh(&random) }
            count += 1
            let level = random.next() % 2 == 0 ? "coarse" : "fine"
            let path: String
            let route: String
            var range: String?
            var photoRoute = false
            switch random.next() % 10 {
            case 0: (route, path) = ("library", "/api/library")
            case 1: (route, path) = ("sections", "/api/sections?level=\(level)")
            case 2:
                (route, path) = ("section page", "/api/sections/\(level)/\(known.section(level, &random))?from=0&count=120")
                photoRoute = true
            case 3: (route, path) = ("layout", "/api/layout?level=\(level)&viewport=390x844")
            case 4:
                (route, path) = ("zoom", "/api/zoom?from=\(level)&focalY=\(random.next() % 844)&offset=0&viewport=390x844")
            default:
                guard let id = known.id(&random) else { continue }
                photoRoute = true
                switch random.next() % 5 {
                case 0: (route, path) = ("photo", "/api/photos/\(id)")
                case 1: (route, path) = ("preview", "/api/photos/\(id)/thumbnail?size=preview")
                case 2: (route, path) = ("original", "/api/photos/\(id)/original"); range = "bytes=0-1023"
                default: (route, path) = ("thumbnail", "/api/photos/\(id)/thumbnail")
                }
            }
            let answer = get(path, range: range)
            totals.record(route, path, status: answer.status, photoRoute: photoRoute)
        }
        group.leave()
    }
}

// MARK: Churn in the folder, and commands beside the server

/// What the churn did, and what the commands beside the server answered.
final class Beside: @unchecked Sendable {
    var added = 0, changed = 0, removed = 0
    var runs: [String: Int] = [:]
    var waited = 0
    var failures: [String] = []
}
let beside = Beside()

let firstNew = initialPhotos
group.enter()
Thread.detachNewThread {
    var random = SplitMix64(seed: 99)
    var created: [String] = []
    var next = firstNew
    while ContinuousClock.now < deadline {
        Thread.sleep(forTimeInterval: 0.2 + Double(random.next() % 800) / 1000)
        switch random.next() % 4 {
        case 0, 1:
            let path = root + "/incoming/IMG_\(next).jpg"
            try? FileManager.default.createDirectory(atPath: root + "/incoming", withIntermediateDirectories: true)
            _ = FileManager.default.createFile(atPath: path, contents: Data(photoBytes(day: next % 300, minute: next)))
            created.append(path)
            next += 1
            beside.added += 1
        case 2 where !created.isEmpty:
            let path = created[Int(random.next() % UInt64(created.count))]
            _ = FileManager.default.createFile(atPath: path, contents: Data(photoBytes(day: Int(random.next() % 300), minute: next)))
            beside.changed += 1
        case 3 where !created.isEmpty:
            let path = created.remove(at: Int(random.next() % UInt64(created.count)))
            try? FileManager.default.removeItem(atPath: path)
            beside.removed += 1
        default: break
        }
    }
    group.leave()
}

group.enter()
Thread.detachNewThread {
    var round = 0
    while ContinuousClock.now < deadline {
        Thread.sleep(forTimeInterval: 5)
        let backup = folder + "/backup-\(round).sqlite"
        let command: [String] = switch round % 3 {
        case 0: ["photos", "--json"]
        case 1: ["index", root]
        default: ["backup", backup]
        }
        let result = shoeboxRun(command)
        beside.runs[command[0], default: 0] += 1
        if result.status != 0 {
            if command[0] == "index", result.errors.contains("already") { beside.waited += 1 } else {
                beside.failures.append("\(command[0]) exited \(result.status): \(result.errors.prefix(300))")
            }
        }
        try? FileManager.default.removeItem(atPath: backup)
        round += 1
    }
    group.leave()
}

var peak = 0
while group.wait(timeout: .now() + 1) == .timedOut {
    peak = max(peak, serverMemory().peak)
    let elapsed = Int(minutes * 60 - Double((deadline - ContinuousClock.now).components.seconds))
    if elapsed % 30 == 0 {
        print("… \(elapsed) s: \(totals.served) served, \(totals.errors.count) errors, RSS \(serverMemory().current / 1024) MB")
    }
}

// MARK: Settle and report

/// The photos in the folder, which the index should hold once the watcher has caught up.
func filesOnDisk() -> Int {
    (FileManager.default.enumerator(atPath: root)?.allObjects as? [String] ?? []).filter { $0.hasSuffix(".jpg") }.count
}
var indexed = -1
let settle = ContinuousClock.now + .seconds(30)
repeat {
    Thread.sleep(forTimeInterval: 1)
    indexed = (try? JSONDecoder().decode(LibraryAnswer.self, from: get("/api/library").body))?.photos ?? -1
} while indexed != filesOnDisk() && ContinuousClock.now < settle
let memory = serverMemory()
peak = max(peak, memory.peak)
let alive = server.isRunning
server.terminate()
server.waitUntilExit()

let integrity: String
do {
    integrity = try DatabaseQueue(path: database).read { try String.fetchAll($0, sql: "PRAGMA integrity_check").joined(separator: "; ") }
} catch {
    integrity = "failed: \(error)"
}

print("""

    Soak: serve --watch for \(minutes) min, \(clients) clients, \(initialPhotos) photos to start
    requests served      \(totals.served)
    errors               \(totals.errors.count)\(totals.errors.isEmpty ? "" : "  (first: " + totals.errors.prefix(5).joined(separator: ", ") + ")")
    gone (404, churn)    \(totals.gone)
    per route            \(totals.byRoute.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", "))
    churn                \(beside.added) added, \(beside.changed) changed, \(beside.removed) removed
    beside the server    \(beside.runs.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")); index told another run writes: \(beside.waited); failures: \(beside.failures.count)
    peak RSS             \(peak / 1024) MB
    final RSS            \(memory.current / 1024) MB
    server alive at end  \(alive ? "yes" : "no")
    index vs folder      \(indexed) indexed, \(filesOnDisk()) files\(indexed == filesOnDisk() ? " (exact)" : " (DIFFERENT)")
    integrity_check      \(integrity)
    """)
for failure in beside.failures.prefix(5) { print("  " + failure) }
let failed = !totals.errors.isEmpty || !beside.failures.isEmpty || !alive || integrity != "ok" || indexed != filesOnDisk()
exit(failed ? 1 : 0)
