import ArgumentParser
import Foundation

/// The `--db` and `--config` options every command shares.
struct LibraryOptions: ParsableArguments {
    @Option(
        name: .customLong("db"),
        help: ArgumentHelp(
            "The index database file.",
            discussion: "Default: $SHOEBOX_DB if set, else $XDG_DATA_HOME/shoebox/library.sqlite (~/.local/share/shoebox/library.sqlite).",
            valueName: "file"))
    var database: String?

    @Option(
        name: .customLong("config"),
        help: ArgumentHelp(
            "A JSON configuration file.",
            discussion: "Default: $SHOEBOX_CONFIG, else ~/.config/shoebox/config.json, else ./config/shoebox.json, else built-in defaults (the same values as config/shoebox.json).",
            valueName: "file"))
    var configFile: String?

    /// The database path to use, with `~` expanded.
    var databasePath: String {
        if let database { return (database as NSString).expandingTildeInPath }
        return Self.defaultDatabasePath
    }

    static var defaultDatabasePath: String {
        let environment = ProcessInfo.processInfo.environment
        if let path = environment["SHOEBOX_DB"], !path.isEmpty { return (path as NSString).expandingTildeInPath }
        let dataHome = environment["XDG_DATA_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? (NSHomeDirectory() as NSString).appendingPathComponent(".local/share")
        return (dataHome as NSString).appendingPathComponent("shoebox/library.sqlite")
    }

    func loadConfiguration() throws -> ShoeboxConfiguration {
        try ShoeboxConfiguration.load(explicitPath: configFile)
    }
}
