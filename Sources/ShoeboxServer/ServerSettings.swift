import Foundation
public import PhotoLibrary
public import LibraryIndex

/// What `shoebox serve` serves and how.
public struct ServerSettings: Sendable {
    /// The address to bind: loopback unless the user asks otherwise (and then a token is required).
    public var host: String
    public var port: Int
    /// Required on every request when set (`Authorization: Bearer …`, `?token=…` or the cookie the
    /// viewer sets from it).
    public var token: String?
    public var databasePath: String
    public var configuration: ShoeboxConfiguration
    /// Where generated thumbnails are kept.
    public var cacheDirectory: String
    /// How often the server looks for a finished index run to load.
    public var refreshInterval: Duration
    /// Watch the library's folder and index changes as they happen (`--watch`), with this timing.
    public var watch: LibraryWatcher.Timing?
    /// Refuse every correction (`--read-only`): the API's writes answer 403.
    public var readOnly: Bool

    public init(
        host: String = "127.0.0.1", port: Int = 8080, token: String? = nil, databasePath: String,
        configuration: ShoeboxConfiguration = .default, cacheDirectory: String = LibraryPaths.cacheDirectory(),
        refreshInterval: Duration = .seconds(1), watch: LibraryWatcher.Timing? = nil, readOnly: Bool = false
    ) {
        self.host = host
        self.port = port
        self.token = token
        self.databasePath = databasePath
        self.configuration = configuration
        self.cacheDirectory = cacheDirectory
        self.refreshInterval = refreshInterval
        self.watch = watch
        self.readOnly = readOnly
    }

    /// Whether `host` only accepts connections from this machine.
    public var isLoopback: Bool {
        ["127.0.0.1", "::1", "localhost"].contains(host) || host.hasPrefix("127.")
    }

    /// Refuses settings that would expose the library: another host than loopback without a token,
    /// a port out of range.
    public func validate() throws(LibraryError) {
        guard (0...65_535).contains(port) else {
            throw LibraryError(.invalidRequest, "The port must be 0 to 65535 (got \(port)).")
        }
        try configuration.server.validate()
        if !isLoopback && (token ?? "").isEmpty {
            throw LibraryError(.invalidRequest, "Serving on \(host) makes the library reachable from other machines, so it needs a token.")
        }
    }
}
