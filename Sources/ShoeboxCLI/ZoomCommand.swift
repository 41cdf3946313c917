import ArgumentParser
import Foundation
import PhotoLibrary
import Timeline
import ZoomMapping

/// `shoebox zoom`: where the other level must scroll so a tapped photo stays under the finger.
struct ZoomCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "zoom",
        abstract: "Map a tapped photo to the other zoom level: its index path there and the content offset that keeps it in place.",
        discussion: """
            From coarse (zoom in): the same photo in the fine grid. From fine (zoom out): the photo \
            itself if the coarse sample shows it, else the shown photo of its coarse section nearest \
            in time. The target offset keeps the photo at the same height on screen, clamped to the \
            scrollable range. With --focal-y (a pinch), the photo under that viewport height is the \
            anchor instead of --section/--item. With --packed, the packed timeline of the viewport \
            (columns by width, small sections side by side, a Years level): --from and --to take \
            years, coarse or fine (by default years → coarse, coarse → fine, fine → coarse).
            """
    )

    @Option(name: .customLong("from"), help: "The level the user is looking at: coarse or fine (years with --packed).")
    var fromArgument: PackedLevelArgument

    @Option(name: .customLong("to"), help: "With --packed: the level to zoom to (years, coarse or fine).")
    var toArgument: PackedLevelArgument?

    @Flag(help: "Use the packed timeline of --viewport instead of the seed grid.")
    var packed = false

    @Option(help: ArgumentHelp("With --packed: the day whose month and day pick each year's key photo (default: today).", valueName: "YYYY-MM-DD"))
    var today: String?

    @Option(parsing: .unconditional, help: ArgumentHelp("Section of the tapped photo (0 or more).", valueName: "s"))
    var section: Int?

    @Option(parsing: .unconditional, help: ArgumentHelp("Item of the tapped photo within its section, 0 or more (coarse: among the shown photos).", valueName: "i"))
    var item: Int?

    // Unconditional, so that a negative offset (a top inset, a rubber band) is read as a value.
    @Option(parsing: .unconditional, help: ArgumentHelp("Current content offset y of the grid, in points (may be negative).", valueName: "y"))
    var offset: Double = 0

    @Option(help: ArgumentHelp("Viewport size in points (default from the config file, 390x844).", valueName: "WxH"))
    var viewport: String?

    @Option(name: .customLong("focal-y"), parsing: .unconditional, help: ArgumentHelp("Pinch: the focal point's y in the viewport; the photo under it is the anchor (instead of --section/--item).", valueName: "y"))
    var focalY: Double?

    @Option(name: .customLong("focal-x"), parsing: .unconditional, help: ArgumentHelp("Pinch: the focal point's x in the viewport (default: the middle).", valueName: "x"))
    var focalX: Double?

    @Option(parsing: .unconditional, help: ArgumentHelp("Sampling seed for coarse sections, 0 or more (default from the config file).", valueName: "n"))
    var seed: UInt64?

    @Flag(help: "Print JSON: from, to (level, section, item), path, contentOffsetY, clamped, and more.")
    var json = false

    @OptionGroup var library: LibraryOptions

    func validate() throws {
        if !packed, fromArgument == .years {
            throw ValidationError("--from years belongs to the packed timeline: add --packed (and --viewport WxH).")
        }
        if !packed, toArgument != nil || today != nil {
            throw ValidationError("--to and --today belong to the packed timeline: add --packed.")
        }
        if let today, TimelineDay(iso: today) == nil {
            throw ValidationError("--today takes a date YYYY-MM-DD, e.g. --today 2026-11-27 (got \(today)).")
        }
        if focalY != nil && (section != nil || item != nil) {
            throw ValidationError("Give either the tapped photo (--section S --item I) or a pinch's focal point (--focal-y Y), not both.")
        }
        if focalY == nil && (section == nil || item == nil) {
            throw ValidationError("Give the tapped photo with --section S --item I (or --focal-y Y for a pinch).")
        }
        if focalY == nil && focalX != nil {
            throw ValidationError("--focal-x belongs to a pinch: give --focal-y Y with it.")
        }
        if let section, section < 0 { throw ValidationError("--section takes a section number from 0 (got \(section)); `shoebox sections` lists them.") }
        if let item, item < 0 { throw ValidationError("--item takes an item number from 0 (got \(item)); `shoebox sections --section N` lists them.") }
        for (name, value) in [("--offset", offset), ("--focal-y", focalY), ("--focal-x", focalX)] {
            if let value, !value.isFinite {
                throw ValidationError("\(name) takes a finite number of points, e.g. \(name) 120 (got \(value)).")
            }
        }
        if let viewport, ZoomRequest.parseViewport(viewport) == nil {
            throw ValidationError("--viewport takes a width and height in points, e.g. --viewport 390x844.")
        }
    }

    func run() async throws {
        let library = try self.library.open()
        var sections = library.configuration.sections
        if let seed { sections.coarse.seed = seed }
        let anchor: ZoomRequest.Anchor = if let focalY { .focalPoint(x: focalX, y: focalY) }
            else { .item(section: section ?? 0, item: item ?? 0) }
        if packed {
            let request = PackedZoomRequest(
                from: fromArgument.packedLevel, to: toArgument?.packedLevel, anchor: anchor, offset: offset,
                viewport: viewport.flatMap(ZoomRequest.parseViewport), today: today.flatMap { TimelineDay(iso: $0) } ?? .today())
            let result = try library.snapshot(settings: sections).packedZoom(request, settings: library.configuration.zoom)
            try report(result, viewportHeight: request.viewport?.height ?? library.configuration.zoom.viewport.height)
            return
        }
        let request = ZoomRequest(from: fromArgument.level, anchor: anchor, offset: offset, viewport: viewport.flatMap(ZoomRequest.parseViewport))
        let result: ZoomJSON
        if let stored = try StoredSections(store: library.store, settings: sections),
           let answer = try stored.zoom(request, settings: library.configuration.zoom) {
            result = answer
        } else {
            result = try library.snapshot(settings: sections).zoom(request, settings: library.configuration.zoom)
        }
        try report(result, viewportHeight: request.viewport?.height ?? library.configuration.zoom.viewport.height)
    }

    /// Prints `result`, with a note when the tapped cell was off screen.
    private func report(_ result: ZoomJSON, viewportHeight: Double) throws {
        if !result.onScreen {
            Output.note(String(
                format: "Note: at --offset %@ that cell is off screen (its top at y = %.2f in a viewport %@ points high), so no finger could have tapped it; the answer is for that height all the same.",
                Self.points(offset), result.viewportY, Self.points(viewportHeight)))
        }
        if json {
            try writeJSON(result)
        } else {
            try Output.line(result.text)
        }
    }
}

extension ZoomCommand {
    /// 480 as "480", 12.5 as "12.5".
    static func points(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }
}

extension ZoomJSON {
    var text: String {
        var lines = [
            path.terminalSafe,
            "  \(from.level) section \(from.section), item \(from.item)  →  \(to.level) section \(to.section), item \(to.item)",
        ]
        if targetPath != path {
            lines.append(to.level == "years"
                ? "  landing on its year's key photo, \(targetPath.terminalSafe)"
                : "  not shown at the coarse level: landing on \(targetPath.terminalSafe), the nearest shown photo in time")
        }
        lines.append(String(format: "  scroll to content offset y = %.2f%@", contentOffsetY, clamped ? String(format: " (clamped from %.2f)", unclampedContentOffsetY) : ""))
        lines.append(String(format: "  cell top on screen: %.2f → %.2f", viewportY, targetViewportY))
        return lines.joined(separator: "\n")
    }
}
