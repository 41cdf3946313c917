import Foundation
import HTTPTypes
import Hummingbird
import LibraryIndex
import ServiceLifecycle
import Synchronization

/// Server-sent events for every open `/api/events` stream: `library-changed` after a run changed
/// what the timeline shows, and `index-progress` while a run goes.
final class EventHub: Sendable {
    struct Event: Sendable {
        var name: String
        /// One line of JSON.
        var data: String
    }

    private let subscribers = Mutex<[UUID: AsyncStream<Event>.Continuation]>([:])

    /// A stream of the events from now on; it ends when the client goes away.
    func subscribe() -> AsyncStream<Event> {
        let (stream, continuation) = AsyncStream.makeStream(of: Event.self, bufferingPolicy: .bufferingNewest(64))
        let id = UUID()
        subscribers.withLock { $0[id] = continuation }
        continuation.onTermination = { [weak self] _ in self?.subscribers.withLock { $0[id] = nil } }
        return stream
    }

    func publish(_ name: String, _ data: String) {
        let event = Event(name: name, data: data)
        for continuation in subscribers.withLock({ Array($0.values) }) { continuation.yield(event) }
    }

    /// Ends every stream (the server is shutting down).
    func finishAll() {
        for continuation in subscribers.withLock({ Array($0.values) }) { continuation.finish() }
    }

    /// `library-changed`, with the library's new counts.
    func libraryChanged(_ loaded: LibraryState.Loaded) {
        let statistics = loaded.statistics
        let data = #"{"photos":\#(statistics.photos),"videos":\#(statistics.videos),"lastIndexed":"\#(statistics.lastIndexed ?? "")"}"#
        publish("library-changed", data)
    }

    /// `text/event-stream` for one client: the events, and a comment every 15 s so proxies and
    /// browsers keep the connection open.
    func response() -> Response {
        let events = subscribe()
        let body = ResponseBody { writer in
            try await writer.write(ByteBuffer(string: ": shoebox events\nretry: 2000\n\n"))
            let (chunks, input) = AsyncStream.makeStream(of: String.self)
            // A stream never ends by itself: it ends when the client goes, or the server shuts down.
            try await withGracefulShutdownHandler {
                try await withThrowingTaskGroup(of: Void.self) { group in
                    group.addTask {
                        for await event in events { input.yield("event: \(event.name)\ndata: \(event.data)\n\n") }
                        input.finish()
                    }
                    group.addTask {
                        while !Task.isCancelled {
                            try await Task.sleep(for: .seconds(15))
                            input.yield(": keep-alive\n\n")
                        }
                    }
                    for await chunk in chunks { try await writer.write(ByteBuffer(string: chunk)) }
                    group.cancelAll()
                }
            } onGracefulShutdown: {
                input.finish()
            }
            try await writer.finish(nil)
        }
        return Response(
            status: .ok,
            headers: [.contentType: "text/event-stream", .cacheControl: "no-cache", HTTPField.Name("X-Accel-Buffering")!: "no"],
            body: body)
    }
}
