import Foundation
import Spawn
import Synchronization
import Testing

/// The server starts ffmpeg, ffprobe, djpeg and dcraw_emu through `ChildProcess`, also while it
/// holds more descriptors than Foundation's `Process` could list.
@Suite("ChildProcess: children started by posix_spawn")
struct ChildProcessTests {
    /// Runs `arguments` with standard output (and error) read to the end, waiting at most 30 s.
    private func output(
        _ path: String, _ arguments: [String], environment: [String: String]? = nil, directory: String? = nil, input: String? = nil,
        errorsToo: Bool = false
    ) throws -> (status: Int32, reason: ChildProcess.TerminationReason, text: String) {
        let process = ChildProcess()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        process.environment = environment
        process.currentDirectoryURL = directory.map { URL(fileURLWithPath: $0) }
        let output = Pipe()
        process.standardOutput = output
        process.standardError = errorsToo ? output : nil
        let feed = Pipe()
        process.standardInput = input == nil ? nil : feed
        try process.run()
        if let input {
            try feed.fileHandleForWriting.write(contentsOf: Data(input.utf8))
            try feed.fileHandleForWriting.close()
        }
        // Read on a thread of its own, with a deadline: if another child kept a copy of this
        // pipe's writing end, the output would never end, and the test must fail, not hang.
        let data = Mutex(Data())
        let read = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            let bytes = output.fileHandleForReading.readDataToEndOfFile()
            data.withLock { $0 = bytes }
            read.signal()
        }
        #expect(process.waitUntilExit(timeout: .seconds(30)), "\(path) \(arguments) did not end")
        if read.wait(timeout: .now() + 30) == .timedOut {
            Issue.record("the output of \(path) \(arguments) did not end: another process holds its pipe")
        }
        return (process.terminationStatus, process.terminationReason, String(decoding: data.withLock { $0 }, as: UTF8.self))
    }

    @Test("Arguments, environment, working folder, standard input and the exit status reach the child and come back")
    func basics() throws {
        let run = try output("/bin/sh", ["-c", "echo \"$1 $GREETING $(pwd)\"; cat; exit 7", "sh", "first argument"],
                             environment: ["GREETING": "héllo"], directory: "/usr", input: "from stdin")
        #expect(run.text == "first argument héllo /usr\nfrom stdin")
        #expect(run.status == 7)
        #expect(run.reason == .exit)
    }

    @Test("Standard error can share standard output's pipe; nil streams are /dev/null")
    func streams() throws {
        let shared = try output("/bin/sh", ["-c", "echo out; echo err >&2; cat"], errorsToo: true)
        #expect(shared.text == "out\nerr\n")
        let quiet = try output("/bin/sh", ["-c", "echo err >&2; test -c /dev/stdin && readlink /proc/self/fd/0"])
        #expect(quiet.text == "/dev/null\n")
    }

    @Test("A child keeps none of the parent's descriptors but its three streams, while the parent holds 1,500 (Foundation's Process read past its buffer there)",
          .enabled(if: raiseOwnOpenFileLimit(to: 4_096), "needs an open-file limit of 4,096"))
    func manyDescriptors() throws {
        let held = (0..<1_500).map { _ in open("/dev/null", O_RDONLY) }
        defer { held.forEach { if $0 >= 0 { close($0) } } }
        #expect(held.allSatisfy { $0 >= 0 })
        let failures = Mutex<[String]>([])
        DispatchQueue.concurrentPerform(iterations: 4) { _ in
            for _ in 0..<25 {
                do {
                    // ls's own descriptor for the listing is 3.
                    let run = try output("/bin/ls", ["/proc/self/fd"])
                    if run.text != "0\n1\n2\n3\n" || run.status != 0 { failures.withLock { $0.append(run.text) } }
                } catch {
                    failures.withLock { $0.append("\(error)") }
                }
            }
        }
        #expect(failures.withLock { $0 }.isEmpty, "\(failures.withLock { $0.prefix(3) })")
    }

    @Test("A signal ignored or blocked in the parent is at its default in the child")
    func signalsAtDefault() throws {
        let previous = signal(SIGPIPE, SIG_IGN)
        defer { signal(SIGPIPE, previous) }
        var blocked = sigset_t(), before = sigset_t()
        sigemptyset(&blocked)
        sigaddset(&blocked, SIGUSR2)
        pthread_sigmask(SIG_BLOCK, &blocked, &before)
        defer { pthread_sigmask(SIG_SETMASK, &before, nil) }
        let status = try output("/bin/grep", ["-E", "^Sig(Ign|Blk):", "/proc/self/status"])
        let masks = status.text.split(separator: "\n").map { line in UInt64(line.split(separator: "\t").last ?? "", radix: 16) }
        #expect(masks.count == 2, "\(status.text)")
        // Signals 1 to 31: glibc's posix_spawn leaves its own two (32 and 33) ignored in every child.
        for mask in masks { #expect(mask.map { $0 & 0x7FFF_FFFF } == 0, "\(status.text)") }
    }

    @Test("A running child can be killed; once reaped, signals are refused, so a reused pid is never hit")
    func killing() throws {
        let ended = Mutex(0)
        let process = try ChildProcess.run(URL(fileURLWithPath: "/bin/sleep"), arguments: ["30"]) { _ in ended.withLock { $0 += 1 } }
        #expect(process.isRunning)
        #expect(process.processIdentifier > 0)
        #expect(!process.waitUntilExit(timeout: .milliseconds(100)))
        #expect(process.signal(SIGKILL))
        #expect(process.waitUntilExit(timeout: .seconds(30)))
        #expect(!process.isRunning)
        #expect(process.terminationReason == .uncaughtSignal)
        #expect(process.terminationStatus == SIGKILL)
        #expect(!process.signal(SIGKILL))
        // The handler runs after the waiters are released, on the reaping thread.
        let deadline = ContinuousClock.now + .seconds(10)
        while ended.withLock({ $0 }) == 0 && ContinuousClock.now < deadline { Thread.sleep(forTimeInterval: 0.01) }
        #expect(ended.withLock { $0 } == 1)
    }

    @Test("A missing or non-executable program is an error that names it, and a child runs once only")
    func launchFailures() throws {
        #expect(throws: ChildProcess.LaunchError.self) { try ChildProcess.run(URL(fileURLWithPath: "/nonexistent/tool"), arguments: []) }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("shoebox-spawn-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let text = folder.appendingPathComponent("not a program")
        try Data("#!/bin/sh\n".utf8).write(to: text)
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: text.path)
        do {
            try ChildProcess.run(text, arguments: [])
            Issue.record("a file without the executable bit started")
        } catch let error as ChildProcess.LaunchError {
            #expect(error.code == EACCES)
            #expect(error.description.contains("not a program"), "\(error)")
        }
        let once = try ChildProcess.run(URL(fileURLWithPath: "/bin/true"), arguments: [])
        #expect(throws: ChildProcess.LaunchError.self) { try once.run() }
        once.waitUntilExit()
        #expect(once.terminationStatus == 0)
    }
}
