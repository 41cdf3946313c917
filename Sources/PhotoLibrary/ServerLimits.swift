import Foundation

/// How `shoebox serve` protects itself: timeouts, a connection cap and the host names it answers
/// to (the `server` part of the configuration file; `serve` flags override each key).
public struct ServerLimits: Sendable, Codable, Equatable {
    /// Seconds a client has to send a whole request head once its first byte arrived.
    public var headerTimeout: Double
    /// Seconds a connection may stay open with no request in progress.
    public var idleTimeout: Double
    /// Connections served at once; more are answered 503 and closed.
    public var maxConnections: Int
    /// Names besides `localhost`, `127.0.0.1`, `[::1]` and the bound address accepted as `Host`
    /// (e.g. the machine's name on the local network).
    public var hostNames: [String]
    /// The least severe log messages written: one of `logLevels`, `info` by default.
    public var logLevel: String

    public static let defaultHeaderTimeout = 10.0
    public static let defaultIdleTimeout = 30.0
    public static let defaultMaxConnections = 512
    /// Timeouts allowed, in seconds.
    public static let timeoutRange = 0.05...3_600.0
    /// Connection caps allowed.
    public static let connectionRange = 1...100_000
    /// Log levels, from the most to the least detailed (swift-log's names).
    public static let logLevels = ["trace", "debug", "info", "notice", "warning", "error"]

    public init(
        headerTimeout: Double = ServerLimits.defaultHeaderTimeout, idleTimeout: Double = ServerLimits.defaultIdleTimeout,
        maxConnections: Int = ServerLimits.defaultMaxConnections, hostNames: [String] = [], logLevel: String = "info"
    ) {
        self.headerTimeout = headerTimeout
        self.idleTimeout = idleTimeout
        self.maxConnections = maxConnections
        self.hostNames = hostNames
        self.logLevel = logLevel
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        headerTimeout = try c.decodeIfPresent(Double.self, forKey: .headerTimeout) ?? Self.defaultHeaderTimeout
        idleTimeout = try c.decodeIfPresent(Double.self, forKey: .idleTimeout) ?? Self.defaultIdleTimeout
        maxConnections = try c.decodeIfPresent(Int.self, forKey: .maxConnections) ?? Self.defaultMaxConnections
        hostNames = try c.decodeIfPresent([String].self, forKey: .hostNames) ?? []
        logLevel = try c.decodeIfPresent(String.self, forKey: .logLevel) ?? "info"
    }

    /// Refuses timeouts and caps out of range and host names that cannot be a `Host` header's.
    public func validate() throws(LibraryError) {
        var problems: [String] = []
        if !Self.timeoutRange.contains(headerTimeout) {
            problems.append("server.headerTimeout must be 0.05 to 3600 seconds (got \(headerTimeout))")
        }
        if !Self.timeoutRange.contains(idleTimeout) {
            problems.append("server.idleTimeout must be 0.05 to 3600 seconds (got \(idleTimeout))")
        }
        if !Self.connectionRange.contains(maxConnections) {
            problems.append("server.maxConnections must be 1 to 100000 (got \(maxConnections))")
        }
        for name in hostNames where !Self.isHostName(name) {
            problems.append("server.hostNames holds \"\(name)\", which is no host name (letters, digits, dots and dashes, or an address)")
        }
        if !Self.logLevels.contains(logLevel) {
            problems.append("server.logLevel must be one of \(Self.logLevels.joined(separator: ", ")) (got \"\(logLevel)\")")
        }
        if !problems.isEmpty { throw LibraryError(.invalidSettings, problems.joined(separator: "; ") + ".") }
    }

    /// Letters, digits, `.`, `-`, `_`, or an IPv6 address in brackets; at most 253 characters.
    public static func isHostName(_ name: String) -> Bool {
        guard !name.isEmpty, name.utf8.count <= 253 else { return false }
        if name.hasPrefix("[") && name.hasSuffix("]") {
            return name.dropFirst().dropLast().utf8.allSatisfy { $0 == 0x3A || $0 == 0x2E || isHex($0) }
        }
        return name.utf8.allSatisfy { isAlphanumeric($0) || $0 == 0x2E || $0 == 0x2D || $0 == 0x5F }
    }

    private static func isHex(_ byte: UInt8) -> Bool { (0x30...0x39).contains(byte) || (0x41...0x46).contains(byte) || (0x61...0x66).contains(byte) }
    private static func isAlphanumeric(_ byte: UInt8) -> Bool { (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) }
}
