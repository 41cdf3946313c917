import ArgumentParser
import Foundation
import LibraryIndex
import PhotoLibrary
import ShoeboxServer
import Thumbnails

/// `shoebox serve`: the JSON API and the web viewer for one library.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve the library over HTTP: a JSON API under /api and the web viewer at /.",
        discussion: """
            Listens on 127.0.0.1:8080 by default, so only this machine can connect. Any other --host \
            needs a token (--token or $SHOEBOX_TOKEN), then required on every request: \
            `Authorization: Bearer TOKEN`, or open the viewer once with ?token=TOKEN. Photos are \
            addressed by id; the server never writes to them. A finished `shoebox index` run is \
            picked up within a second. Requests whose Host is not this server's are refused (421), \
            and so are API requests other web sites make (403); slow or idle connections close after \
            --header-timeout and --idle-timeout, and at most --max-connections are served at once.
            """
    )

    @Option(help: ArgumentHelp("The address to listen on (default 127.0.0.1, this machine only).", valueName: "address"))
    var host = "127.0.0.1"

    @Option(parsing: .unconditional, help: ArgumentHelp("The port to listen on, 1–65535 (0 picks a free one).", valueName: "port"))
    var port = 8080

    @Option(help: ArgumentHelp("A secret every request must carry; required for any --host but loopback. Default: $SHOEBOX_TOKEN.", valueName: "token"))
    var token: String?

    @Option(name: .customLong("host-name"), help: ArgumentHelp("Also accept this name as the request's Host (repeatable; besides localhost, 127.0.0.1, [::1] and --host). Config: server.hostNames.", valueName: "name"))
    var hostNames: [String] = []

    @Option(help: ArgumentHelp("Seconds a client has to send a whole request head (default 10). Config: server.headerTimeout.", valueName: "seconds"))
    var headerTimeout: Double?

    @Option(help: ArgumentHelp("Seconds an idle connection stays open (default 30). Config: server.idleTimeout.", valueName: "seconds"))
    var idleTimeout: Double?

    @Option(help: ArgumentHelp("Connections served at once; more are answered 503 (default 512). Config: server.maxConnections.", valueName: "count"))
    var maxConnections: Int?

    @Option(help: ArgumentHelp("The least severe messages logged: trace, debug, info (default), notice, warning or error. Config: server.logLevel.", valueName: "level"))
    var logLevel: String?

    @Flag(help: "Watch the library's folder: index new, changed and deleted files as they happen and update open viewers.")
    var watch = false

    @Flag(name: .customLong("read-only"), help: "Refuse corrections: POST /api/adjust and /api/adjust/undo answer 403 (the viewer hides its Select button).")
    var readOnly = false

    @OptionGroup var library: LibraryOptions

    func validate() throws {
        guard (0...65_535).contains(port) else {
            throw ValidationError("--port takes 0 to 65535 (e.g. --port 8080; 0 picks a free port).")
        }
        for (flag, value) in [("--header-timeout", headerTimeout), ("--idle-timeout", idleTimeout)] {
            if let value, !ServerLimits.timeoutRange.contains(value) {
                throw ValidationError("\(flag) takes 0.05 to 3600 seconds (e.g. \(flag) 30).")
            }
        }
        if let maxConnections, !ServerLimits.connectionRange.contains(maxConnections) {
            throw ValidationError("--max-connections takes 1 to 100000 (e.g. --max-connections 512).")
        }
        if let logLevel, !ServerLimits.logLevels.contains(logLevel) {
            throw ValidationError("--log-level takes one of \(ServerLimits.logLevels.joined(separator: ", ")) (got \(logLevel)).")
        }
        for name in hostNames where !ServerLimits.isHostName(name) {
            throw ValidationError("--host-name takes a host name such as photos.local or an address (got \(name)).")
        }
    }

    func run() async throws {
        let token = self.token ?? ProcessInfo.processInfo.environment["SHOEBOX_TOKEN"].flatMap { $0.isEmpty ? nil : $0 }
        var configuration = try library.loadConfiguration()
        configuration.server.hostNames += hostNames
        if let headerTimeout { configuration.server.headerTimeout = headerTimeout }
        if let idleTimeout { configuration.server.idleTimeout = idleTimeout }
        if let maxConnections { configuration.server.maxConnections = maxConnections }
        if let logLevel { configuration.server.logLevel = logLevel }
        let settings = ServerSettings(
            host: host, port: port, token: token, databasePath: library.databasePath,
            configuration: configuration, watch: watch ? LibraryWatcher.Timing() : nil, readOnly: readOnly)
        if !settings.isLoopback && token == nil {
            throw CLIError("Serving on \(host) makes the library reachable from other machines: give a token with --token SECRET (or $SHOEBOX_TOKEN), or leave out --host to serve this machine only.")
        }
        let host = self.host
        // libvips starts here, before the server's threads: its start-up writes to the
        // environment, which a thread starting ffmpeg would be reading.
        let decoderProblem = ThumbnailCache.decoderProblem
        try await ShoeboxServer.run(settings: settings) { port in
            let shown = host.contains(":") ? "[\(host)]" : host
            Output.note("Shoebox is serving \(settings.databasePath.terminalSafe) at http://\(shown):\(port)/ (Ctrl-C to stop)")
            if let problem = decoderProblem {
                Output.note("Photos will show as grey placeholders: libvips could not start: \(problem).")
            }
        }
    }
}
