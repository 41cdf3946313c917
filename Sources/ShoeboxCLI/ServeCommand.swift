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
            picked up within a second.
            """
    )

    @Option(help: ArgumentHelp("The address to listen on (default 127.0.0.1, this machine only).", valueName: "address"))
    var host = "127.0.0.1"

    @Option(parsing: .unconditional, help: ArgumentHelp("The port to listen on, 1–65535 (0 picks a free one).", valueName: "port"))
    var port = 8080

    @Option(help: ArgumentHelp("A secret every request must carry; required for any --host but loopback. Default: $SHOEBOX_TOKEN.", valueName: "token"))
    var token: String?

    @Flag(help: "Watch the library's folder: index new, changed and deleted files as they happen and update open viewers.")
    var watch = false

    @OptionGroup var library: LibraryOptions

    func validate() throws {
        guard (0...65_535).contains(port) else {
            throw ValidationError("--port takes 0 to 65535 (e.g. --port 8080; 0 picks a free port).")
        }
    }

    func run() async throws {
        let token = self.token ?? ProcessInfo.processInfo.environment["SHOEBOX_TOKEN"].flatMap { $0.isEmpty ? nil : $0 }
        let settings = ServerSettings(
            host: host, port: port, token: token, databasePath: library.databasePath,
            configuration: try library.loadConfiguration(), watch: watch ? LibraryWatcher.Timing() : nil)
        if !settings.isLoopback && token == nil {
            throw CLIError("Serving on \(host) makes the library reachable from other machines: give a token with --token SECRET (or $SHOEBOX_TOKEN), or leave out --host to serve this machine only.")
        }
        let host = self.host
        try await ShoeboxServer.run(settings: settings) { port in
            let shown = host.contains(":") ? "[\(host)]" : host
            Output.note("Shoebox is serving \(settings.databasePath.terminalSafe) at http://\(shown):\(port)/ (Ctrl-C to stop)")
            if let problem = ThumbnailCache.decoderProblem {
                Output.note("Photos will show as grey placeholders: libvips could not start: \(problem).")
            }
        }
    }
}
