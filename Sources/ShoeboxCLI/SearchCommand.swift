import ArgumentParser
import LibraryIndex
import PhotoLibrary
import Timeline

/// `shoebox search QUERY`: the photos found by place, date, camera or file and folder name, as a
/// timeline of their own.
struct SearchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "search",
        abstract: "Find photos by place, date, camera, or file and folder name.",
        discussion: """
            Every word must match (AND); case and accents are ignored, so "sao paulo" finds São Paulo. \
            Places: city, region or country (when a places table is installed). Dates: 2008, \
            "march 2025" (or "mar 2025"), 2025-03, 2025-03-08. Cameras: make or model words \
            ("canon", "iphone"). Files: any word of the path ("holiday", "IMG"). Without --json, \
            prints the result's sections at --level, with their places; an empty result is no error.
            """
    )

    @Argument(help: ArgumentHelp("The words to find (quote or separate them; all must match).", valueName: "query"))
    var words: [String]

    @Option(name: .customLong("level"), help: "The zoom level of the result's sections.")
    var levelArgument: LevelArgument = .coarse

    @Flag(help: "Print the matching photos as `shoebox photos --json` does (with `stack` and `duplicateOf`), in capture order; a stack's members are listed one by one.")
    var json = false

    @OptionGroup var library: LibraryOptions

    func validate() throws {
        if SearchQuery(words.joined(separator: " ")).isEmpty {
            throw ValidationError("Give at least one word to search for, e.g. shoebox search lisbon 2025.")
        }
    }

    func run() async throws {
        let query = SearchQuery(words.joined(separator: " "))
        let library = try library.open()
        if json {
            var writer = JSONArrayWriter()
            do {
                let relations = try PhotoRelations(library.store)
                try library.store.forEachPhoto(matching: query) { try writer.appendPhoto($0, relations: relations) }
            } catch {
                throw LibraryError(error)
            }
            try writer.finish()
            return
        }
        let level = levelArgument.level
        let snapshot = try library.snapshot(matching: query)
        let reports = try snapshot.reports(level, withPhotos: false)
        guard !reports.isEmpty else {
            return try Output.line("No photo matches \"\(query.normalized.terminalSafe)\".")
        }
        try Output.line(SectionTable(reports: reports, level: level, places: try library.sectionPlaces(matching: query)).text)
    }
}
