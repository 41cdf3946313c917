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

    @Flag(help: "Print a JSON array (fields: path, captured, offset, dateSource, width, height, format, error, mediaType, duration, missing; pathBytes for a name that is not UTF-8).")
    var json = false

    @Flag(help: "List only the photos whose files a run did not find and kept (see `shoebox index --prune`).")
    var missing = false

    @OptionGroup var library: LibraryOptions

    func run() async throws {
        let store = try LibraryStore(path: library.databasePath, mode: .readOnly)
        if json {
            var writer = JSONArrayWriter()
            try store.forEachPhoto(onlyMissing: missing) { try writer.append(PhotoJSON($0)) }
            try writer.finish()
        } else {
            var photos: [IndexedPhoto] = []
            try store.forEachPhoto(onlyMissing: missing) { photos.append($0) }
            try Output.line(PhotoTable(photos: photos, onlyMissing: missing).text)
        }
    }
}

/// Aligned columns for people: date, source, size, format, path (and the error, if any); with
/// videos in the index, a duration column after the size.
struct PhotoTable {
    var photos: [IndexedPhoto]
    var onlyMissing = false

    var text: String {
        guard !photos.isEmpty else { return onlyMissing ? "No photo is marked missing." : "The index is empty." }
        let hasVideos = photos.contains { $0.mediaType == .video }
        var rows = [["CAPTURED", "SOURCE", "SIZE"] + (hasVideos ? ["DURATION"] : []) + ["FORMAT", "PATH"]]
        for photo in photos {
            let date = photo.captureDate
            var captured = date.local.readable
            if let offset = date.offset { captured += " " + offset.iso8601 }
            let size = photo.displaySize.map { "\($0.width)×\($0.height)" } ?? "–"
            var path = photo.path.string.terminalSafe
            if let error = photo.error { path += "  (error: \(error.terminalSafe))" }
            if let since = photo.missingSince { path += "  (missing since \(since.prefix(10)))" }
            let duration = photo.mediaType == .video ? (photo.duration.map(Self.duration) ?? "–") : ""
            rows.append([captured, date.source.rawValue, size] + (hasVideos ? [duration] : []) + [photo.format?.rawValue ?? "?", path])
        }
        let failed = photos.count { $0.error != nil }
        let missing = photos.count { $0.missingSince != nil }
        let videos = photos.count { $0.mediaType == .video }
        var footer = "\(photos.count.grouped) files"
        if videos > 0 { footer += " (\(videos.grouped) videos)" }
        if failed > 0 { footer += ", \(failed.grouped) with errors" }
        if missing > 0 && !onlyMissing { footer += ", \(missing.grouped) missing (shoebox photos --missing)" }
        return Columns.format(rows, rightAligned: hasVideos ? [2, 3] : [2]) + "\n" + footer
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
    private var buffer = Data("[".utf8)
    private var isEmpty = true

    mutating func append(_ element: some Encodable) throws {
        buffer.append(contentsOf: Array((isEmpty ? "\n" : ",\n").utf8))
        buffer.append(try ContractJSON.encode(element))
        isEmpty = false
        if buffer.count > 1 << 16 {
            try Output.write(buffer)
            buffer.removeAll(keepingCapacity: true)
        }
    }

    mutating func finish() throws {
        buffer.append(contentsOf: Array((isEmpty ? "]\n" : "\n]\n").utf8))
        try Output.write(buffer)
        buffer.removeAll()
    }
}

extension LocalDateTime {
    /// "2025-03-08 14:02:11" — the ISO form with a space, for tables.
    var readable: String {
        String(iso8601.prefix(19)).replacingOccurrences(of: "T", with: " ")
    }
}
