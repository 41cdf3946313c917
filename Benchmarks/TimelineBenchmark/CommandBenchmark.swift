import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// `TimelineBenchmark --db FILE [--shoebox PATH] [--runs N]`: times the read commands on an
/// indexed library, each a fresh process (a cold start, as a person runs them), beside
/// `sqlite3 FILE "select * from photo"`. Output goes to /dev/null; the fastest of `runs` wall
/// times and the largest peak resident memory (`ru_maxrss`) of its runs are reported.
func runCommandBenchmark(_ arguments: [String]) throws {
    func value(_ flag: String) -> String? {
        arguments.firstIndex(of: flag).flatMap { arguments.indices.contains($0 + 1) ? arguments[$0 + 1] : nil }
    }
    guard let database = value("--db") else { throw BenchmarkError("--db FILE is required") }
    let runs = value("--runs").flatMap(Int.init) ?? 3
    let shoebox = value("--shoebox")
        ?? URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("shoebox").path
    let coarse = Int(try capture(["sqlite3", database, "SELECT count(*) FROM timelineSection WHERE level = 'coarse'"])) ?? 0
    let fine = Int(try capture(["sqlite3", database, "SELECT count(*) FROM timelineSection WHERE level = 'fine'"])) ?? 0
    let rows = try capture(["sqlite3", database, "SELECT count(*) FROM photo"])
    print("Read commands on \(database): \(rows) rows, \(coarse) coarse and \(fine) fine sections persisted")
    print("(each a new process, output to /dev/null; fastest of \(runs) runs, largest peak memory)")
    print()
    let commands: [(String, [String])] = [
        ("sqlite3 DB \"select * from photo\"", ["sqlite3", database, "select * from photo"]),
        ("shoebox photos", [shoebox, "photos", "--db", database]),
        ("shoebox photos --json", [shoebox, "photos", "--json", "--db", database]),
        ("shoebox sections", [shoebox, "sections", "--db", database]),
        ("shoebox sections --json", [shoebox, "sections", "--json", "--db", database]),
        ("shoebox sections --section \(coarse / 2)", [shoebox, "sections", "--section", "\(coarse / 2)", "--db", database]),
        ("shoebox sections --level fine --section \(fine / 2)", [shoebox, "sections", "--level", "fine", "--section", "\(fine / 2)", "--db", database]),
        ("shoebox zoom --from coarse --section \(coarse / 2) --item 0", [shoebox, "zoom", "--from", "coarse", "--section", "\(coarse / 2)", "--item", "0", "--offset", "300", "--db", database]),
        ("shoebox zoom --from fine --section \(fine / 2) --item 0", [shoebox, "zoom", "--from", "fine", "--section", "\(fine / 2)", "--item", "0", "--offset", "300", "--db", database]),
        ("shoebox zoom --from fine --focal-y 400", [shoebox, "zoom", "--from", "fine", "--focal-y", "400", "--offset", "100000", "--db", database]),
        ("shoebox sections --seed 7 (not persisted: groups all)", [shoebox, "sections", "--seed", "7", "--db", database]),
        ("shoebox zoom --seed 7 ... (not persisted: groups all)", [shoebox, "zoom", "--seed", "7", "--from", "coarse", "--section", "\(coarse / 2)", "--item", "0", "--db", database]),
    ]
    print("command".padding(toLength: 62, withPad: " ", startingAt: 0) + "      time   peak memory")
    for (label, command) in commands {
        var best = Double.infinity
        var peak = 0
        for _ in 0..<runs {
            let (seconds, kilobytes, status) = try timed(command)
            guard status == 0 else { throw BenchmarkError("\(label) exited with status \(status)") }
            best = min(best, seconds)
            peak = max(peak, kilobytes)
        }
        print(label.padding(toLength: 62, withPad: " ", startingAt: 0) + String(format: "%8.3f s %10.1f MB", best, Double(peak) / 1024))
    }
}

struct BenchmarkError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// Runs `command` with standard output to /dev/null: wall time, peak resident kB, exit status.
///
/// The peak comes from `/usr/bin/time -f %M`, which forks the command from its own small process:
/// a child spawned from this one would count this process's pages in its `ru_maxrss`.
func timed(_ command: [String]) throws -> (seconds: Double, kilobytes: Int, status: Int32) {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    let report = FileManager.default.temporaryDirectory.appendingPathComponent("timeline-benchmark-\(getpid()).txt").path
    defer { try? FileManager.default.removeItem(atPath: report) }
    let start = ContinuousClock.now
    let pid = try spawn(["/usr/bin/time", "-o", report, "-f", "%M"] + command, actions: &actions)
    var status: Int32 = 0
    var usage = rusage()
    guard wait4(pid, &status, 0, &usage) == pid else { throw BenchmarkError("wait4 failed: \(errno)") }
    let elapsed = ContinuousClock.now - start
    let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    let exit = (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
    let peak = (try? String(contentsOfFile: report, encoding: .utf8))?.split(separator: "\n").last.flatMap { Int($0) }
    guard let peak else { throw BenchmarkError("/usr/bin/time (Debian package `time`) gave no peak memory for \(command[0])") }
    return (seconds, peak, exit)
}

/// The standard output of `command`, trimmed.
func capture(_ command: [String]) throws -> String {
    var fds: [Int32] = [0, 0]
    guard pipe(&fds) == 0 else { throw BenchmarkError("pipe failed") }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_adddup2(&actions, fds[1], 1)
    posix_spawn_file_actions_addclose(&actions, fds[0])
    let pid = try spawn(command, actions: &actions)
    close(fds[1])
    let output = FileHandle(fileDescriptor: fds[0], closeOnDealloc: true).readDataToEndOfFile()
    var status: Int32 = 0
    waitpid(pid, &status, 0)
    return String(decoding: output, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
}

private func spawn(_ command: [String], actions: inout posix_spawn_file_actions_t) throws -> pid_t {
    var pid: pid_t = 0
    let argv = command.map { strdup($0) } + [nil]
    defer { argv.forEach { free($0) } }
    let result = posix_spawnp(&pid, command[0], &actions, nil, argv, environ)
    guard result == 0 else { throw BenchmarkError("cannot start \(command[0]): \(String(cString: strerror(result)))") }
    return pid
}
