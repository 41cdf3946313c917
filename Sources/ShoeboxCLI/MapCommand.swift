import ArgumentParser
import Foundation
import LibraryIndex
import PhotoLibrary

/// `shoebox map`: where the photos were taken, counted per map cell.
struct MapCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "map",
        abstract: "Count the photos taken inside a box of the map, per Web-Mercator cell.",
        discussion: """
            The world at zoom Z is 2^Z × 2^Z cells (zoom 0 is one cell, zoom 20 about 38 m). Each cell \
            the box touches that holds photos is one cluster: its photo count, their mean position, \
            a cover photo id and the cell's own box (give it to --bbox at zoom 20, or to the viewer's \
            timeline, to see exactly those photos). --json prints what GET /api/map answers. \
            Photos without a position are not on the map; the last line counts them. \
            Example: shoebox map --bbox -10,36,-6,42 --zoom 8
            """
    )

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "The box: west,south,east,north in degrees (west > east crosses the antimeridian). Default: the whole world.",
            valueName: "W,S,E,N"))
    var bbox: String = "-180,-90,180,90"

    @Option(help: ArgumentHelp("The zoom of the cells, 0–20. Default: the finest at which the box touches at most 256 cells.", valueName: "Z"))
    var zoom: Int?

    @Flag(help: "Print JSON: zoom, bbox, clusters (lat, lon, count, photo, bbox), total, located, unlocated.")
    var json = false

    @OptionGroup var library: LibraryOptions

    /// Cells one answer may cover, as the server allows.
    static let maximumCells = 4_096

    func validate() throws {
        if case .failure(let error) = MapBox.parse(bbox) { throw ValidationError(error.message) }
        if let zoom, !MapGrid.zooms.contains(zoom) {
            throw ValidationError("--zoom must be a whole number from 0 to \(MapGrid.zooms.upperBound) (got \(zoom)).")
        }
        let box = try MapBox.parse(bbox).get()
        let cells = box.cellCount(zoom: zoom ?? box.finestZoom(touchingAtMost: 256))
        guard cells <= Self.maximumCells else {
            throw ValidationError("The box touches \(cells) cells at zoom \(zoom ?? 0); at most \(Self.maximumCells): give a lower --zoom or a smaller --bbox.")
        }
    }

    func run() async throws {
        let box = try MapBox.parse(bbox).get()
        let library = try library.open()
        let map = try library.map(box, zoom: zoom ?? box.finestZoom(touchingAtMost: 256))
        if json { return try writeJSON(map) }
        try Output.line(Self.table(map))
    }

    /// One line per cluster (mean position, count), most photos first, then the totals; the
    /// covers' ids are in `--json`.
    static func table(_ map: MapJSON) -> String {
        var lines: [String] = []
        let rows = map.clusters.sorted { ($0.count, $1.lat, $1.lon) > ($1.count, $0.lat, $0.lon) }
        let countWidth = rows.map(\.count.grouped.count).max() ?? 0
        for row in rows {
            let position = String(format: "%9.4f %10.4f", row.lat, row.lon)
            let count = row.count.grouped
            lines.append("\(position)  \(String(repeating: " ", count: countWidth - count.count))\(count) \(row.count == 1 ? "photo" : "photos")")
        }
        let clusters = map.clusters.count == 1 ? "1 cluster" : "\(map.clusters.count.grouped) clusters"
        lines.append("\(map.total.counted("photo")) in \(clusters) at zoom \(map.zoom).")
        if map.located + map.unlocated > 0 {
            lines.append("The library has \(map.located.counted("photo")) with a position and \(map.unlocated.grouped) without (not on the map).")
        }
        return lines.joined(separator: "\n")
    }
}
