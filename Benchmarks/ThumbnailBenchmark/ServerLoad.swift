// `ThumbnailBenchmark --server-load`: the hostile load of issue 24 against `shoebox serve`.
//
//   swift build -c release --product shoebox && swift build -c release --product ThumbnailBenchmark
//   .build/release/ThumbnailBenchmark --server-load [--shoebox PATH] [--photos 5] [--side 12000]
//       [--requests 20] [--max-pixels N] [--folder DIR]
//
// Makes `--photos` progressive JPEGs of `--side` × `--side` pixels with `vips` (once per
// `--folder`), indexes them, starts `shoebox serve` on a free port with an empty thumbnail cache,
// and sends `--requests` thumbnail and preview requests at once (each (photo, size) asked
// for about twice), while `/api/library` is asked every 250 ms. Prints the server's peak resident
// memory (VmHWM), its CPU time, every request's answer and placeholder reason, and the latency of
// `/api/library` meanwhile. `--shoebox` runs another build (an older one, to compare);
// `--max-pixels` sets `thumbnails.maxPixels` in a config file.

import Foundation
import Synchronization

struct ServerLoad {
    var shoebox: String
    var photos = 5
    var side = 12_000
    var requests = 20
    var maxPixels: Int64?
    var folder: String?

    init(arguments: ArraySlice<String>) {
        shoebox = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
            .deletingLastPathComponent().appendingPathComponent("shoebox").path
        var arguments = arguments
        while let argument = arguments.popFirst() {
            switch argument {
            case "--shoebox": shoebox = arguments.popFirst() ?? shoebox
            case "--photos": photos = max(1, Int(arguments.popFirst() ?? "") ?? photos)
            case "--side": side = max(16, Int(arguments.popFirst() ?? "") ?? side)
            case "--requests": requests = max(1, Int(arguments.popFirst() ?? "") ?? requests)
            case "--max-pixels": maxPixels = Int64(arguments.popFirst() ?? "")
            case "--folder": folder = arguments.popFirst()
            default:
                print("usage: ThumbnailBenchmark --server-load [--shoebox PATH] [--photos N] [--side PIXELS] [--requests N] [--max-pixels N] [--folder DIR]")
                exit(2)
            }
        }
    }

    /// Runs `command` with `sh -c`; its standard output, or a thrown error when it fails.
    @discardableResult
    static func shell(_ command: String, environment: [String: String]? = nil) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", command]
        if let environment { process.environment = environment }
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw CocoaError(.executableLoad, userInfo: [NSLocalizedDescriptionKey: "failed (\(process.terminationStatus)): \(command)"])
        }
        return String(decoding: output, as: UTF8.self)
    }

    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    /// A field of /proc/PID/status in MB (VmRSS, VmHWM), or 0.
    static func statusMB(_ pid: Int32, _ field: String) -> Double {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return 0 }
        for line in text.split(separator: "\n") where line.hasPrefix(field + ":") {
            let kilobytes = line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first.flatMap { Double($0) } ?? 0
            return kilobytes / 1024
        }
        return 0
    }

    /// User plus system CPU seconds of a process, from /proc/PID/stat.
    static func cpuSeconds(_ pid: Int32) -> Double {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = text.lastIndex(of: ")") else { return 0 }
        let fields = text[text.index(after: close)...].split(separator: " ")
        // After the name: state is field 3, utime field 14, stime field 15.
        guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else { return 0 }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    func run() throws {
        let base = folder ?? NSTemporaryDirectory() + "shoebox-server-load"
        let photosFolder = base + "/photos"
        try FileManager.default.createDirectory(atPath: photosFolder, withIntermediateDirectories: true)
        let first = photosFolder + "/big-\(side)-1.jpg"
        if !FileManager.default.fileExists(atPath: first) {
            print("making \(photos) progressive JPEGs of \(side) × \(side) in \(photosFolder) …")
            let small = max(16, side / 8)
            try Self.shell("""
                cd '\(base)' && vips gaussnoise noise.v \(small) \(small) --sigma 60 --mean 128 && vips cast noise.v grey.v uchar \
                && vips bandjoin 'grey.v grey.v grey.v' rgb.v && vips resize rgb.v big.v \(Double(side) / Double(small)) \
                && vips jpegsave big.v '\(first)' --interlace --Q 85 && rm -f noise.v grey.v rgb.v big.v
                """)
        }
        for index in 2...max(2, photos) where index <= photos {
            let path = photosFolder + "/big-\(side)-\(index).jpg"
            if !FileManager.default.fileExists(atPath: path) { try FileManager.default.copyItem(atPath: first, toPath: path) }
        }
        let run = base + "/run-\(getpid())"
        try FileManager.default.createDirectory(atPath: run + "/cache", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: run) }
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_CACHE_HOME"] = run + "/cache"
        environment["XDG_CONFIG_HOME"] = run + "/config"
        environment["SHOEBOX_CONFIG"] = nil
        var configFlag = ""
        if let maxPixels {
            try Data(#"{"thumbnails": {"maxPixels": \#(maxPixels)}}"#.utf8).write(to: URL(fileURLWithPath: run + "/config.json"))
            configFlag = " --config '\(run)/config.json'"
        }
        let database = run + "/index.sqlite"
        try Self.shell("cd '\(run)' && '\(shoebox)' index '\(photosFolder)' --db '\(database)'\(configFlag) > /dev/null", environment: environment)

        let port = 20_000 + Int(getpid() % 20_000)
        let server = Process()
        server.executableURL = URL(fileURLWithPath: shoebox)
        server.arguments = ["serve", "--db", database, "--port", String(port)] + (maxPixels == nil ? [] : ["--config", run + "/config.json"])
        server.environment = environment
        server.currentDirectoryURL = URL(fileURLWithPath: run)
        server.standardError = FileHandle(forWritingAtPath: "/dev/null")
        try server.run()
        defer { server.terminate(); server.waitUntilExit() }
        let pid = server.processIdentifier
        let api = "http://127.0.0.1:\(port)/api"
        var ready = false
        for _ in 0..<200 where !ready {
            ready = (try? Self.shell("curl -sf -o /dev/null '\(api)/library'")) != nil
            if !ready { usleep(50_000) }
        }
        guard ready else { print("the server did not answer on port \(port)"); exit(1) }
        let idle = Self.statusMB(pid, "VmRSS")
        let cpuBefore = Self.cpuSeconds(pid)

        // The library's latency, polled until the thumbnails are done.
        let done = Atomic(false)
        let latencies = Mutex<[Double]>([])
        let poller = Thread {
            while !done.load(ordering: .relaxed) {
                let start = ContinuousClock.now
                let ok = (try? Self.shell("curl -sf -o /dev/null --max-time 30 '\(api)/library'")) != nil
                let elapsed = Self.seconds(ContinuousClock.now - start)
                latencies.withLock { $0.append(ok ? elapsed : .infinity) }
                usleep(250_000)
            }
        }
        poller.start()

        let answers = Mutex<[(request: String, line: String)]>([])
        let group = DispatchGroup()
        let start = ContinuousClock.now
        for index in 0..<requests {
            let id = 1 + index % photos
            let size = (index / photos) % 2 == 0 ? "thumbnail" : "preview"
            let request = "photo \(id) \(size)"
            group.enter()
            Thread {
                let line = (try? Self.shell(
                    "curl -s -o /dev/null --max-time 600 -w '%{http_code} %{time_total}s %header{x-shoebox-placeholder}' '\(api)/photos/\(id)/thumbnail?size=\(size)'"
                )) ?? "curl failed"
                answers.withLock { $0.append((request, line)) }
                group.leave()
            }.start()
        }
        var peakSampled = 0.0
        while group.wait(timeout: .now() + .milliseconds(100)) == .timedOut {
            peakSampled = max(peakSampled, Self.statusMB(pid, "VmRSS"))
        }
        let wall = Self.seconds(ContinuousClock.now - start)
        done.store(true, ordering: .relaxed)
        while poller.isExecuting { usleep(10_000) }
        let cpu = Self.cpuSeconds(pid) - cpuBefore
        let peak = Self.statusMB(pid, "VmHWM")

        print("shoebox: \(shoebox)")
        print("\(requests) requests at once over \(photos) progressive JPEGs of \(side) × \(side)" + (maxPixels.map { ", thumbnails.maxPixels \($0)" } ?? ""))
        for answer in answers.withLock({ $0 }).sorted(by: { $0.request < $1.request }) {
            print("  \(answer.request): \(answer.line)")
        }
        let times = latencies.withLock { $0 }.sorted()
        let median = times.isEmpty ? 0 : times[times.count / 2]
        print(String(format: "all answered in %.1f s; server CPU %.1f s", wall, cpu))
        print(String(format: "server resident memory: idle %.0f MB, peak %.0f MB (VmHWM; sampled every 100 ms: %.0f MB)", idle, peak, peakSampled))
        print(String(format: "/api/library meanwhile: %d answers, median %.3f s, slowest %.3f s", times.count, median, times.last ?? 0))
    }
}
