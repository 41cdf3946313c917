import Dispatch
public import Foundation
import Spawn
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The one way Shoebox runs its decoding tools, ffmpeg, ffprobe and LibRaw's `dcraw_emu`: as child
/// processes (a hostile video or raw can crash one, never the server), each with a wall-clock
/// limit (killed when it passes), and, through util-linux's `prlimit`, an address-space and
/// CPU-time limit; output read, failures turned into `ThumbnailError`s that name the file.
public struct VideoTool: Sendable {
    /// The resolved `ffmpeg`, or nil when it is not installed.
    public var ffmpeg: String?
    /// The resolved `ffprobe`, or nil when it is not installed.
    public var ffprobe: String?
    /// The resolved `dcraw_emu` (Debian's `libraw-bin`), which decodes camera raws whole, or nil
    /// when it is not installed.
    public var dcrawEmu: String?
    /// `prlimit`, which sets the memory and CPU limits before it runs the tool; without it the
    /// tools run with the wall-clock limit only.
    public var prlimit: String?
    /// Bytes of address space each tool may map.
    public var memoryLimit: Int
    /// Threads each tool's codecs may use.
    public var threads: Int

    /// 2 GiB: room for a 4K decode and x264's look-ahead at 1080p.
    public static let defaultMemoryLimit = 2 << 30

    /// The tools found on `PATH` (`SHOEBOX_FFMPEG` / `SHOEBOX_FFPROBE` / `SHOEBOX_DCRAW_EMU` name
    /// others, or, when empty, none: a machine without that tool).
    public init(environment: [String: String] = ProcessInfo.processInfo.environment,
                memoryLimit: Int = VideoTool.defaultMemoryLimit, threads: Int = 1) {
        func find(_ name: String, override key: String) -> String? {
            if let chosen = environment[key] {
                return chosen.isEmpty ? nil : (FileManager.default.isExecutableFile(atPath: chosen) ? chosen : nil)
            }
            return Self.locate(name, path: environment["PATH"])
        }
        self.init(
            ffmpeg: find("ffmpeg", override: "SHOEBOX_FFMPEG"), ffprobe: find("ffprobe", override: "SHOEBOX_FFPROBE"),
            dcrawEmu: find("dcraw_emu", override: "SHOEBOX_DCRAW_EMU"), prlimit: Self.locate("prlimit", path: environment["PATH"]),
            memoryLimit: memoryLimit, threads: threads)
    }

    public init(
        ffmpeg: String?, ffprobe: String?, dcrawEmu: String? = nil, prlimit: String?,
        memoryLimit: Int = VideoTool.defaultMemoryLimit, threads: Int = 1
    ) {
        self.ffmpeg = ffmpeg
        self.ffprobe = ffprobe
        self.dcrawEmu = dcrawEmu
        self.prlimit = prlimit
        self.memoryLimit = max(64 << 20, memoryLimit)
        self.threads = max(1, threads)
    }

    /// The first executable `name` in `path`'s folders (then `/usr/bin`, `/bin`).
    public static func locate(_ name: String, path: String?) -> String? {
        let folders = (path ?? "").split(separator: ":").map(String.init) + ["/usr/bin", "/bin"]
        for folder in folders where folder.hasPrefix("/") {
            let candidate = folder + "/" + name
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }

    /// Why videos cannot be shown on this machine, or nil when ffmpeg and ffprobe are there.
    public var problem: String? {
        if ffmpeg == nil && ffprobe == nil { return "ffmpeg and ffprobe are not installed (Debian: apt-get install ffmpeg)" }
        if ffmpeg == nil { return "ffmpeg is not installed (Debian: apt-get install ffmpeg)" }
        if ffprobe == nil { return "ffprobe is not installed (Debian: apt-get install ffmpeg)" }
        return nil
    }

    /// What a finished tool left.
    public struct Output: Sendable {
        public var status: Int32
        public var stdout: [UInt8]
        /// The last few kilobytes of its error output.
        public var stderr: String
    }

    /// The options every input gets: no standard input, no probing of the format (the sniffed
    /// demuxer), files only, bounded threads; then the input itself, always as `file:`.
    func inputArguments(_ path: String, container: VideoContainer, seek: Double? = nil) -> [String] {
        var arguments = ["-protocol_whitelist", "file", "-threads", String(threads)]
        if let seek { arguments += ["-ss", String(format: "%.3f", seek)] }
        return arguments + ["-f", container.demuxer, "-i", "file:" + Self.childPath(path)]
    }

    /// `path` as the child sees it: a `/proc/self/fd/N` of this process (a file the server holds
    /// open) is `/proc/PID/fd/N` to another process.
    public static func childPath(_ path: String) -> String {
        guard path.hasPrefix("/proc/self/") else { return path }
        return "/proc/\(getpid())/" + path.dropFirst("/proc/self/".count)
    }

    /// A tool `run` starts.
    public enum Program: String, Sendable {
        case ffmpeg
        case ffprobe
        case dcrawEmu = "dcraw_emu"

        /// The options that come before the caller's: quiet, and ffmpeg never reads a terminal.
        var commonArguments: [String] {
            switch self {
            case .ffmpeg: ["-nostdin", "-hide_banner", "-loglevel", "error"]
            case .ffprobe: ["-hide_banner", "-loglevel", "error"]
            case .dcrawEmu: []
            }
        }
    }

    /// The resolved executable of `program`, or nil when it is not installed.
    public func executable(_ program: Program) -> String? {
        switch program {
        case .ffmpeg: ffmpeg
        case .ffprobe: ffprobe
        case .dcrawEmu: dcrawEmu
        }
    }

    /// Runs `program` with `arguments` (after its `commonArguments`), killed after `timeLimit`.
    ///
    /// - Parameters:
    ///   - path: the file the tool reads, for the errors.
    ///   - input: bytes written to the tool's standard input (`-i pipe:0`), else it reads none.
    ///   - onLine: called with each line of standard output as it comes (for `-progress pipe:1`);
    ///     the output is then not kept.
    public func run(
        _ program: Program, _ arguments: [String], path: String, timeLimit: Duration, input: [UInt8]? = nil,
        onLine: (@Sendable (String) -> Void)? = nil
    ) -> Result<Output, ThumbnailError> {
        let name = program.rawValue
        guard let tool = executable(program) else {
            let reason = program == .dcrawEmu ? "dcraw_emu is not installed (Debian: apt-get install libraw-bin)" : problem ?? "\(name) is not installed"
            return .failure(ThumbnailError(.decoderUnavailable, path: path, "Cannot show \(path): \(reason)."))
        }
        let process = ChildProcess()
        let limit = Double(timeLimit.components.seconds) + Double(timeLimit.components.attoseconds) / 1e18
        let seconds = max(1, Int(limit.rounded(.up)))
        let milliseconds = max(1, Int(limit * 1000))
        let toolArguments = program.commonArguments + arguments
        if let prlimit {
            process.executableURL = URL(fileURLWithPath: prlimit)
            // CPU seconds: every thread busy for the whole wall-clock limit, and one more.
            process.arguments = ["--as=\(memoryLimit)", "--cpu=\(seconds * (threads + 1) + 1)", "--", tool] + toolArguments
        } else {
            process.executableURL = URL(fileURLWithPath: tool)
            process.arguments = toolArguments
        }
        process.environment = ["PATH": "/usr/bin:/bin", "LC_ALL": "C"]
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        let feed = input.map { _ in Pipe() }
        process.standardInput = feed ?? FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            return .failure(ThumbnailError(.decoderUnavailable, path: path, "Cannot start \(name) for \(path): \(error)."))
        }
        let stdoutBytes = Mutex<[UInt8]>([])
        let stderrBytes = Mutex<[UInt8]>([])
        let readers = DispatchGroup()
        if let feed, let input {
            readers.enter()
            Thread.detachNewThread {
                // A tool that stops reading (it failed, or was killed) ends the write with EPIPE;
                // SIGPIPE, blocked on this thread alone, stays pending and dies with it.
                var pipeSignal = sigset_t()
                sigemptyset(&pipeSignal)
                sigaddset(&pipeSignal, SIGPIPE)
                pthread_sigmask(SIG_BLOCK, &pipeSignal, nil)
                let descriptor = feed.fileHandleForWriting.fileDescriptor
                input.withUnsafeBytes { bytes in
                    var written = 0
                    while written < bytes.count {
                        let count = write(descriptor, bytes.baseAddress! + written, bytes.count - written)
                        if count > 0 { written += count } else if count < 0 && errno == EINTR { continue } else { break }
                    }
                }
                try? feed.fileHandleForWriting.close()
                readers.leave()
            }
        }
        readers.enter()
        Thread.detachNewThread {
            let handle = output.fileHandleForReading
            var pending: [UInt8] = []
            while true {
                let chunk = handle.availableData
                if chunk.isEmpty { break }
                if let onLine {
                    pending += chunk
                    while let newline = pending.firstIndex(of: 0x0A) {
                        onLine(String(decoding: pending[..<newline], as: UTF8.self))
                        pending.removeSubrange(...newline)
                    }
                } else {
                    stdoutBytes.withLock { $0 += chunk }
                }
            }
            readers.leave()
        }
        readers.enter()
        Thread.detachNewThread {
            let handle = errors.fileHandleForReading
            while true {
                let chunk = handle.availableData
                if chunk.isEmpty { break }
                stderrBytes.withLock { kept in
                    kept += chunk
                    if kept.count > 8192 { kept.removeFirst(kept.count - 4096) }
                }
            }
            readers.leave()
        }
        // A thread of its own, not Dispatch's pool, which busy callers can hold up past the limit.
        // `signal` does nothing once the child was reaped, so its pid is never another process's.
        let killed = Mutex(false)
        let exited = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            guard exited.wait(timeout: .now() + .milliseconds(milliseconds)) == .timedOut else { return }
            killed.withLock { $0 = process.signal(SIGKILL) }
        }
        process.waitUntilExit()
        exited.signal()
        let wasKilled = killed.withLock { $0 }
        readers.wait()
        let status = process.terminationStatus
        let reason = process.terminationReason
        let stderr = String(decoding: stderrBytes.withLock { $0 }, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        if wasKilled {
            return .failure(ThumbnailError(.timedOut, path: path, "\(name) took longer than the limit of \(timeLimit) on \(path); it was stopped."))
        }
        if reason == .uncaughtSignal {
            let cause = status == SIGXCPU ? "its CPU-time limit" : status == SIGKILL ? "a kill (memory?)" : "signal \(status)"
            if status == SIGXCPU {
                return .failure(ThumbnailError(.timedOut, path: path, "\(name) used up its CPU-time limit on \(path); it was stopped."))
            }
            return .failure(ThumbnailError(.undecodable, path: path, "\(name) stopped on \(path) by \(cause). \(Self.lastLine(stderr))"))
        }
        if status != 0 {
            let last = Self.lastLine(stderr)
            if Self.allocationFailures.contains(where: stderr.contains) {
                return .failure(ThumbnailError(
                    .tooLarge, path: path, "\(name) needs more memory than its limit of \(memoryLimit >> 20) MiB for \(path): \(last)"))
            }
            let message = "\(name) cannot read \(path)" + (last.isEmpty ? " (exit status \(status))." : ": \(last)")
            return .failure(ThumbnailError(.undecodable, path: path, message))
        }
        return .success(Output(status: status, stdout: stdoutBytes.withLock { $0 }, stderr: stderr))
    }

    /// What ffmpeg, LibRaw and their libraries write when an allocation fails (under the
    /// address-space limit).
    static let allocationFailures = [
        "Cannot allocate memory", "cannot allocate", "malloc of size", "get_buffer() failed", "Out of memory", "Unsufficient memory",
    ]

    private static func lastLine(_ text: String) -> String {
        text.split(whereSeparator: \.isNewline).last.map(String.init) ?? ""
    }
}
