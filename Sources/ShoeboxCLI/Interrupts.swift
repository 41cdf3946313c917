import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Ctrl-C for the whole process, from its first instruction: no interrupt is ever lost.
///
/// `install()` puts a signal handler in place before anything else runs. Until a command arms it
/// (`InterruptWatcher`), Ctrl-C quits at once, as usual; while armed, the first Ctrl-C is handed to
/// the watcher (the index run stops cleanly, committing what was read) and the second quits.
public enum Interrupts {
    static let count = Atomic<Int>(0)
    static let armed = Atomic<Bool>(false)
    /// Written to by the handler, read by the armed watcher.
    static let pipe: (read: Int32, write: Int32) = {
        var fds: [Int32] = [-1, -1]
        _ = fds.withUnsafeMutableBufferPointer { Glibc.pipe($0.baseAddress!) }
        return (fds[0], fds[1])
    }()

    /// Installs the SIGINT handler; call first thing in `main`.
    public static func install() {
        _ = pipe
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { _ in
            let received = Interrupts.count.add(1, ordering: .sequentiallyConsistent).newValue
            guard Interrupts.armed.load(ordering: .sequentiallyConsistent), received == 1 else {
                // As if there were no handler: the process ends by the signal, as the shell expects.
                signal(SIGINT, SIG_DFL)
                raise(SIGINT)
                return
            }
            var byte: UInt8 = 1
            _ = write(Interrupts.pipe.write, &byte, 1)
        }
        sigemptyset(&action.sa_mask)
        action.sa_flags = SA_RESTART
        sigaction(SIGINT, &action, nil)
    }
}

/// Arms `Interrupts` for the lifetime of a long command and calls `onInterrupt` once, on its own
/// thread, at the first Ctrl-C — also for a Ctrl-C that came before `onInterrupt` was set.
final class InterruptWatcher: @unchecked Sendable {
    private let lock = NSLock()
    private var interrupted = false
    private var handler: (@Sendable () -> Void)?

    init() {
        Interrupts.armed.store(true, ordering: .sequentiallyConsistent)
        let thread = Thread { [self] in
            var byte: UInt8 = 0
            while read(Interrupts.pipe.read, &byte, 1) < 0 && errno == EINTR {}
            guard byte == 1 else { return }
            let clearLine = isatty(STDERR_FILENO) == 1 ? "\r\u{1B}[2K" : "\n"
            Output.note("\(clearLine)Stopping: committing what was read (Ctrl-C again to quit at once)…")
            lock.lock()
            interrupted = true
            let handler = self.handler
            lock.unlock()
            handler?()
        }
        thread.name = "shoebox.interrupts"
        thread.start()
    }

    /// Sets what the first Ctrl-C does; runs it at once if Ctrl-C was already pressed.
    func onInterrupt(_ handler: @escaping @Sendable () -> Void) {
        lock.lock()
        self.handler = handler
        let already = interrupted
        lock.unlock()
        if already { handler() }
    }

    /// Disarms: from now on Ctrl-C quits at once again.
    func cancel() {
        Interrupts.armed.store(false, ordering: .sequentiallyConsistent)
        lock.lock()
        let idle = !interrupted
        lock.unlock()
        if idle {
            var byte: UInt8 = 0
            _ = write(Interrupts.pipe.write, &byte, 1)
        }
    }
}
