import Foundation
import GRDB
import Spawn

/// Runs the built `shoebox` executable, as a user would.
struct ShoeboxProcess {
    struct Output {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// The executable beside the test bundle in the build folder.
    static let executable: URL = {
        let bundle = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        var folder = bundle.deletingLastPathComponent()
        // `swift test` runs `…/debug/ShoeboxPackageTests.xctest`; the tool sits in `…/debug/`.
        while !FileManager.default.fileExists(atPath: folder.appendingPathComponent("shoebox").path) && folder.path != "/" {
            folder.deleteLastPathComponent()
        }
        return folder.appendingPathComponent("shoebox")
    }()

    /// The repository root (for `config/` and `testdata/`).
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Runs to completion and captures both streams (see `runWithDeadline`, which this is with a
    /// user and an executable to choose).
    static func run(
        _ arguments: [String], user: String? = nil, environment: [String: String] = [:], executable: URL = executable,
        deadline: Duration = .seconds(120)
    ) throws -> Output {
        let process = start(arguments, user: user, environment: environment, executable: executable)
        return try finish(process, arguments: arguments, stdout: nil, deadline: deadline)
    }

    /// Runs with a deadline (the process is killed past it, and the test fails), optionally in
    /// `directory` and with standard output sent to `stdout` instead of a pipe (e.g. /dev/full).
    /// Both streams are drained on their own threads, so neither can fill its pipe and block.
    static func runWithDeadline(
        _ arguments: [String], environment: [String: String] = [:], directory: String? = nil,
        stdout: FileHandle? = nil, deadline: Duration = .seconds(60)
    ) throws -> Output {
        let process = start(arguments, environment: environment)
        if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
        return try finish(process, arguments: arguments, stdout: stdout, deadline: deadline)
    }

    /// Starts `process`, drains both streams on their own threads, so neither can fill its pipe
    /// and block the child, and kills it past `deadline` (the test then fails with an error).
    static func finish(_ process: ChildProcess, arguments: [String], stdout: FileHandle?, deadline: Duration) throws -> Output {
        let outPipe = Pipe(), errPipe = Pipe()
        process.standardOutput = stdout ?? outPipe
        process.standardError = errPipe
        let finished = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in finished.signal() }
        try process.run()
        nonisolated(unsafe) var out = Data(), err = Data()
        let group = DispatchGroup()
        DispatchQueue.global().async(group: group) { err = errPipe.fileHandleForReading.readDataToEndOfFile() }
        if stdout == nil {
            DispatchQueue.global().async(group: group) { out = outPipe.fileHandleForReading.readDataToEndOfFile() }
        }
        let seconds = Double(deadline.components.seconds)
        if finished.wait(timeout: .now() + seconds) == .timedOut {
            process.terminate()
            kill(process.processIdentifier, SIGKILL)
            finished.wait()
            throw DeadlineExceeded(arguments: arguments, seconds: seconds)
        }
        group.wait()
        return Output(status: process.terminationStatus, stdout: String(decoding: out, as: UTF8.self), stderr: String(decoding: err, as: UTF8.self))
    }

    /// For runs a test interrupts or kills: every file's read takes `seconds` longer (a debug
    /// build's `SHOEBOX_TEST_READ_DELAY`), so that the run is certainly still reading when the
    /// signal lands, however fast the machine.
    /// No places table either: loading it takes about a second in a debug build, which would
    /// push the first commit past the moments these tests pick for their signals.
    static func slowReads(_ seconds: Double) -> [String: String] {
        ["SHOEBOX_TEST_READ_DELAY": String(seconds), "SHOEBOX_PLACES": "/nonexistent/places.bin"]
    }

    /// Waits until the run started in `database` has opened its run row (the process has armed
    /// its Ctrl-C handler and begun): `runsBefore` is the row count before it started.
    static func waitForRunStart(database: String, runsBefore: Int, deadline: Duration = .seconds(30)) throws {
        let end = ContinuousClock.now + deadline
        while ContinuousClock.now < end {
            if let runs = try? runCount(database), runs > runsBefore { return }
            Thread.sleep(forTimeInterval: 0.005)
        }
        throw DeadlineExceeded(arguments: ["index (waiting for its run row)", database], seconds: Double(deadline.components.seconds))
    }

    /// The rows of `indexRun` in `database`; 0 when there is no database yet.
    static func runCount(_ database: String) throws -> Int {
        guard FileManager.default.fileExists(atPath: database) else { return 0 }
        let queue = try DatabaseQueue(path: database, configuration: { var c = Configuration(); c.readonly = true; return c }())
        defer { try? queue.close() }
        return try queue.read { db in try db.tableExists("indexRun") ? try Int.fetchOne(db, sql: "SELECT count(*) FROM indexRun") ?? 0 : 0 }
    }

    struct DeadlineExceeded: Error, CustomStringConvertible {
        var arguments: [String]
        var seconds: Double
        var description: String { "shoebox \(arguments.joined(separator: " ")) did not finish within \(seconds) s" }
    }

    /// Starts a process whose output is discarded (for runs a test kills or waits on).
    static func launch(_ arguments: [String], environment: [String: String] = [:]) throws -> ChildProcess {
        let process = start(arguments, environment: environment)
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        return process
    }

    /// A configured, not yet started process; as an unprivileged `user` through `setpriv` when given.
    static func start(_ arguments: [String], user: String? = nil, environment: [String: String] = [:], executable: URL = executable) -> ChildProcess {
        let process = ChildProcess()
        if let user {
            process.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
            process.arguments = ["--reuid=\(user)", "--regid=\(user)", "--clear-groups", executable.path] + arguments
        } else {
            process.executableURL = executable
            process.arguments = arguments
        }
        var env = ProcessInfo.processInfo.environment
        env["SHOEBOX_CONFIG"] = packageRoot.appendingPathComponent("config/shoebox.json").path
        env.merge(environment) { $1 }
        process.environment = env
        process.standardInput = FileHandle.nullDevice
        return process
    }
}
