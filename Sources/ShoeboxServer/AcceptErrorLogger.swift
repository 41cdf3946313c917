import Logging
import NIOCore
#if canImport(Glibc)
import Glibc
#endif

/// Logs, once until accepting works again, that the server ran out of file descriptors.
///
/// NIO's `ServerBootstrap` already backs off accepting for a second on `EMFILE`/`ENFILE` (its
/// `AcceptBackoffHandler`), without a word; this handler sits in front of it on the listening
/// channel so the operator learns why clients wait.
final class AcceptErrorLogger: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = any Channel
    typealias InboundOut = any Channel

    let logger: Logger
    let limit: Int?
    private var reported = false

    init(logger: Logger, limit: Int?) {
        self.logger = logger
        self.limit = limit
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        reported = false
        context.fireChannelRead(data)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        if let error = error as? IOError, error.errnoCode == EMFILE || error.errnoCode == ENFILE, !reported {
            reported = true
            logger.warning("Out of file descriptors (limit \(limit.map(String.init) ?? "unknown")): not accepting connections for a second at a time until some close. Lower server.maxConnections (--max-connections) or raise the hard limit (ulimit -Hn).")
        }
        context.fireErrorCaught(error)
    }
}
