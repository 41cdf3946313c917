import CSpawn
public import Foundation
import Synchronization

/// A child process with the surface of Foundation's `Process`, started by `posix_spawn` so that it
/// keeps no descriptor of this process's but its three streams, however many this process holds.
///
/// Foundation's `Process` on Linux lists `/proc/self/fd` to close the rest, and reads past the end
/// of glibc's buffer for that listing once a process holds some 1,360 descriptors (each entry's
/// name is copied as 256 bytes): a server with that many clients, or a test holding a thousand
/// sockets, crashed on starting a child. Here the child closes them itself (glibc's
/// `posix_spawn_file_actions_addclosefrom_np`).
///
/// The child also starts with every signal at its default action, whatever this process ignores
/// (SIGPIPE, say), and in a process group of its own, as Foundation's children do.
///
/// A pid is signalled only until its process is reaped, so a pid the system has since given to
/// another process is never signalled.
public final class ChildProcess: @unchecked Sendable {
    public enum TerminationReason: Sendable {
        case exit
        case uncaughtSignal
    }

    public struct LaunchError: Error, CustomStringConvertible {
        public var path: String
        public var code: Int32
        public var description: String { "Cannot start \(path): \(String(cString: strerror(code)))" }
    }

    // What to start: set before `run()`.
    public var executableURL: URL?
    public var arguments: [String] = []
    /// The child's environment; nil gives it this process's.
    public var environment: [String: String]?
    /// The child's working folder; nil gives it this process's.
    public var currentDirectoryURL: URL?
    /// Each stream is a `Pipe` (the child gets one end, this process keeps the other), a
    /// `FileHandle`, or nil for /dev/null. By default the child shares this process's.
    public var standardInput: Any? = FileHandle.standardInput
    public var standardOutput: Any? = FileHandle.standardOutput
    public var standardError: Any? = FileHandle.standardError
    /// Called once the child has ended and been reaped, on a thread of its own.
    public var terminationHandler: (@Sendable (ChildProcess) -> Void)?

    private enum State {
        case notStarted
        case running(pid_t)
        case ended(pid: pid_t, reason: TerminationReason, status: Int32)
    }

    private let state = Mutex(State.notStarted)
    private let ended = DispatchGroup()

    public init() {}

    /// Starts `url` with `arguments` and the other settings at their defaults.
    @discardableResult
    public static func run(_ url: URL, arguments: [String], terminationHandler: (@Sendable (ChildProcess) -> Void)? = nil) throws -> ChildProcess {
        let process = ChildProcess()
        process.executableURL = url
        process.arguments = arguments
        process.terminationHandler = terminationHandler
        try process.run()
        return process
    }

    /// Starts the child; throws `LaunchError` when it cannot (no such file, not executable) or
    /// when it was started before.
    public func run() throws {
        guard let path = executableURL?.path else { throw LaunchError(path: "(no executable)", code: EINVAL) }
        guard case .notStarted = state.withLock({ $0 }) else { throw LaunchError(path: path, code: EBUSY) }
        let streams = [descriptor(standardInput, reading: true), descriptor(standardOutput, reading: false), descriptor(standardError, reading: false)]
        let environment = (environment ?? ProcessInfo.processInfo.environment).map { "\($0.key)=\($0.value)" }
        var pid: pid_t = 0
        let status = CStrings.withArray([path] + arguments) { argv in
            CStrings.withArray(environment) { envp in
                streams.withUnsafeBufferPointer { streams in
                    if let folder = currentDirectoryURL?.path {
                        shoebox_spawn(&pid, path, argv, envp, streams.baseAddress, folder)
                    } else {
                        shoebox_spawn(&pid, path, argv, envp, streams.baseAddress, nil)
                    }
                }
            }
        }
        guard status == 0 else { throw LaunchError(path: path, code: status) }
        ended.enter()
        state.withLock { $0 = .running(pid) }
        // This process's copies of the child's pipe ends: while they are open, a reader of the
        // child's output would never see its end.
        if let pipe = standardInput as? Pipe { try? pipe.fileHandleForReading.close() }
        if let pipe = standardOutput as? Pipe { try? pipe.fileHandleForWriting.close() }
        if let pipe = standardError as? Pipe { try? pipe.fileHandleForWriting.close() }
        Thread.detachNewThread { [self, pid] in reap(pid) }
    }

    /// The descriptor the child's stream comes from: -1 for /dev/null.
    private func descriptor(_ stream: Any?, reading: Bool) -> Int32 {
        switch stream {
        case let pipe as Pipe: reading ? pipe.fileHandleForReading.fileDescriptor : pipe.fileHandleForWriting.fileDescriptor
        case let handle as FileHandle: handle.fileDescriptor
        default: -1
        }
    }

    /// Waits for the child to end, then reaps it under the lock that `signal` takes.
    private func reap(_ pid: pid_t) {
        var code: Int32 = 0, status: Int32 = 0
        let failure = shoebox_wait_without_reaping(pid, &code, &status)
        state.withLock { state in
            var ignored: Int32 = 0
            while waitpid(pid, &ignored, 0) < 0 && errno == EINTR {}
            switch (failure, code) {
            case (0, Int32(CLD_EXITED)): state = .ended(pid: pid, reason: .exit, status: status)
            case (0, _): state = .ended(pid: pid, reason: .uncaughtSignal, status: status)
            // Reaped by someone else: its status is lost.
            default: state = .ended(pid: pid, reason: .exit, status: -1)
            }
        }
        ended.leave()
        terminationHandler?(self)
    }

    /// Sends `signal` to the child while it has not been reaped; false when it had ended (or had
    /// not started).
    @discardableResult
    public func signal(_ signal: Int32) -> Bool {
        state.withLock { state in
            guard case .running(let pid) = state else { return false }
            return kill(pid, signal) == 0
        }
    }

    /// SIGTERM, while the child runs.
    public func terminate() { signal(SIGTERM) }

    /// SIGINT, while the child runs.
    public func interrupt() { signal(SIGINT) }

    public func waitUntilExit() {
        ended.wait()
    }

    /// Waits at most `timeout` for the child to end; true when it has.
    public func waitUntilExit(timeout: Duration) -> Bool {
        let seconds = Double(timeout.components.seconds) + Double(timeout.components.attoseconds) / 1e18
        return ended.wait(timeout: .now() + seconds) == .success
    }

    /// The child's pid once started (it stays known after the child ended), else 0.
    public var processIdentifier: Int32 {
        switch state.withLock({ $0 }) {
        case .notStarted: 0
        case .running(let pid), .ended(let pid, _, _): pid
        }
    }

    /// True from `run()` until the child is reaped.
    public var isRunning: Bool {
        if case .running = state.withLock({ $0 }) { return true }
        return false
    }

    /// The exit status, or the signal that ended the child (see `terminationReason`); only
    /// meaningful once it has ended.
    public var terminationStatus: Int32 {
        if case .ended(_, _, let status) = state.withLock({ $0 }) { return status }
        return 0
    }

    public var terminationReason: TerminationReason {
        if case .ended(_, let reason, _) = state.withLock({ $0 }) { return reason }
        return .exit
    }
}

/// NULL-terminated arrays of C strings for exec, alive for the closure's call.
private enum CStrings {
    static func withArray<Result>(_ strings: [String], _ body: (UnsafePointer<UnsafeMutablePointer<CChar>?>) -> Result) -> Result {
        let copies = strings.map { strdup($0) } + [nil]
        defer { copies.forEach { free($0) } }
        return copies.withUnsafeBufferPointer { body($0.baseAddress!) }
    }
}
