import ArgumentParser
import Foundation
import PhotoLibrary
import Timeline
import ZoomMapping

/// The `--db` and `--config` options every command shares.
struct LibraryOptions: ParsableArguments {
    @Option(
        name: .customLong("db"),
        help: ArgumentHelp(
            "The index database file.",
            discussion: "Default: $SHOEBOX_DB if set, else $XDG_DATA_HOME/shoebox/library.sqlite (~/.local/share/shoebox/library.sqlite). A relative path is taken from the current folder.",
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
        database.map { LibraryPaths.absolute($0) } ?? LibraryPaths.defaultDatabase()
    }

    func loadConfiguration() throws -> ShoeboxConfiguration {
        try ShoeboxConfiguration.load(explicitPath: configFile)
    }

    /// The library, opened read-only with its configuration.
    func open() throws -> PhotoLibrary {
        try PhotoLibrary(databasePath: databasePath, configuration: loadConfiguration())
    }
}

/// `--level` / `--from`: coarse or fine.
enum LevelArgument: String, ExpressibleByArgument, CaseIterable {
    case coarse
    case fine

    var level: TimelineLevel { self == .coarse ? .coarse : .fine }
}

/// `--level` of `sections` and `--from`/`--to` of `zoom`: years, coarse or fine.
enum PackedLevelArgument: String, ExpressibleByArgument, CaseIterable {
    case years
    case coarse
    case fine

    var packedLevel: PackedLevel { PackedLevel(rawValue: rawValue)! }
    /// The timeline level; years (which has none) reads as coarse, so callers branch on it first.
    var level: TimelineLevel { self == .fine ? .fine : .coarse }
}
