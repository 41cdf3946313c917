import Foundation
import Spawn
#if canImport(Glibc)
import Glibc
#endif

/// A real `shoebox serve` process on loopback, started under an open-file limit, with its log in a
/// file: for what only a process shows (its limits, its descriptors, the CPU time it burns).
///
/// Stopped (SIGTERM, then SIGKILL) when released.
final class ServeProcess: @unchecked Sendable {
    let process = ChildProcess()
    let logPath: String
    /// The port it listens on, read from its first line.
    private(set) var port = 0

    /// Starts `shoebox serve --db DATABASE --port 0 ARGUMENTS` with the open-file limit set by
    /// `ulimit ULIMIT` (e.g. `-n 100` for soft and hard, `-Sn 256` for the soft one), and waits up
    /// to `readiness` for it to listen.
    init(database: String, cache: String, ulimit: String, arguments: [String] = [], readiness: Duration = .seconds(60)) async throws {
        logPath = cache + "/serve.log"
        try FileManager.default.createDirectory(atPath: cache, withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: logPath, contents: nil)
        let output = try FileHandle(forWritingTo: URL(fileURLWithPath: logPath))
        defer { try? output.close() }
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        // `exec` keeps the process id, so /proc/PID is the server's.
        process.arguments = ["-c", #"ulimit $0 && exec "$@""#, ulimit, shoeboxExecutable, "serve", "--db", database, "--port", "0"] + arguments
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_CACHE_HOME"] = cache
        process.environment = environment
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let deadline = ContinuousClock.now + readiness
        while port == 0 {
            let text = self.log()
            if let range = text.range(of: #"http://127\.0\.0\.1:\d+/"#, options: .regularExpression) {
                port = Int(text[range].dropFirst("http://127.0.0.1:".count).dropLast()) ?? 0
            }
            if port == 0 {
                guard process.isRunning else { throw ServeProcessError("shoebox serve ended before listening: \(text.suffix(2_000))") }
                guard ContinuousClock.now < deadline else { throw ServeProcessError("shoebox serve did not listen within \(readiness): \(text.suffix(2_000))") }
                try await Task.sleep(for: .milliseconds(50))
            }
        }
    }

    deinit {
        guard process.isRunning else { return }
        process.terminate()
        let deadline = ContinuousClock.now + .seconds(10)
        while process.isRunning && ContinuousClock.now < deadline { Thread.sleep(forTimeInterval: 0.02) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }

    /// Everything it wrote so far.
    func log() -> String { (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "" }

    /// How the process ended, for a failure's message: "running" while it runs.
    var ending: String {
        guard !process.isRunning else { return "running" }
        return process.terminationReason == .uncaughtSignal
            ? "killed by signal \(process.terminationStatus)" : "exited with status \(process.terminationStatus)"
    }

    /// User plus system CPU time of all its threads so far, in seconds (`/proc/PID/stat`).
    func cpuSeconds() throws -> Double {
        let stat = try String(contentsOfFile: "/proc/\(process.processIdentifier)/stat", encoding: .utf8)
        // Fields after the parenthesised command name, which may hold spaces: state is the first,
        // utime the 12th and stime the 13th.
        guard let close = stat.lastIndex(of: ")") else { throw ServeProcessError("unreadable /proc stat: \(stat)") }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else {
            throw ServeProcessError("unreadable /proc stat: \(stat)")
        }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    /// Descriptors it has open now.
    func openDescriptors() -> Int {
        ((try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(process.processIdentifier)/fd")) ?? []).count
    }

    /// How often `text` appears in its log.
    func count(_ text: String) -> Int { log().components(separatedBy: text).count - 1 }
}

struct ServeProcessError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// Raises this process's soft open-file limit to at least `needed` (up to the hard limit); whether
/// it is that high now. Tests that hold many sockets at once call it first.
func raiseOwnOpenFileLimit(to needed: Int) -> Bool {
    var limit = rlimit()
    guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return false }
    if limit.rlim_cur >= rlim_t(needed) { return true }
    guard limit.rlim_max >= rlim_t(needed) else { return false }
    limit.rlim_cur = rlim_t(needed)
    return setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0
}
