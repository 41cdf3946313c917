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

    /// The database path to use, absolute, with `~` expanded (a relative `--db` or `$SHOEBOX_DB`
    /// is resolved against the current folder, and shown so in messages).
    var databasePath: String {
        Self.absolute(database ?? Self.defaultDatabasePath)
    }

    static var defaultDatabasePath: String {
        let environment = ProcessInfo.processInfo.environment
        if let path = environment["SHOEBOX_DB"], !path.isEmpty { return path }
        let dataHome = environment["XDG_DATA_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? (NSHomeDirectory() as NSString).appendingPathComponent(".local/share")
        return (dataHome as NSString).appendingPathComponent("shoebox/library.sqlite")
    }

    /// `path` with `~` expanded, made absolute against the current folder, `.` and `..` resolved.
    static func absolute(_ path: String) -> String {
        let expanded = (path as NSString).expandingTildeInPath
        return URL(fileURLWithPath: expanded, relativeTo: URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true))
            .standardizedFileURL.path
    }

    func loadConfiguration() throws -> ShoeboxConfiguration {
        try ShoeboxConfiguration.load(explicitPath: configFile)
    }
}
