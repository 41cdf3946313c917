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
        try writeJSON(configuration)
    }
}
