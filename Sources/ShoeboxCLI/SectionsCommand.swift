import WallClock
import ArgumentParser
import Foundation
import LibraryIndex
import PhotoLibrary
import PhotoMetadata
import Timeline

/// `shoebox sections`: the photos grouped by capture date, at the coarse or the fine level.
struct SectionsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sections",
        abstract: "Group the indexed photos into date sections (years; coarse: a couple of weeks, sampled; fine: one or two days, all photos).",
        discussion: """
            Coarse sections are fixed windows of `spanDays` days (default 14) aligned on Monday \
            2001-01-01; each shows at most 50 photos (1–10, 20, 30, 40 or 50), chosen by a stable \
            seeded hash of their paths. Fine sections are one day, or two consecutive days when \
            together they hold at most `mergeLimit` photos (default 12). Photos dated only by their \
            file's modification time are marked "file date". The years level lists each year with \
            photos: its count, its photos per month and its key photo, the one taken nearest today's \
            month and day (--today to pick another day).
            """
    )

    @Option(name: .customLong("level"), help: "The zoom level.")
    var levelArgument: PackedLevelArgument = .coarse

    @Option(parsing: .unconditional, help: ArgumentHelp("List the photos of one section (0 or more).", valueName: "n"))
    var section: Int?

    @Option(parsing: .unconditional, help: ArgumentHelp("Sampling seed for coarse sections, 0 or more (default from the config file).", valueName: "n"))
    var seed: UInt64?

    @Option(name: .customLong("span-days"), parsing: .unconditional, help: ArgumentHelp("Days per coarse section.", valueName: "n"))
    var spanDays: Int?

    @Option(name: .customLong("merge-limit"), parsing: .unconditional, help: ArgumentHelp("Most photos in a two-day fine section.", valueName: "n"))
    var mergeLimit: Int?

    @Option(name: .customLong("day-start"), parsing: .unconditional, help: ArgumentHelp("Hour a day starts (0–23): with 4, photos taken at 1 a.m. belong to the evening before.", valueName: "hour"))
    var dayStartHour: Int?

    @Option(help: ArgumentHelp("Years level: the day whose month and day pick each year's key photo (default: today).", valueName: "YYYY-MM-DD"))
    var today: String?

    @Flag(help: "Print JSON: an array of sections with level, index, start, end, count, places and the shown photos.")
    var json = false

    @Option(name: .customLong("query"), help: ArgumentHelp(
        "Only the photos a search finds (as `shoebox search`): the result as a timeline of its own.", valueName: "words"))
    var query: String?

    @OptionGroup var library: LibraryOptions

    func validate() throws {
        if let query, SearchQuery(query).isEmpty {
            throw ValidationError("--query takes the words to search for, e.g. --query \"lisbon 2025\".")
        }
        if let section, section < 0 {
            throw ValidationError("--section takes a section number from 0 (got \(section)); `shoebox sections` lists them.")
        }
        if let dayStartHour, !(0...23).contains(dayStartHour) {
            throw ValidationError("--day-start takes an hour from 0 to 23, e.g. --day-start 4.")
        }
        if let today, TimelineDay(iso: today) == nil {
            throw ValidationError("--today takes a date YYYY-MM-DD, e.g. --today 2026-11-27 (got \(today)).")
        }
        if levelArgument == .years, section != nil {
            throw ValidationError("--section lists a coarse or fine section; the years level is one table (--level coarse --section N).")
        }
        if let spanDays, spanDays < 1 { throw ValidationError("--span-days must be at least 1, e.g. --span-days 14.") }
        if let mergeLimit, mergeLimit < 1 { throw ValidationError("--merge-limit must be at least 1, e.g. --merge-limit 12.") }
    }

    func run() async throws {
        let level = levelArgument.level
        var settings = try library.loadConfiguration().sections
        if let seed { settings.coarse.seed = seed }
        if let spanDays { settings.coarse.spanDays = spanDays }
        if let mergeLimit { settings.fine.mergeLimit = mergeLimit }
        if let dayStartHour { settings.dayStartHour = dayStartHour }

        let library = try library.open()
        if levelArgument == .years {
            let search = query.map(SearchQuery.init)
            let snapshot = try search.map { try library.snapshot(matching: $0, settings: settings) } ?? library.snapshot(settings: settings)
            let years = snapshot.yearList(today: today.flatMap { TimelineDay(iso: $0) } ?? .today(), detail: false)
            if json {
                try writeJSON(years)
            } else {
                try Output.line(YearTable(years: years).text)
            }
            return
        }
        let withPhotos = json || section != nil
        let reports: [SectionReport]
        let leftOut: Int
        let search = query.map(SearchQuery.init)
        if let search {
            let snapshot = try library.snapshot(matching: search, settings: settings)
            (reports, leftOut) = (try snapshot.reports(level, section: section, withPhotos: withPhotos), snapshot.leftOut)
        } else if let stored = try StoredSections(store: library.store, settings: settings),
           let answer = try stored.reports(level, section: section, withPhotos: withPhotos) {
            (reports, leftOut) = (answer, stored.leftOut)
        } else {
            let snapshot = try library.snapshot(settings: settings)
            (reports, leftOut) = (try snapshot.reports(level, section: section, withPhotos: withPhotos), snapshot.leftOut)
        }

        let places = try library.sectionPlaces(matching: search)
        if json {
            try writeJSONArray(reports) { report in
                var section = SectionJSON(report)
                section.places = places.names(from: report.start.isoString, to: report.end.isoString)
                return section
            }
        } else if section != nil, let report = reports.first {
            try Output.line(SectionListing(report: report).text)
        } else {
            try Output.line(SectionTable(reports: reports, level: level, places: places).text)
        }
        if leftOut > 0 {
            Output.note("Note: \(leftOut.counted("photo")) \(leftOut == 1 ? "has" : "have") no usable date and \(leftOut == 1 ? "is" : "are") in no section.")
        }
    }
}

/// One line per section: index, dates, photos, shown, and how many are dated by file time.
struct SectionTable {
    var reports: [SectionReport]
    var level: TimelineLevel
    var places: SectionPlaces = SectionPlaces([])

    var text: String {
        guard !reports.isEmpty else { return "No photos in the index yet: run `shoebox index FOLDER` first." }
        var rows = [["#", "DATES", "PHOTOS", "SHOWN", "PLACES", ""]]
        for s in reports {
            let names = places.names(from: s.start.isoString, to: s.end.isoString).joined(separator: ", ")
            rows.append([String(s.index), s.label, s.count.grouped, s.shown.grouped, names.terminalSafe,
                         s.fileDated > 0 ? "\(s.fileDated) with a file date" : ""])
        }
        let total = reports.reduce(0) { $0 + $1.count }
        return Columns.format(rows, rightAligned: [0, 2, 3]) + "\n"
            + "\(reports.count.counted("\(level) section")), \(total.counted("photo"))"
    }
}

/// One line per year: photos, the month strip, the key photo.
struct YearTable {
    var years: [YearJSON]

    var text: String {
        guard !years.isEmpty else { return "No photos in the index yet: run `shoebox index FOLDER` first." }
        var rows = [["#", "YEAR", "PHOTOS", "J F M A M J J A S O N D", "KEY PHOTO"]]
        for y in years {
            let strip = y.months.map { $0 == 0 ? "·" : $0 < 10 ? String($0) : "+" }.joined(separator: " ")
            rows.append([String(y.index), String(y.year), y.count.grouped, strip, "\(y.keyDay)  \(y.key.path.terminalSafe)"])
        }
        let total = years.reduce(0) { $0 + $1.count }
        return Columns.format(rows, rightAligned: [0, 2]) + "\n"
            + "\(years.count.counted("year")), \(total.counted("photo")) (months: · none, + ten or more)"
    }
}

/// The photos of one section, in capture order.
struct SectionListing {
    var report: SectionReport

    var text: String {
        var lines = ["\(report.level.rawValue.capitalized) section \(report.index): \(report.label) — \(report.count.counted("photo")), \(report.shown.grouped) shown"]
        var rows: [[String]] = []
        for (item, photo) in (report.photos ?? []).enumerated() {
            let captured = photo.captured.description.prefix(19).replacingOccurrences(of: "T", with: " ")
            rows.append([String(item), captured, photo.path.terminalSafe + (photo.source == .fileModified ? "  (file date)" : "")])
        }
        lines.append(Columns.format(rows, rightAligned: [0]))
        return lines.joined(separator: "\n")
    }
}
