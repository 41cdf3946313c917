import WallClock
/// Reads AVI (RIFF `AVI `): the `hdrl` list's `avih`, the first video stream's `strh` and `strf`,
/// and the `IDIT` date. The header list comes first in the file; the `movi` data is never read.
enum AVIReader {
    /// Largest `hdrl` list read (real ones take a few KiB).
    static let maximumHeaderList = 1 << 20
    /// Most chunks looked at, at each level.
    static let maximumChunks = 256

    /// One RIFF chunk: four-character id, and for `LIST` chunks the list type.
    struct Chunk {
        var id: FourCC
        var start: Int
        var size: Int
        var dataStart: Int { start + 8 }
        /// The next chunk: data padded to an even length.
        var end: Int { dataStart + size + (size & 1) }
    }

    static func read(_ file: FileBytes, into facts: inout ImageFacts) throws(MetadataError) {
        let riffEnd = min(file.size, 8 + Int(try file.head.u32(4, .littleEndian)))
        var offset = 12
        var walked = 0
        var header = StreamHeaders()
        while offset + 12 <= riffEnd, walked < maximumChunks {
            let view = try file.view(at: offset, count: 12)
            let chunk = Chunk(id: try view.fourCC(0), start: offset, size: Int(try view.u32(4, .littleEndian)))
            if chunk.id == FourCC("LIST") {
                let type = try view.fourCC(8)
                if type == FourCC("movi") { break }
                if type == FourCC("hdrl") {
                    let length = min(chunk.size, riffEnd - chunk.dataStart)
                    guard length <= maximumHeaderList else {
                        throw MetadataError(.budgetExceeded, "The AVI header list is larger than \(maximumHeaderList) bytes.")
                    }
                    try readList(file.view(at: chunk.dataStart, count: length).suffix(from: 4), into: &header)
                }
            } else if chunk.id == FourCC("IDIT"), chunk.size <= 256 {
                let text = try file.view(at: chunk.dataStart, upTo: chunk.size)
                header.date = header.date ?? AVIDate.parse(text)
            }
            offset = chunk.end
            walked += 1
        }
        header.apply(to: &facts)
    }

    /// What the header list holds, gathered before the policy picks from it.
    struct StreamHeaders {
        var mainSize: PixelSize?
        var mainDuration: Double?
        var streamSize: PixelSize?
        var streamDuration: Double?
        var date: LocalDateTime?
        var sawVideoStream = false

        func apply(to facts: inout ImageFacts) {
            if let size = mainSize ?? streamSize { facts.setSize(width: size.width, height: size.height) }
            if let seconds = streamDuration ?? mainDuration { facts.setDuration(seconds) }
            facts.videoDates.containerLocal = date
        }
    }

    /// The chunks of a `LIST` (its content after the list type), recursing into `strl`.
    static func readList(_ list: ByteView, into header: inout StreamHeaders, depth: Int = 0) throws(MetadataError) {
        var offset = 0
        var walked = 0
        while offset + 8 <= list.count, walked < maximumChunks {
            let chunk = Chunk(id: try list.fourCC(offset), start: offset, size: Int(try list.u32(offset + 4, .littleEndian)))
            let data = list.suffix(from: chunk.dataStart).prefix(chunk.size)
            switch chunk.id {
            case FourCC("avih") where data.count >= 40:
                let microseconds = try data.u32(0, .littleEndian), frames = try data.u32(16, .littleEndian)
                header.mainSize = PixelSize(width: Int(try data.u32(32, .littleEndian)), height: Int(try data.u32(36, .littleEndian)))
                if microseconds > 0 { header.mainDuration = Double(frames) * Double(microseconds) / 1_000_000 }
            case FourCC("LIST") where depth < 2 && data.count >= 4:
                if try data.fourCC(0) == FourCC("strl") {
                    try readList(data.suffix(from: 4), into: &header, depth: depth + 1)
                }
            case FourCC("strh") where data.count >= 36 && !header.sawVideoStream:
                guard try data.fourCC(0) == FourCC("vids") else { break }
                header.sawVideoStream = true
                let scale = try data.u32(20, .littleEndian), rate = try data.u32(24, .littleEndian), length = try data.u32(32, .littleEndian)
                if scale > 0, rate > 0 { header.streamDuration = Double(length) * Double(scale) / Double(rate) }
                // The `strf` that follows this `strh` is the video format.
                let next = chunk.end
                if list.matches(Array("strf".utf8), at: next), let format = try? list.view(next + 8, 12) {
                    let width = Int32(bitPattern: try format.u32(4, .littleEndian))
                    let height = Int32(bitPattern: try format.u32(8, .littleEndian))
                    header.streamSize = PixelSize(width: Int(width.magnitude), height: Int(height.magnitude))
                }
            case FourCC("IDIT"):
                header.date = header.date ?? AVIDate.parse(data.prefix(256))
            default:
                break
            }
            offset = chunk.end
            walked += 1
        }
    }
}

/// The `IDIT` text of AVI files: `ctime` style (`MON MAR 10 15:04:43 2003`) or EXIF style.
enum AVIDate {
    static let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]

    static func parse(_ data: ByteView) -> LocalDateTime? {
        let text = ExifDateParser.trimmed(String(decoding: data.array, as: UTF8.self))
        if let parsed = ExifDateParser.dateTime(text) { return parsed.local }
        // Weekday, month name, day, time, year.
        let words = text.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" })
        guard words.count >= 5, let month = months.firstIndex(of: words[1].lowercased().prefix(3).description),
              let day = Int(words[2]), let year = Int(words[4].prefix(4)), ExifDateParser.years.contains(year)
        else { return nil }
        let time = words[3].split(separator: ":").compactMap { Int($0) }
        guard time.count == 3 else { return nil }
        let date = LocalDateTime(year: year, month: month + 1, day: day, hour: time[0], minute: time[1], second: time[2])
        return date.isValid ? date : nil
    }
}
