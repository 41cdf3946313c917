import ArgumentParser
import Foundation
import PhotoLibrary

/// `shoebox config`: show the configuration in effect, or the built-in defaults.
struct ConfigCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "config",
        abstract: "Print the configuration in effect (after reading the config file) as JSON.",
        discussion: "Save the output as ~/.config/shoebox/config.json and edit it; keys left out keep their defaults."
    )

    @Flag(help: "Print the built-in defaults instead, ignoring any config file.")
    var defaults = false

    @OptionGroup var library: LibraryOptions

    func run() async throws {
        let configuration = defaults ? ShoeboxConfiguration.default : try library.loadConfiguration()
        let inEffect = try inEffect
        try writeJSON(configuration)
        // Standard output stays the JSON alone, to save as a config file; what is in effect goes
        // to the person at the terminal (after the JSON, so a failed write ends with one line).
        Output.note(inEffect)
    }

    /// Which configuration file and database a command run with the same options would use.
    var inEffect: String {
        get throws {
            let file: String
            if defaults {
                file = "the built-in defaults (--defaults)"
            } else if let found = try ShoeboxConfiguration.locate(explicitPath: library.configFile) {
                let why = switch found.origin {
                case .option: "--config"
                case .environment: "$SHOEBOX_CONFIG"
                case .found: "the first that exists of ~/.config/shoebox/config.json and ./config/shoebox.json"
                }
                file = "\(LibraryPaths.absolute(found.path).terminalSafe) (\(why))"
            } else {
                file = "none found, the built-in defaults"
            }
            let database = library.database != nil ? "--db"
                : ProcessInfo.processInfo.environment["SHOEBOX_DB"].map { $0.isEmpty ? "the default" : "$SHOEBOX_DB" } ?? "the default"
            return "# Configuration file: \(file)\n# Database: \(library.databasePath.terminalSafe) (\(database))"
        }
    }
}
