import Foundation
import LibraryIndex
import Logging
import PhotoLibrary
import ServiceLifecycle

/// `shoebox serve --watch`: keeps the index in step with the folder and the viewers with the index.
struct WatchService: Service {
    let watcher: LibraryWatcher
    let state: LibraryState
    let events: EventHub
    let logger: Logger

    func run() async throws {
        state.onRootMoved { _, new in rootMoved(to: new) }
        await cancelWhenGracefulShutdown {
            for await event in watcher.events() {
                switch event {
                case .watching(let folders):
                    logger.info("Watching \(folders.counted("folder")) under \(watcher.root) for new and changed photos.")
                case .fallback(let reason):
                    logger.warning("Cannot watch \(watcher.root) for changes: \(reason).")
                case .eventsOverflowed:
                    logger.warning("Too many changes at once under \(watcher.root): some were not reported; a full incremental run catches up.")
                case .rootGone(let reason, let waitsForMount):
                    logger.warning("\(Self.rootGoneMessage(root: watcher.root, reason: reason, waitsForMount: waitsForMount))")
                case .rootReturned:
                    logger.info("\(watcher.root) is back: catching up and watching it again.")
                case .runStarted:
                    events.publish("index-progress", #"{"phase":"started"}"#)
                case .progress(let progress):
                    events.publish("index-progress", Self.json(progress))
                case .runFinished(let progress):
                    events.publish("index-progress", Self.json(progress))
                    if progress.added + progress.updated + progress.removed + progress.missing > 0 {
                        logger.info("Indexed changes: \(progress.added) added, \(progress.updated) updated, \(progress.removed) removed.")
                    }
                    refresh(state: state, events: events, logger: logger)
                case .runFailed(let error):
                    logger.warning("An index run could not be done (trying again): \(error.message)")
                }
            }
        }
    }

    /// The one line said when the library's folder goes away.
    static func rootGoneMessage(root: String, reason: String, waitsForMount: Bool) -> String {
        let until = waitsForMount ? "until something is mounted there again" : "until it is back"
        return "\(root) \(reason): nothing is removed from the index; not indexing \(until) (checking now and then)."
    }

    /// Called when `shoebox relocate` points the library at `newRoot` while the server runs.
    ///
    /// The watcher watches the folder it started on, and its runs there are refused from now on
    /// (the index belongs to `newRoot`), so it says once that the server must be restarted. A
    /// watcher that can move to another folder hooks in here.
    func rootMoved(to newRoot: String) {
        guard newRoot != watcher.root else { return }
        logger.warning("The library moved to \(newRoot) (shoebox relocate), but this server still watches \(watcher.root): restart `shoebox serve --watch` to watch the new folder.")
    }

    static func json(_ p: IndexProgress) -> String {
        #"{"phase":"\#(p.phase.rawValue)","found":\#(p.filesFound),"toRead":\#(p.toRead),"read":\#(p.read),"added":\#(p.added),"updated":\#(p.updated),"removed":\#(p.removed)}"#
    }
}
