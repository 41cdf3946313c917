import ArgumentParser
import Corrections
import Foundation
import PhotoMetadata
import WallClock
import LibraryIndex
import PhotoLibrary

/// `shoebox adjust SELECTION MODES`: corrects dates, time zones and places in XMP sidecars, with
/// a journal, `--undo` and `--history`.
struct AdjustCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "adjust",
        abstract: "Correct dates, time zones and places, in XMP sidecars beside the photos, with undo.",
        discussion: """
            Select photos by path (a folder means everything below it) or with --search (the word \
            "undated" finds photos dated only by their file's time). Modes combine: --set-date, then \
            --shift, then --time-zone, then --place or --position. A stack's members (RAW+JPEG, \
            bursts) move together. Seconds and sub-seconds are kept.

            The sidecar the index reads (NAME.EXT.xmp, else NAME.xmp) is merged, else NAME.EXT.xmp \
            is created; every other field in it stays. All or nothing: a read-only folder fails the \
            batch before anything is written. Each batch is journaled in the library; --undo puts \
            the sidecars back byte for byte. The index is updated by the same command.

            Examples:
              shoebox adjust --search undated --set-date 1975-06-01T12:00:00
              shoebox adjust ~/Pictures/2019/lisbon --time-zone Europe/Lisbon --shift -1h
              shoebox adjust --undo
            """
    )

    @Argument(help: ArgumentHelp("Photos or folders to correct (with --undo: the batch, the last one by default).", valueName: "path"))
    var paths: [String] = []

    @Option(name: .customLong("search"), help: ArgumentHelp("Correct the photos this search finds (\"undated\": dated by file time).", valueName: "query"))
    var search: String?

    @Option(name: .customLong("shift"), parsing: .unconditional, help: ArgumentHelp("Move the clocks: ±[Nd][Nh][Nm][Ns], e.g. +1h or -2d3h.", valueName: "±duration"))
    var shift: String?

    @Option(name: .customLong("set-date"), help: ArgumentHelp("Give the earliest photo this time; the others move by as much.", valueName: "YYYY-MM-DDTHH:MM:SS"))
    var setDate: String?

    @Option(name: .customLong("time-zone"), parsing: .unconditional, help: ArgumentHelp("The zone the clocks are in: ±HH:MM or Area/City (its offset at each photo's date).", valueName: "zone"))
    var timeZone: String?

    @Flag(name: .customLong("keep-instant"), help: "With --time-zone: convert the clocks to the zone instead of relabelling them.")
    var keepInstant = false

    @Option(name: .customLong("place"), help: ArgumentHelp("Put the photos at a place of the places table (\"Paris, France\").", valueName: "name"))
    var place: String?

    @Option(name: .customLong("position"), parsing: .unconditional, help: ArgumentHelp("Put the photos at a position in degrees.", valueName: "lat,lon"))
    var position: String?

    @Flag(name: .customLong("dry-run"), help: "Show what would change; write nothing.")
    var dryRun = false

    @Flag(help: "Print the result as JSON: {\"batch\", \"photos\": [{\"path\", \"sidecar\", \"before\", \"after\"}]}.")
    var json = false

    @Flag(help: "Put back the sidecars of a batch (the last by default), byte for byte.")
    var undo = false

    @Flag(help: "With --undo: put back sidecars changed since the batch, too.")
    var force = false

    @Flag(help: "List the batches, oldest first.")
    var history = false

    @OptionGroup var library: LibraryOptions

    var request: AdjustRequest {
        AdjustRequest(shift: shift, setDate: setDate, timeZone: timeZone, keepInstant: keepInstant, place: place, position: position)
    }

    var hasModes: Bool { shift != nil || setDate != nil || timeZone != nil || keepInstant || place != nil || position != nil }

    func validate() throws {
        if history && (undo || hasModes || !paths.isEmpty || search != nil) {
            throw ValidationError("--history lists the batches on its own: leave out the paths and modes.")
        }
        if undo {
            if hasModes || search != nil || dryRun { throw ValidationError("--undo takes only a batch number (and --force): shoebox adjust --undo 7.") }
            if paths.count > 1 || (paths.first.map { Int64($0) == nil } ?? false) {
                throw ValidationError("--undo takes one batch number, e.g. shoebox adjust --undo 7 (shoebox adjust --history lists them).")
            }
            return
        }
        if force { throw ValidationError("--force goes with --undo.") }
        guard !history else { return }
        if search != nil && !paths.isEmpty { throw ValidationError("Select photos by path or with --search, not both.") }
        if search == nil && paths.isEmpty { throw ValidationError("Give the photos or folders to correct, or --search QUERY (e.g. --search undated).") }
        if !hasModes { throw ValidationError("Give what to change: --shift, --set-date, --time-zone, --place or --position.") }
    }

    func run() async throws {
        let databasePath = library.databasePath
        guard FileManager.default.fileExists(atPath: databasePath) else {
            throw CLIError("There is no index at \(databasePath) yet: run shoebox index FOLDER first.")
        }
        let configuration = try library.loadConfiguration()
        let store = try LibraryStore(path: databasePath, mode: .readWrite)
        store.persistTimeline(with: SectionTablePersister(settings: configuration.sections))
        let corrector = Corrector(store: store, places: IndexCommand.installedPlaces(), settings: configuration.index)
        do {
            if history { return try printHistory(try corrector.history()) }
            if undo { return try printUndo(try await corrector.undo(batch: paths.first.flatMap { Int64($0) }, force: force)) }
            let selection: Corrector.Selection = search.map { .search(SearchQuery($0)) } ?? .paths(paths)
            try printResult(try await corrector.adjust(selection, request, dryRun: dryRun))
        } catch let error as AdjustError {
            throw CLIError(sentence: error.message)
        }
    }

    private func printResult(_ result: Corrector.Result) throws {
        if json {
            try Output.write(try ContractJSON.encode(result) + Data("\n".utf8))
        } else {
            for photo in result.photos {
                try Output.line("\(photo.path.terminalSafe)  \(Self.text(photo.before)) → \(Self.text(photo.after))")
            }
            let sidecars = Set(result.photos.map(\.sidecar)).count
            let already = result.unchanged == 0 ? "" : " \(result.unchanged.counted("other photo")) already said so."
            if result.photos.isEmpty {
                try Output.line("Nothing to change: \(result.unchanged == 1 ? "the photo already says" : "all \(result.unchanged.grouped) photos already say") so; nothing was written.")
            } else if let batch = result.batch {
                try Output.line("Batch \(batch): \(result.photos.count.counted("photo")), \(sidecars.counted("sidecar")) written. Undo: shoebox adjust --undo \(batch).\(already)")
            } else {
                try Output.line("Dry run: \(result.photos.count.counted("photo")) and \(sidecars.counted("sidecar")) would change; nothing was written.\(already)")
            }
        }
        if let note = result.indexNote { Output.note(note) }
    }

    private func printUndo(_ result: Corrector.UndoResult) throws {
        if json {
            try Output.write(try ContractJSON.encode(result) + Data("\n".utf8))
        } else {
            try Output.line("Batch \(result.batch) undone: \(result.restored.count.counted("sidecar")) put back, \(result.removed.count.counted("sidecar")) removed"
                + (result.untouched.isEmpty ? "." : ", \(result.untouched.count.grouped) never written (the batch was cut short)."))
        }
        if let note = result.indexNote { Output.note(note) }
    }

    private func printHistory(_ batches: [AdjustBatch]) throws {
        if json { return try Output.write(try ContractJSON.encode(batches) + Data("\n".utf8)) }
        guard !batches.isEmpty else { return try Output.line("No corrections yet.") }
        for batch in batches {
            let state = batch.undone ? "undone" : batch.interrupted ? "cut short (undo it)" : "applied"
            try Output.line("\(batch.batch)  \(batch.time)  \(batch.photos.counted("photo"))  \(state)  \(batch.arguments.terminalSafe)")
        }
    }

    /// `2019-07-14 12:00:00.123 +02:00 @ 38.72230,-9.13930`.
    static func text(_ dating: PhotoDating) -> String {
        var text = dating.captured.iso8601.replacingOccurrences(of: "T", with: " ")
        if let offset = dating.offset { text += " " + offset.iso8601 }
        if let position = dating.position { text += String(format: " @ %.5f,%.5f", position.latitude, position.longitude) }
        return text
    }
}
