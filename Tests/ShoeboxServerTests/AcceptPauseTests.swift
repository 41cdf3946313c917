import Logging
import NIOCore
import NIOEmbedded
@testable import ShoeboxServer
import Synchronization
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The listening channel's pause on `EMFILE`, on an embedded channel whose clock the test moves.
@Suite("shoebox serve: pausing accept when out of descriptors")
struct AcceptPauseTests {
    /// A listening channel stand-in with the handler and the warnings it logged.
    private static func channel() throws -> (EmbeddedChannel, EmbeddedEventLoop, AcceptPauseHandler, LogRecorder) {
        let loop = EmbeddedEventLoop()
        let channel = EmbeddedChannel(loop: loop)
        let recorder = LogRecorder()
        let handler = AcceptPauseHandler(logger: Logger(label: "test") { _ in recorder }, limit: 100, delay: .milliseconds(250))
        try channel.pipeline.syncOperations.addHandler(handler)
        try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 1)).wait()
        return (channel, loop, handler, recorder)
    }

    @Test("EMFILE pauses accepting for the delay, is not passed on, and is logged once for a run of failures",
          arguments: [EMFILE, ENFILE, ENOBUFS, ENOMEM])
    func pause(code: Int32) throws {
        let (channel, loop, handler, recorder) = try Self.channel()
        channel.pipeline.fireErrorCaught(IOError(errnoCode: code, reason: "accept4"))
        #expect(handler.isPaused)
        try channel.throwIfErrorCaught()
        loop.advanceTime(by: .milliseconds(249))
        #expect(handler.isPaused)
        loop.advanceTime(by: .milliseconds(1))
        #expect(!handler.isPaused)
        // The retry fails again a few times: the same run, one warning.
        for _ in 0..<3 {
            channel.pipeline.fireErrorCaught(IOError(errnoCode: code, reason: "accept4"))
            #expect(handler.isPaused)
            loop.advanceTime(by: .seconds(1))
        }
        #expect(recorder.messages.count == 1, "\(recorder.messages)")
        // Ten quiet seconds end the run; the next failure is logged again.
        loop.advanceTime(by: .seconds(11))
        channel.pipeline.fireErrorCaught(IOError(errnoCode: code, reason: "accept4"))
        #expect(recorder.messages.count == 2, "\(recorder.messages)")
        _ = try channel.finish()
    }

    @Test("A failure a pause cannot help (ECONNABORTED: that connection is gone) goes on down the pipeline")
    func otherErrors() throws {
        let (channel, _, handler, recorder) = try Self.channel()
        channel.pipeline.fireErrorCaught(IOError(errnoCode: ECONNABORTED, reason: "accept4"))
        #expect(!handler.isPaused)
        #expect(throws: IOError.self) { try channel.throwIfErrorCaught() }
        #expect(recorder.messages.isEmpty)
        _ = try channel.finish()
    }

    @Test("Closing the listening channel while paused cancels the resumption")
    func closeWhilePaused() throws {
        let (channel, loop, handler, _) = try Self.channel()
        channel.pipeline.fireErrorCaught(IOError(errnoCode: EMFILE, reason: "accept4"))
        #expect(handler.isPaused)
        _ = try channel.finish()
        #expect(!handler.isPaused)
        loop.advanceTime(by: .seconds(1))
    }
}

/// Keeps the messages logged through it.
private final class LogRecorder: LogHandler, Sendable {
    private let stored = Mutex<[String]>([])
    var messages: [String] { stored.withLock { $0 } }

    var metadata: Logger.Metadata {
        get { [:] }
        set {}
    }
    var logLevel: Logger.Level {
        get { .trace }
        set {}
    }
    subscript(metadataKey _: String) -> Logger.Metadata.Value? {
        get { nil }
        set {}
    }

    func log(event: LogEvent) {
        stored.withLock { $0.append("\(event.message)") }
    }
}
