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
              shoebox sections --level coarse
              shoebox zoom --from coarse --section 0 --item 3 --offset 120
            """,
        version: "0.1.0",
        subcommands: [IndexCommand.self, PhotosCommand.self, SectionsCommand.self, ZoomCommand.self, ConfigCommand.self]
    )

    public init() {}
}
