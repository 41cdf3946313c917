import Logging
import NIOCore
#if canImport(Glibc)
import Glibc
#endif

/// Stops accepting connections for `delay` whenever `accept` fails for want of descriptors or
/// memory, and logs it once for each run of such failures.
///
/// Such a failure (`EMFILE`, `ENFILE`, `ENOBUFS`, `ENOMEM`) leaves the connection in the listen
/// queue, so the listening socket stays readable. NIO's own `AcceptBackoffHandler` only delays the
/// next `read()`, and a read in which every `accept` failed asks for none: the socket stays in the
/// poll set and the event loop calls `accept` again at once, a core's worth of failing calls until
/// a descriptor frees. Turning `autoRead` off takes the socket out of the poll set; turning it back
/// on after `delay` tries one `accept` again.
final class AcceptPauseHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = any Channel
    typealias InboundOut = any Channel

    /// The `accept` failures that a pause can outlast.
    static let pausingErrors: Set<Int32> = [EMFILE, ENFILE, ENOBUFS, ENOMEM]

    let logger: Logger
    let limit: Int?
    let delay: TimeAmount
    /// Failures less than this apart are one run, logged once.
    let quiet: TimeAmount = .seconds(10)
    private var lastFailure: NIODeadline?
    private var resumption: Scheduled<Void>?

    init(logger: Logger, limit: Int?, delay: TimeAmount = .milliseconds(250)) {
        self.logger = logger
        self.limit = limit
        self.delay = delay
    }

    /// Whether accepting is paused now.
    var isPaused: Bool { resumption != nil }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        guard let error = error as? IOError, Self.pausingErrors.contains(error.errnoCode) else {
            context.fireErrorCaught(error)
            return
        }
        let now = context.eventLoop.now
        defer { lastFailure = now }
        if lastFailure.map({ now - $0 > quiet }) ?? true {
            let pause = "not accepting connections for \(delay.nanoseconds / 1_000_000) ms at a time until some close"
            if error.errnoCode == EMFILE || error.errnoCode == ENFILE {
                let limit = self.limit.map(String.init) ?? "unknown"
                logger.warning("Out of file descriptors (limit \(limit)): \(pause). Lower server.maxConnections (--max-connections) or raise the hard limit (ulimit -Hn).")
            } else {
                logger.warning("Out of memory for connections (\(error)): \(pause).")
            }
        }
        pause(context)
    }

    func channelInactive(context: ChannelHandlerContext) {
        resumption?.cancel()
        resumption = nil
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        if let resumption {
            resumption.cancel()
            self.resumption = nil
            setAutoRead(true, context)
        }
    }

    private func pause(_ context: ChannelHandlerContext) {
        guard resumption == nil else { return }
        setAutoRead(false, context)
        resumption = context.eventLoop.assumeIsolated().scheduleTask(in: delay) {
            self.resumption = nil
            // `read0` again, registering the socket for reading: the failed read left NIO's
            // `readPending` set, so a pipeline `read()` would not.
            self.setAutoRead(true, context)
        }
    }

    private func setAutoRead(_ on: Bool, _ context: ChannelHandlerContext) {
        guard context.channel.isActive else { return }
        if let options = context.channel.syncOptions {
            try? options.setOption(ChannelOptions.autoRead, value: on)
        } else {
            context.channel.setOption(ChannelOptions.autoRead, value: on).whenComplete { _ in }
        }
    }
}
