public import ArgumentParser

/// The `shoebox` command: index a photo folder, then ask it questions.
public struct Shoebox: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "shoebox",
        abstract: "Index a photo folder into SQLite and group its photos by capture date.",
        discussion: """
            Typical use:
              shoebox index ~/Pictures          # crawl; again: reads only changes
              shoebox photos                    # dates, their sources, sizes
              shoebox sections --level coarse   # date sections
              shoebox zoom --from coarse --section 0 --item 3 --offset 120

            The index lives in ~/.local/share/shoebox/library.sqlite unless --db
            or $SHOEBOX_DB says otherwise.
            """,
        version: "0.1.0",
        subcommands: [IndexCommand.self, PhotosCommand.self, SectionsCommand.self, ZoomCommand.self, ConfigCommand.self]
    )

    public init() {}
}
