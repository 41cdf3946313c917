import ArgumentParser
import Foundation
import LibraryIndex
import PhotoMetadata

/// `shoebox photos`: one row per file in the index.
struct PhotosCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "photos",
        abstract: "List every indexed file with its capture date, date source and display size."
    )

    @Flag(help: "Print a JSON array (fields: path, captured, offset, dateSource, width, height, format, error, mediaType, duration).")
    var json = false

    @OptionGroup var library: LibraryOptions

    func run() async throws {
        let store = try LibraryStore(path: library.databasePath, mode: .readOnly)
        if json {
            var writer = JSONArrayWriter()
            try store.forEachPhoto { try writer.append(PhotoJSON($0)) }
            writer.finish()
        } else {
            print(PhotoTable(photos: try store.photos()).text)
        }
    }
}

/// The JSON shape of one photo; field names are a contract other tools rely on.
struct PhotoJSON: Encodable {
    var path: String
    var captured: String
    var offset: String?
    var dateSource: String
    var width: Int?
    var height: Int?
    var format: String?
    var error: String?
    var mediaType: String
    var duration: Double?

    init(_ photo: IndexedPhoto) {
        path = photo.path.string
        captured = photo.captureDate.local.iso8601
        offset = photo.captureDate.offset?.iso8601
        dateSource = photo.captureDate.source.rawValue
        width = photo.displaySize?.width
        height = photo.displaySize?.height
        format = photo.format?.rawValue
        error = photo.error
        mediaType = photo.mediaType.rawValue
        // Milliseconds are plenty, and keep the JSON free of binary-fraction noise.
        duration = photo.duration.map { ($0 * 1000).rounded() / 1000 }
    }

    /// Explicit nulls: a missing value is `null`, not an absent key.
    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(path, forKey: .path)
        try c.encode(captured, forKey: .captured)
        try c.encode(offset, forKey: .offset)
        try c.encode(dateSource, forKey: .dateSource)
        try c.encode(width, forKey: .width)
        try c.encode(height, forKey: .height)
        try c.encode(format, forKey: .format)
        try c.encode(error, forKey: .error)
        try c.encode(mediaType, forKey: .mediaType)
        try c.encode(duration, forKey: .duration)
    }

    enum CodingKeys: String, CodingKey {
        case path, captured, offset, dateSource, width, height, format, error, mediaType, duration
    }
}

/// Aligned columns for people: date, source, size, format, path (and the error, if any); with
/// videos in the index, a duration column after the size.
struct PhotoTable {
    var photos: [IndexedPhoto]

    var text: String {
        guard !photos.isEmpty else { return "The index is empty." }
        let hasVideos = photos.contains { $0.mediaType == .video }
        var rows = [["CAPTURED", "SOURCE", "SIZE"] + (hasVideos ? ["DURATION"] : []) + ["FORMAT", "PATH"]]
        for photo in photos {
            let date = photo.captureDate
            var captured = date.local.readable
            if let offset = date.offset { captured += " " + offset.iso8601 }
            let size = photo.displaySize.map { "\($0.width)×\($0.height)" } ?? "–"
            var path = photo.path.string
            if let error = photo.error { path += "  (error: \(error))" }
            let duration = photo.mediaType == .video ? (photo.duration.map(Self.duration) ?? "–") : ""
            rows.append([captured, date.source.rawValue, size] + (hasVideos ? [duration] : []) + [photo.format?.rawValue ?? "?", path])
        }
        let failed = photos.filter { $0.error != nil }.count
        let videos = photos.filter { $0.mediaType == .video }.count
        var footer = "\(photos.count.grouped) files"
        if videos > 0 { footer += " (\(videos.grouped) videos)" }
        if failed > 0 { footer += ", \(failed.grouped) with errors" }
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
    var data = try jsonEncoder.encode(value)
    data.append(0x0A)
    FileHandle.standardOutput.write(data)
}

/// Writes a JSON array element by element, so memory stays flat however long the list is.
func writeJSONArray<Element, Encoded: Encodable>(_ elements: [Element], _ transform: (Element) -> Encoded) throws {
    var writer = JSONArrayWriter()
    for element in elements { try writer.append(transform(element)) }
    writer.finish()
}

/// Streams a pretty-printed JSON array to standard output in chunks.
struct JSONArrayWriter {
    private var buffer = Data("[".utf8)
    private var isEmpty = true

    mutating func append(_ element: some Encodable) throws {
        buffer.append(contentsOf: Array((isEmpty ? "\n" : ",\n").utf8))
        buffer.append(try jsonEncoder.encode(element))
        isEmpty = false
        if buffer.count > 1 << 16 {
            FileHandle.standardOutput.write(buffer)
            buffer.removeAll(keepingCapacity: true)
        }
    }

    mutating func finish() {
        buffer.append(contentsOf: Array((isEmpty ? "]\n" : "\n]\n").utf8))
        FileHandle.standardOutput.write(buffer)
        buffer.removeAll()
    }
}

/// Keys sorted so the output is the same on every run and platform.
private let jsonEncoder: JSONEncoder = {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    return encoder
}()

extension LocalDateTime {
    /// "2025-03-08 14:02:11" — the ISO form with a space, for tables.
    var readable: String {
        String(iso8601.prefix(19)).replacingOccurrences(of: "T", with: " ")
    }
}
