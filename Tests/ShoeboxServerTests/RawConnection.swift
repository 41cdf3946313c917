import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A plain TCP connection to the server on loopback, for what an HTTP client library will not
/// send: half a header, a wrong `Host`, garbage, or nothing at all.
///
/// Blocking reads run on their own thread, never on the concurrency pool the server also uses.
final class RawConnection: @unchecked Sendable {
    private let descriptor: Int32

    /// Connects to `port` on 127.0.0.1.
    ///
    /// - Parameter handshake: how long to wait for the connection to be established (a server whose
    ///   listen queue is full drops the handshake, and the kernel retries it for minutes); nil
    ///   leaves the socket connecting in the background, for holding many connections at once.
    /// - Throws: `POSIXError` with the code `socket` or `connect` failed with, `ETIMEDOUT` past `handshake`.
    init(port: Int, handshake: Duration? = .seconds(10)) throws {
        // The descriptor is this object's only once connected, so a failure closes it exactly once.
        descriptor = try Self.connected(port: port, handshake: handshake)
    }

    /// Whether a connection opened without `handshake` is established by `deadline` (the server's
    /// kernel completed it; the server itself may not have accepted it yet).
    func isEstablished(by deadline: ContinuousClock.Instant) -> Bool { Self.handshakeResult(descriptor, by: deadline) == 0 }

    private static func connected(port: Int, handshake: Duration?) throws -> Int32 {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
        guard descriptor >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EMFILE) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        var problem = connected == 0 || errno == EINPROGRESS ? 0 : errno
        if problem == 0, connected != 0, let handshake {
            problem = handshakeResult(descriptor, by: .now + handshake)
        }
        guard problem == 0 else {
            close(descriptor)
            throw POSIXError(POSIXErrorCode(rawValue: problem) ?? .ECONNREFUSED)
        }
        guard handshake != nil else { return descriptor }
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) & ~Int32(O_NONBLOCK))
        var timeout = timeval(tv_sec: 0, tv_usec: 50_000)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        return descriptor
    }

    /// Waits for the handshake of a connecting socket: 0 once established, else its error
    /// (`ETIMEDOUT` past `deadline`).
    private static func handshakeResult(_ descriptor: Int32, by deadline: ContinuousClock.Instant) -> Int32 {
        var ready: Int32
        repeat {
            let left = max(0, (deadline - .now) / .milliseconds(1))
            var events = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
            ready = poll(&events, 1, Int32(left.rounded(.up)))
        } while ready < 0 && errno == EINTR
        if ready == 0 { return ETIMEDOUT }
        if ready < 0 { return errno }
        var problem: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        getsockopt(descriptor, SOL_SOCKET, SO_ERROR, &problem, &length)
        return problem
    }

    deinit { close(descriptor) }

    func send(_ text: String) {
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }

    /// What arrives until the server closes the connection or `timeout` passes, and whether it closed.
    func read(for timeout: Duration) async -> (bytes: [UInt8], closed: Bool) {
        await withCheckedContinuation { continuation in
            Thread {
                let deadline = ContinuousClock.now + timeout
                var bytes: [UInt8] = []
                var buffer = [UInt8](repeating: 0, count: 65_536)
                var closed = false
                while ContinuousClock.now < deadline {
                    let got = buffer.withUnsafeMutableBytes { recv(self.descriptor, $0.baseAddress, $0.count, 0) }
                    if got > 0 {
                        bytes += buffer.prefix(got)
                    } else if got == 0 || (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) {
                        closed = true
                        break
                    }
                }
                continuation.resume(returning: (bytes, closed))
            }.start()
        }
    }

    /// Reads one whole answer (headers and a `Content-Length` body) within `timeout`, leaving the
    /// connection open.
    func readResponse(within timeout: Duration) async -> RawResponse {
        await withCheckedContinuation { continuation in
            Thread {
                let deadline = ContinuousClock.now + timeout
                var bytes: [UInt8] = []
                var buffer = [UInt8](repeating: 0, count: 65_536)
                while ContinuousClock.now < deadline {
                    let got = buffer.withUnsafeMutableBytes { recv(self.descriptor, $0.baseAddress, $0.count, 0) }
                    if got > 0 {
                        bytes += buffer.prefix(got)
                        let response = RawResponse(bytes)
                        if response.status != 0, response.bodyBytes.count >= Int(response.headers["content-length"] ?? "0") ?? 0 { break }
                    } else if got == 0 || (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) {
                        break
                    }
                }
                continuation.resume(returning: RawResponse(bytes))
            }.start()
        }
    }

    /// Sends one request (`Connection: close`) and returns the whole answer.
    static func exchange(port: Int, _ request: String) async throws -> RawResponse {
        let connection = try RawConnection(port: port)
        connection.send(request)
        return RawResponse(await connection.read(for: .seconds(10)).bytes)
    }
}

/// An HTTP/1.1 answer as received: status, headers (lower-case names) and body.
struct RawResponse {
    var status = 0
    var headers: [String: String] = [:]
    var bodyBytes: [UInt8] = []
    var body: String { String(decoding: bodyBytes, as: UTF8.self) }

    init(_ bytes: [UInt8]) {
        let separator: [UInt8] = [13, 10, 13, 10]
        guard let end = (0..<max(0, bytes.count - 3)).first(where: { Array(bytes[$0..<$0 + 4]) == separator }) else { return }
        let lines = String(decoding: bytes[..<end], as: UTF8.self).components(separatedBy: "\r\n")
        status = lines.first.flatMap { Int($0.split(separator: " ").dropFirst().first ?? "") } ?? 0
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        bodyBytes = Array(bytes[(end + 4)...])
    }

    /// The `error.code` of a JSON error body.
    var errorCode: String? {
        let object = try? JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any]
        return (object?["error"] as? [String: Any])?["code"] as? String
    }
}
