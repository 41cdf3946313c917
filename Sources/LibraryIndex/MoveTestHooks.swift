import Foundation

/// Moments at which the command-line tests kill a move or restore (debug builds only): with
/// `SHOEBOX_TEST_MOVE_KILL=N:POINT` the process sends itself SIGKILL when its Nth file reaches
/// POINT (`journaled`: its entry is synced, it has not moved; `moved`; `copied`), as a `kill -9`
/// from outside would; `SHOEBOX_TEST_MOVE_DELAY=S` waits S seconds before each file, so that a
/// test can kill a run from outside while it is certainly moving.
enum MoveTestHooks {
    #if DEBUG
    private static let kill: (file: Int, point: String)? = {
        guard let value = ProcessInfo.processInfo.environment["SHOEBOX_TEST_MOVE_KILL"] else { return nil }
        let parts = value.split(separator: ":", maxSplits: 1)
        guard parts.count == 2, let file = Int(parts[0]) else { return nil }
        return (file, String(parts[1]))
    }()
    private static let delay = ProcessInfo.processInfo.environment["SHOEBOX_TEST_MOVE_DELAY"].flatMap(Double.init)
    #endif

    /// The `file`th file (from 1) reached `point`.
    static func reached(_ point: String, file: Int) {
        #if DEBUG
        if let kill, kill.file == file, kill.point == point { raise(SIGKILL) }
        #endif
    }

    /// Before each file.
    static func pause() {
        #if DEBUG
        if let delay { Thread.sleep(forTimeInterval: delay) }
        #endif
    }
}
