import Foundation
import LibraryIndex
import Logging
import PhotoLibrary
import Places
import ServiceLifecycle
import Synchronization

/// `shoebox serve --watch`: keeps the index in step with the folder and the viewers with the index.
struct WatchService: Service {
    /// The folder watched first: the library's root when the server started.
    let root: String
    let store: LibraryStore
    let settings: IndexSettings
    /// The place table the watcher's runs name places with, loaded when first needed.
    let places: LazyPlaceTable
    let timing: LibraryWatcher.Timing
    let state: LibraryState
    let events: EventHub
    let logger: Logger

    /// The watcher at work, and the folder `shoebox relocate` moved the library to, if it did.
    private final class Current: Sendable {
        let value = Mutex<(watcher: LibraryWatcher?, movedTo: String?)>((nil, nil))
    }

    func run() async throws {
        let current = Current()
        state.onRootMoved { _, new in
            // The watcher stops (a run in progress commits first); the loop below starts one on `new`.
            current.value.withLock { now in
                guard let watcher = now.watcher, new != watcher.root else { return }
                now.movedTo = new
                watcher.stop()
            }
        }
        let first = root
        await cancelWhenGracefulShutdown {
            var root = first
            while !Task.isCancelled {
                let watcher: LibraryWatcher
                do {
                    watcher = try LibraryWatcher(root: root, store: store, settings: settings, places: places, timing: timing)
                } catch {
                    logger.error("Cannot watch \(root): \((error as? IndexError)?.message ?? "\(error)") Restart `shoebox serve --watch` once it can be read.")
                    return
                }
                current.value.withLock { $0 = (watcher, nil) }
                for await event in watcher.events() { handle(event, of: watcher) }
                guard let moved = current.value.withLock({ $0.movedTo }) else { return }
                logger.info("The library moved to \(moved) (shoebox relocate): watching it instead of \(watcher.root).")
                root = moved
            }
        }
    }

    private func handle(_ event: LibraryWatcher.Event, of watcher: LibraryWatcher) {
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

    /// The one line said when the library's folder goes away.
    static func rootGoneMessage(root: String, reason: String, waitsForMount: Bool) -> String {
        let until = waitsForMount ? "until something is mounted there again" : "until it is back"
        return "\(root) \(reason): nothing is removed from the index; not indexing \(until) (checking now and then)."
    }

    static func json(_ p: IndexProgress) -> String {
        #"{"phase":"\#(p.phase.rawValue)","found":\#(p.filesFound),"toRead":\#(p.toRead),"read":\#(p.read),"added":\#(p.added),"updated":\#(p.updated),"removed":\#(p.removed)}"#
    }
}
