import WallClock
import ArgumentParser
import Foundation
import LibraryIndex
import PhotoLibrary
import PhotoMetadata

/// `shoebox photos`: one row per file in the index.
struct PhotosCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "photos",
        abstract: "List every indexed file with its capture date, date source and display size."
    )

    @Flag(help: "Print a JSON array (fields: path, captured, offset, offsetSource, dateSource, width, height, format, error, mediaType, duration, missing, latitude, longitude; pathBytes for a name that is not UTF-8; stack, the id of its stack or null; duplicateOf, the kept file's path when it is a duplicate's extra, else null).")
    var json = false

    @Flag(help: "List only the photos whose files a run did not find and kept (see `shoebox index --prune`).")
    var missing = false

    @OptionGroup var library: LibraryOptions

    func run() async throws {
        let store = try LibraryStore(path: library.databasePath, mode: .readOnly)
        if json {
            var writer = JSONArrayWriter()
            let relations = try PhotoRelations(store)
            try store.forEachPhoto(onlyMissing: missing) { try writer.appendPhoto($0, relations: relations) }
            try writer.finish()
        } else {
            var table = PhotoTable(onlyMissing: missing, hasVideos: try store.containsVideos(onlyMissing: missing))
            try store.forEachPhoto(onlyMissing: missing) { try table.append($0) }
            try table.finish()
        }
    }
}

/// Aligned columns for people: date, source, size, format, path (and the error, if any); with
/// videos in the index, a duration column after the size.
///
/// Streams: the columns are as wide as the widest cell of the first `pageSize` rows (all of them in
/// a smaller library, so its table is laid out over every row); a longer cell further down pushes
/// its row's later columns right. Memory stays at one page however large the library.
struct PhotoTable {
    static let pageSize = 10_000

    var onlyMissing = false
    /// Whether any listed row is a video (the duration column).
    var hasVideos: Bool
    private var page: [IndexedPhoto] = []
    private var layout: Layout?
    private var buffer: [UInt8] = []
    private var counts = (files: 0, failed: 0, missing: 0, videos: 0)

    init(onlyMissing: Bool = false, hasVideos: Bool) {
        self.onlyMissing = onlyMissing
        self.hasVideos = hasVideos
    }

    /// The column widths and alignment, fixed once the first page is known.
    struct Layout {
        var hasVideos: Bool
        var widths: [Int]
        var rightAligned: Set<Int>
    }

    mutating func append(_ photo: IndexedPhoto) throws {
        counts.files += 1
        if photo.error != nil { counts.failed += 1 }
        if photo.missingSince != nil { counts.missing += 1 }
        if photo.mediaType == .video { counts.videos += 1 }
        if let layout {
            Self.appendRow(photo, layout: layout, to: &buffer)
            if buffer.count >= 1 << 16 { try flush() }
            return
        }
        page.append(photo)
        if page.count == Self.pageSize { try startStreaming() }
    }

    mutating func finish() throws {
        if layout == nil {
            guard !page.isEmpty else {
                return try Output.line(onlyMissing ? "No photo is marked missing." : "The index is empty.")
            }
            try startStreaming()
        }
        var footer = counts.files.counted("file")
        if counts.videos > 0 { footer += " (\(counts.videos.counted("video")))" }
        if counts.failed > 0 { footer += ", \(counts.failed.grouped) with errors" }
        if counts.missing > 0 && !onlyMissing { footer += ", \(counts.missing.grouped) missing (shoebox photos --missing)" }
        buffer.append(contentsOf: (footer + "\n").utf8)
        try flush()
    }

    /// Sizes the columns over the header and the page, then writes them.
    private mutating func startStreaming() throws {
        let header = ["CAPTURED", "SOURCE", "SIZE"] + (hasVideos ? ["DURATION"] : []) + ["FORMAT", "PATH"]
        let rows = [header] + page.map { Self.cells($0, hasVideos: hasVideos) }
        let widths = rows.reduce(into: [Int](repeating: 0, count: header.count)) { widths, row in
            for (i, cell) in row.enumerated() { widths[i] = max(widths[i], cell.count) }
        }
        let layout = Layout(hasVideos: hasVideos, widths: widths, rightAligned: hasVideos ? [2, 3] : [2])
        for row in rows { Self.appendLine(row, layout: layout, to: &buffer) }
        self.layout = layout
        page = []
        try flush()
    }

    private mutating func flush() throws {
        try Output.write(buffer)
        buffer.removeAll(keepingCapacity: true)
    }

    /// One row as `Columns.format` lays it out: cells padded to their column, two spaces apart, the
    /// last left-aligned cell unpadded, no trailing spaces.
    static func appendLine(_ row: [String], layout: Layout, to out: inout [UInt8]) {
        let lineStart = out.count
        for (i, cell) in row.enumerated() {
            if i > 0 { out.append(contentsOf: [0x20, 0x20]) }
            let pad = max(0, layout.widths[i] - cell.count)
            let right = layout.rightAligned.contains(i)
            if right { out.append(contentsOf: repeatElement(0x20, count: pad)) }
            out.append(contentsOf: cell.utf8)
            if !right && i < row.count - 1 { out.append(contentsOf: repeatElement(0x20, count: pad)) }
        }
        while out.count > lineStart, out[out.count - 1] == 0x20 { out.removeLast() }
        out.append(0x0A)
    }

    /// The cells of one row.
    static func cells(_ photo: IndexedPhoto, hasVideos: Bool) -> [String] {
        let date = photo.captureDate
        var captured = date.local.readable
        if let offset = date.offset { captured += " " + offset.iso8601 }
        let size = photo.displaySize.map { "\($0.width)×\($0.height)" } ?? "–"
        var path = photo.path.string.terminalSafe
        if let error = photo.error { path += "  (error: \(error.terminalSafe))" }
        if let since = photo.missingSince { path += "  (missing since \(since.prefix(10)))" }
        var row = [captured, date.source.rawValue, size]
        if hasVideos { row.append(photo.mediaType == .video ? (photo.duration.map(Self.duration) ?? "–") : "") }
        row += [photo.format?.rawValue ?? "?", path]
        return row
    }

    /// `appendLine(cells(photo, …), layout: layout, to: &out)`, byte for byte, without building the
    /// cells as strings: digits and names written straight into `out`.
    static func appendRow(_ photo: IndexedPhoto, layout: Layout, to out: inout [UInt8]) {
        let lineStart = out.count
        var column = 0
        /// Pads the cell written since `start` (of `characters` characters) to its column.
        func close(_ start: Int, characters: Int) {
            let pad = max(0, layout.widths[column] - characters)
            if layout.rightAligned.contains(column) {
                out.insert(contentsOf: repeatElement(0x20, count: pad), at: start)
            } else {
                out.append(contentsOf: repeatElement(0x20, count: pad))
            }
            out.append(contentsOf: [0x20, 0x20])
            column += 1
        }
        func ascii(_ text: String) {
            let start = out.count
            out.append(contentsOf: text.utf8)
            close(start, characters: out.count - start)
        }

        var start = out.count
        let date = photo.captureDate
        date.local.appendISO8601(to: &out, separator: 0x20, milliseconds: false)
        if let offset = date.offset { out.append(contentsOf: (" " + offset.iso8601).utf8) }
        close(start, characters: out.count - start)
        ascii(date.source.rawValue)

        start = out.count
        if let size = photo.displaySize {
            JSONText.appendDigits(size.width, width: 1, to: &out)
            out.append(contentsOf: "×".utf8)
            JSONText.appendDigits(size.height, width: 1, to: &out)
            close(start, characters: out.count - start - 1)
        } else {
            out.append(contentsOf: "–".utf8)
            close(start, characters: 1)
        }
        if layout.hasVideos {
            let duration = photo.mediaType == .video ? (photo.duration.map(Self.duration) ?? "–") : ""
            start = out.count
            out.append(contentsOf: duration.utf8)
            close(start, characters: duration.count)
        }
        ascii(photo.format?.rawValue ?? "?")

        let bytes = photo.path.bytes
        // Printable ASCII goes out as it is; anything else through `terminalSafe`.
        if bytes.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) {
            out.append(contentsOf: bytes)
        } else {
            out.append(contentsOf: photo.path.string.terminalSafe.utf8)
        }
        if let error = photo.error { out.append(contentsOf: "  (error: \(error.terminalSafe))".utf8) }
        if let since = photo.missingSince { out.append(contentsOf: "  (missing since \(since.prefix(10)))".utf8) }
        while out.count > lineStart, out[out.count - 1] == 0x20 { out.removeLast() }
        out.append(0x0A)
    }

    /// `2.4 s` under a minute, else `1:05` or `1:02:03`.
    static func duration(_ seconds: Double) -> String {
        if seconds < 59.95 { return String(format: "%.1f s", seconds) }
        let whole = Int(seconds.rounded())
        let (hours, minutes, rest) = (whole / 3600, whole / 60 % 60, whole % 60)
        return hours > 0 ? String(format: "%d:%02d:%02d", hours, minutes, rest) : String(format: "%d:%02d", minutes, rest)
    }
}

enum Columns {
    /// Pads every column to its widest cell.
    static func format(_ rows: [[String]], rightAligned: Set<Int> = []) -> String {
        let widths = rows.reduce(into: [Int]()) { widths, row in
            for (i, cell) in row.enumerated() {
                if i >= widths.count { widths.append(0) }
                widths[i] = max(widths[i], cell.count)
            }
        }
        return rows.map { row in
            row.enumerated().map { i, cell in
                if i == row.count - 1 && !rightAligned.contains(i) { return cell }
                let pad = String(repeating: " ", count: widths[i] - cell.count)
                return rightAligned.contains(i) ? pad + cell : cell + pad
            }.joined(separator: "  ").trimmingTrailingSpaces
        }.joined(separator: "\n")
    }
}

extension String {
    var trimmingTrailingSpaces: String {
        var s = self
        while s.last == " " { s.removeLast() }
        return s
    }
}

/// Writes `value` as pretty JSON followed by a newline.
func writeJSON(_ value: some Encodable) throws {
    var data = try ContractJSON.encode(value)
    data.append(0x0A)
    try Output.write(data)
}

/// Writes a JSON array element by element, so memory stays flat however long the list is.
func writeJSONArray<Element, Encoded: Encodable>(_ elements: [Element], _ transform: (Element) -> Encoded) throws {
    var writer = JSONArrayWriter()
    for element in elements { try writer.append(transform(element)) }
    try writer.finish()
}

/// Streams a pretty-printed JSON array to standard output in chunks.
struct JSONArrayWriter {
    private var buffer: [UInt8] = Array("[".utf8)
    private var isEmpty = true

    mutating func append(_ element: some Encodable) throws {
        buffer.append(contentsOf: (isEmpty ? "\n" : ",\n").utf8)
        buffer.append(contentsOf: try ContractJSON.encode(element))
        try elementAppended()
    }

    /// Appends a photo as `append(_:)` would, written by hand (see `PhotoJSON.appendPrettyJSON`).
    /// Appends `photo` with its stack and the photo it duplicates, as `photos --json` prints it.
    mutating func appendPhoto(_ photo: IndexedPhoto, relations: PhotoRelations) throws {
        try appendPhoto(
            photo, stack: photo.id.flatMap { relations.stacks[$0] }, duplicateOf: photo.id.flatMap { relations.duplicateOf[$0]?.string })
    }

    mutating func appendPhoto(_ photo: IndexedPhoto, stack: Int64? = nil, duplicateOf: String? = nil) throws {
        buffer.append(contentsOf: (isEmpty ? "\n" : ",\n").utf8)
        try PhotoJSON.appendPrettyJSON(of: photo, stack: stack, duplicateOf: duplicateOf, to: &buffer)
        try elementAppended()
    }

    private mutating func elementAppended() throws {
        isEmpty = false
        if buffer.count > 1 << 16 {
            try Output.write(buffer)
            buffer.removeAll(keepingCapacity: true)
        }
    }

    mutating func finish() throws {
        buffer.append(contentsOf: (isEmpty ? "]\n" : "\n]\n").utf8)
        try Output.write(buffer)
        buffer.removeAll()
    }
}

extension LocalDateTime {
    /// "2025-03-08 14:02:11" — the ISO form with a space, for tables.
    var readable: String {
        var bytes: [UInt8] = []
        appendISO8601(to: &bytes, separator: 0x20, milliseconds: false)
        return String(decoding: bytes, as: UTF8.self)
    }
}

/// What `photos --json` says of a row besides its columns: the stack it is in and the photo it
/// duplicates. Stacks and duplicate groups are few rows: loaded whole, looked up per photo.
struct PhotoRelations {
    let stacks: [Int64: Int64]
    let duplicateOf: [Int64: RelativePath]

    init(_ store: LibraryStore) throws(IndexError) {
        stacks = try store.stacks()
        duplicateOf = try store.duplicateOf()
    }
}
