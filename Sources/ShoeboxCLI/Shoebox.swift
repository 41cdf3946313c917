public import ArgumentParser
import Foundation
import LibraryIndex
import PhotoLibrary

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
              shoebox backup ~/library-copy.sqlite

            The index lives in ~/.local/share/shoebox/library.sqlite unless --db
            or $SHOEBOX_DB says otherwise. Shoebox never writes to your photos.
            """,
        version: ShoeboxVersion.text,
        subcommands: [
            IndexCommand.self, PhotosCommand.self, SectionsCommand.self, ZoomCommand.self, ConfigCommand.self,
            SearchCommand.self, PlacesCommand.self, ServeCommand.self, ThumbnailsCommand.self, BackupCommand.self, RelocateCommand.self,
            DuplicatesCommand.self, MapCommand.self, AdjustCommand.self,
        ]
    )

    public init() {}

    /// The program: Ctrl-C handling from the first instruction, then the command named by
    /// `arguments`. Errors are printed as one line with control characters made visible.
    public static func start(_ arguments: [String] = Array(CommandLine.arguments.dropFirst())) async -> Never {
        Interrupts.install()
        do {
            try checkSingleDashWords(arguments)
            var command = try parseAsRoot(arguments)
            if var command = command as? any AsyncParsableCommand {
                try await command.run()
            } else {
                try command.run()
            }
            exit(withError: nil)
        } catch let error as CLIError {
            Output.note("Error: \(error.description.terminalSafe)")
            exit(withError: ExitCode.failure)
        } catch let error as IndexError {
            Output.note("Error: \(error.commandLineMessage.terminalSafe)")
            exit(withError: ExitCode.failure)
        } catch let error as LibraryError {
            Output.note("Error: \(error.commandLineMessage.terminalSafe)")
            exit(withError: ExitCode.failure)
        } catch {
            let code = exitCode(for: error)
            guard code != .success, !(error is ExitCode) else { exit(withError: error) }
            // The parser's own messages quote what was typed: keep their lines, escape the rest.
            let message = fullMessage(for: error).split(separator: "\n", omittingEmptySubsequences: false)
                .map { String($0).terminalSafe }.joined(separator: "\n")
            Output.note(message)
            exit(withError: code)
        }
    }

    /// Options whose value may start with a minus sign.
    static let signedValueOptions: Set<String> = ["--shift", "--time-zone", "--position"]

    /// Refuses `-dash` (which the parser would read as the short flags -d -a -s -h, i.e. help) with
    /// a message saying how to name a folder or file that starts with a dash. A negative number, or
    /// a list of numbers such as the box `-10,36,-6,42`, is a value, not an option.
    static func checkSingleDashWords(_ arguments: [String]) throws {
        for (index, argument) in arguments.enumerated() {
            if argument == "--" { return }
            // The value of an option that takes a sign (`--shift -1h`, `--time-zone -05:00`).
            if index > 0, signedValueOptions.contains(arguments[index - 1]) { continue }
            guard argument.count > 2, argument.hasPrefix("-"), !argument.hasPrefix("--"),
                  Double(argument) == nil,
                  !argument.split(separator: ",", omittingEmptySubsequences: false).allSatisfy({ Double($0) != nil })
            else { continue }
            throw CLIError("Unknown option '\(argument)': options start with two dashes (e.g. --json). A folder or file whose name starts with '-' goes after --, e.g. shoebox index -- \(argument)")
        }
    }
}
