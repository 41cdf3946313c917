import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import NIOHTTP1
import NIOHTTPTypes
import PhotoLibrary
import Synchronization

/// Hummingbird's HTTP/1 connection with Shoebox's limits around it: at most `maxConnections`
/// served at once (the next is answered 503 and closed, or just closed if it sends no request
/// within `refusalWait`), a request head must arrive whole within
/// `headerTimeout` of its first byte, an idle connection closes after `idleTimeout` (Hummingbird's
/// own timer), and a request the HTTP parser refuses gets the JSON error body with its 400.
struct GuardedHTTP1Channel: ServerChildChannel {
    typealias Value = HTTP1Channel.Value

    let http1: HTTP1Channel
    let connections: ConnectionCounter
    /// How long a connection beyond the cap may take to send its request before it is closed
    /// unanswered: its descriptor is not held for the idle timeout.
    let refusalWait: TimeAmount

    /// The longest `refusalWait`.
    static let longestRefusalWait = TimeAmount.seconds(1)

    init(responder: @escaping HTTPChannelHandler.Responder, limits: ServerLimits, connections: ConnectionCounter) {
        let headerTimeout = TimeAmount.nanoseconds(Int64(limits.headerTimeout * 1e9))
        http1 = HTTP1Channel(
            responder: responder,
            configuration: .init(
                additionalChannelHandlers: [HeaderTimeoutHandler(timeout: headerTimeout), ParseErrorBodyHandler()],
                idleTimeout: .nanoseconds(Int64(limits.idleTimeout * 1e9))))
        self.connections = connections
        refusalWait = min(Self.longestRefusalWait, .nanoseconds(Int64(limits.idleTimeout * 1e9)))
    }

    /// Counts the connection from now until its socket closes.
    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        connections.open(channel)
        return http1.setup(channel: channel, logger: logger)
    }

    func handle(value: Value, logger: Logger) async {
        guard connections.isAdmitted(value.channel) else {
            if connections.firstRefusal() {
                logger.warning("More than \(connections.limit) connections at once: answering 503 and closing the others (server.maxConnections, --max-connections).")
            }
            await refuse(value)
            return
        }
        await http1.handle(value: value, logger: logger)
    }

    /// Reads the request head, answers 503 and closes; closes unanswered if no head arrived within
    /// `refusalWait`.
    private func refuse(_ channel: Value) async {
        let error = APIError(.serviceUnavailable, code: "tooManyConnections", "The server has as many connections open as it serves at once; try again shortly.")
        let body = error.body
        let socket = channel.channel
        let closing = socket.eventLoop.scheduleTask(in: refusalWait) { socket.close(promise: nil) }
        defer { closing.cancel() }
        try? await channel.executeThenClose { inbound, outbound in
            var parts = inbound.makeAsyncIterator()
            _ = try? await parts.next()
            closing.cancel()
            let head = HTTPResponse(status: .serviceUnavailable, headerFields: [
                .contentType: "application/json; charset=utf-8", .contentLength: String(body.count), .connection: "close", .retryAfter: "1",
            ])
            try await outbound.write(.head(head))
            try await outbound.write(.body(ByteBuffer(bytes: body)))
            try await outbound.write(.end(nil))
        }
    }
}

extension HTTPServerBuilder {
    /// HTTP/1 with `limits` (see ``GuardedHTTP1Channel``).
    static func guardedHTTP1(limits: ServerLimits, connections: ConnectionCounter) -> HTTPServerBuilder {
        HTTPServerBuilder { responder in GuardedHTTP1Channel(responder: responder, limits: limits, connections: connections) }
    }
}

/// Counts the open connections, against a limit.
final class ConnectionCounter: Sendable {
    let limit: Int
    private let count = Atomic<Int>(0)
    private let refusing = Atomic<Bool>(false)
    /// Connections opened beyond the limit, until they are answered.
    private let refused = Mutex<Set<ObjectIdentifier>>([])

    init(limit: Int) { self.limit = limit }

    /// Counts `channel` until it closes; one beyond the limit is marked to be refused.
    func open(_ channel: any Channel) {
        let now = count.add(1, ordering: .relaxed).newValue
        let id = ObjectIdentifier(channel)
        channel.closeFuture.whenComplete { _ in
            self.count.subtract(1, ordering: .relaxed)
            self.refused.withLock { _ = $0.remove(id) }
        }
        if now <= limit {
            refusing.store(false, ordering: .relaxed)
        } else {
            refused.withLock { _ = $0.insert(id) }
        }
    }

    /// Whether `channel` was opened within the limit (asked once per connection).
    func isAdmitted(_ channel: any Channel) -> Bool {
        refused.withLock { $0.remove(ObjectIdentifier(channel)) == nil }
    }

    /// Whether this is the first refusal since connections were last within the limit (to log it once).
    func firstRefusal() -> Bool { !refusing.exchange(true, ordering: .relaxed) }
}

/// Closes a connection whose request head has not arrived whole within `timeout` of its first
/// byte (a client trickling a header to hold the connection open).
///
/// Sits after the HTTP decoder: a read that ends (`channelReadComplete`) without a whole head
/// while no request is in progress starts the timer; the head stops it.
final class HeaderTimeoutHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    let timeout: TimeAmount
    /// Requests whose head arrived and whose response has not ended.
    private var inProgress = 0
    private var timer: Scheduled<Void>?

    init(timeout: TimeAmount) { self.timeout = timeout }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if case .head = unwrapInboundIn(data) {
            inProgress += 1
            timer?.cancel()
            timer = nil
        }
        context.fireChannelRead(data)
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        if inProgress == 0 && timer == nil {
            let bound = NIOLoopBound(context, eventLoop: context.eventLoop)
            timer = context.eventLoop.scheduleTask(in: timeout) { bound.value.close(promise: nil) }
        }
        context.fireChannelReadComplete()
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if case .end = unwrapOutboundIn(data) { inProgress = max(0, inProgress - 1) }
        context.write(data, promise: promise)
    }

    func channelInactive(context: ChannelHandlerContext) {
        timer?.cancel()
        timer = nil
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        timer?.cancel()
        timer = nil
    }
}

/// Gives the 400 that Hummingbird writes for a request the HTTP parser refused (an empty body)
/// the JSON error body every other error has.
final class ParseErrorBodyHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    private var parseError: (any Error)?
    private var rewriting = false

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        if error is HTTPParserError { parseError = error }
        context.fireErrorCaught(error)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        let part = unwrapOutboundIn(data)
        switch part {
        case .head(var head) where parseError != nil && head.status == .badRequest && head.headerFields[.contentLength] == "0":
            rewriting = true
            head.headerFields[.contentLength] = String(Self.body(parseError).count)
            head.headerFields[.contentType] = "application/json; charset=utf-8"
            context.write(wrapOutboundOut(.head(head)), promise: promise)
        case .end where rewriting:
            rewriting = false
            context.write(wrapOutboundOut(.body(ByteBuffer(bytes: Self.body(parseError)))), promise: nil)
            context.write(data, promise: promise)
        default:
            context.write(data, promise: promise)
        }
    }

    private static func body(_ error: (any Error)?) -> Data {
        let name = error.map { "\($0)" } ?? "malformed request"
        return APIError(.badRequest, code: "malformedRequest", "The request is not valid HTTP/1.1 (\(name)).").body
    }
}
