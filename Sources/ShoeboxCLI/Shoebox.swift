public import ArgumentParser

/// The `shoebox` command: index a photo folder, then ask it questions.
public struct Shoebox: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "shoebox",
        abstract: "Index a photo folder into SQLite and group its photos by capture date.",
        discussion: """
            Typical use:
              shoebox index ~/Pictures     # crawl; running it again only reads what changed
              shoebox photos               # one line per file: date, where it came from, size
            """,
        version: "0.1.0",
        subcommands: [IndexCommand.self, PhotosCommand.self, ConfigCommand.self]
    )

    public init() {}
}
