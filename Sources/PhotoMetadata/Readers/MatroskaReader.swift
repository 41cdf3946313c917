/// Reads Matroska and WebM: `Info` (`TimecodeScale`, `Duration`, `DateUTC`) and the first enabled
/// video track's `PixelWidth` and `PixelHeight`.
///
/// The Segment's children are walked by their headers; clusters are skipped by their size, or,
/// when a cluster's size is unknown, `Info` and `Tracks` are found through the `SeekHead`.
enum MatroskaReader {
    enum ID {
        static let header: UInt32 = 0x1A45_DFA3
        static let docType: UInt32 = 0x4282
        static let segment: UInt32 = 0x1853_8067
        static let seekHead: UInt32 = 0x114D_9B74
        static let seek: UInt32 = 0x4DBB
        static let seekID: UInt32 = 0x53AB
        static let seekPosition: UInt32 = 0x53AC
        static let info: UInt32 = 0x1549_A966
        static let timecodeScale: UInt32 = 0x2AD7B1
        static let duration: UInt32 = 0x4489
        static let dateUTC: UInt32 = 0x4461
        static let tracks: UInt32 = 0x1654_AE6B
        static let trackEntry: UInt32 = 0xAE
        static let trackType: UInt32 = 0x83
        static let flagEnabled: UInt32 = 0xB9
        static let video: UInt32 = 0xE0
        static let pixelWidth: UInt32 = 0xB0
        static let pixelHeight: UInt32 = 0xBA
        static let cluster: UInt32 = 0x1F43_B675
    }

    /// Largest `Info`, `Tracks` or `SeekHead` element read.
    static let maximumElement = 1 << 20
    static let maximumElements = 1024
    static let headerReadAhead = 64 * 1024
    /// Milliseconds from 1970-01-01 to 2001-01-01, the Matroska epoch.
    static let epochShiftMilliseconds: Int64 = 978_307_200_000

    /// The `DocType` of the EBML header at the start of `head` (`matroska`, `webm`), or `nil`.
    static func docType(_ head: ByteView) -> String? {
        guard let header = try? EBMLElement.parse(head, at: 0), header.id == ID.header else { return nil }
        for child in EBMLElement.children(of: head, from: header.dataStart, to: header.end, limit: 32) where child.id == ID.docType {
            return String(decoding: head.suffix(from: child.dataStart).prefix(min(child.size ?? 0, 16)).array, as: UTF8.self)
        }
        return nil
    }

    static func read(_ file: FileBytes, into facts: inout ImageFacts) throws(MetadataError) {
        let header = try EBMLElement.parse(file.head, at: 0)
        guard let headerEnd = header.end else { throw .malformed("The EBML header has no size.") }
        let segment = try element(file, at: headerEnd)
        guard segment.id == ID.segment else { throw .malformed("The Matroska file has no Segment after its header.") }
        let segmentEnd = min(segment.end ?? file.size, file.size)

        var found = Found()
        var seekPositions: [UInt32: Int] = [:]
        var offset = segment.dataStart
        var walked = 0
        while offset < segmentEnd, walked < maximumElements, !(found.info && found.tracks) {
            try file.checkDeadline()
            // What follows a damaged element is lost; what came before is kept.
            guard let child = try? element(file, at: offset) else { break }
            switch child.id {
            case ID.info, ID.tracks, ID.seekHead:
                let data = try contents(child, file, limit: segmentEnd)
                if child.id == ID.seekHead {
                    seekPositions.merge(Self.seekPositions(data), uniquingKeysWith: { first, _ in first })
                } else {
                    try readTopLevel(child.id, data, into: &facts, found: &found)
                }
            default:
                break
            }
            guard let end = child.end else {
                // A cluster of unknown size: its end is only found by reading it. Jump instead.
                for id in [ID.info, ID.tracks] where !(id == ID.info ? found.info : found.tracks) {
                    guard let position = seekPositions[id], segment.dataStart + position > offset else { continue }
                    let target = try element(file, at: segment.dataStart + position)
                    guard target.id == id else { continue }
                    try readTopLevel(id, try contents(target, file, limit: segmentEnd), into: &facts, found: &found)
                }
                break
            }
            offset = end
            walked += 1
        }
        facts.videoDates.containerUTCMilliseconds = found.dateUTCMilliseconds
        if let duration = found.duration { facts.setDuration(duration * found.timecodeScale / 1_000_000_000) }
    }

    struct Found {
        var info = false
        var tracks = false
        var timecodeScale = 1_000_000.0
        var duration: Double?
        var dateUTCMilliseconds: Int64?
    }

    /// The header of the element at `offset` of the file.
    private static func element(_ file: FileBytes, at offset: Int) throws(MetadataError) -> EBMLElement {
        let view = try file.view(at: offset, upTo: 12, readAhead: headerReadAhead)
        var element = try EBMLElement.parse(view, at: 0)
        element.start += offset
        element.dataStart += offset
        return element
    }

    /// The data of a top-level element, as a view whose offsets start at the data.
    private static func contents(_ element: EBMLElement, _ file: FileBytes, limit: Int) throws(MetadataError) -> ByteView {
        let size = min(element.size ?? limit - element.dataStart, limit - element.dataStart)
        guard size <= maximumElement else {
            throw MetadataError(.budgetExceeded, "A Matroska header element is larger than \(maximumElement) bytes.")
        }
        return try file.view(at: element.dataStart, count: max(size, 0))
    }

    private static func readTopLevel(_ id: UInt32, _ data: ByteView, into facts: inout ImageFacts, found: inout Found) throws(MetadataError) {
        if id == ID.info {
            found.info = true
            for child in EBMLElement.children(of: data) {
                switch child.id {
                case ID.timecodeScale:
                    let scale = try data.ebmlUnsigned(child)
                    if scale > 0 { found.timecodeScale = Double(scale) }
                case ID.duration:
                    found.duration = try data.ebmlFloat(child)
                case ID.dateUTC where child.size == 8:
                    let nanoseconds = Int64(bitPattern: try data.ebmlUnsigned(child))
                    found.dateUTCMilliseconds = epochShiftMilliseconds + nanoseconds / 1_000_000
                default:
                    break
                }
            }
        } else if id == ID.tracks {
            found.tracks = true
            var fallback: PixelSize?
            for entry in EBMLElement.children(of: data) where entry.id == ID.trackEntry {
                var type: UInt64 = 0, enabled = true, size: PixelSize?
                for field in EBMLElement.children(of: data, from: entry.dataStart, to: entry.end, limit: 256) {
                    switch field.id {
                    case ID.trackType: type = try data.ebmlUnsigned(field)
                    case ID.flagEnabled: enabled = try data.ebmlUnsigned(field) != 0
                    case ID.video:
                        var width = 0, height = 0
                        for value in EBMLElement.children(of: data, from: field.dataStart, to: field.end, limit: 64) {
                            if value.id == ID.pixelWidth { width = Int(clamping: try data.ebmlUnsigned(value)) }
                            if value.id == ID.pixelHeight { height = Int(clamping: try data.ebmlUnsigned(value)) }
                        }
                        size = PixelSize(width: width, height: height)
                    default: break
                    }
                }
                guard type == 1, let size else { continue }
                if enabled {
                    facts.setSize(width: size.width, height: size.height)
                    return
                }
                fallback = fallback ?? size
            }
            if let fallback { facts.setSize(width: fallback.width, height: fallback.height) }
        }
    }

    /// The `SeekHead` entries: element id → position relative to the Segment's data.
    static func seekPositions(_ data: ByteView) -> [UInt32: Int] {
        var positions: [UInt32: Int] = [:]
        for seek in EBMLElement.children(of: data) where seek.id == ID.seek {
            var id: UInt32?, position: Int?
            for field in EBMLElement.children(of: data, from: seek.dataStart, to: seek.end, limit: 8) {
                if field.id == ID.seekID, let value = try? data.ebmlUnsigned(field) { id = UInt32(truncatingIfNeeded: value) }
                if field.id == ID.seekPosition, let value = try? data.ebmlUnsigned(field) { position = Int(clamping: value) }
            }
            if let id, let position, position <= Int.max / 4 { positions[id] = positions[id] ?? position }
        }
        return positions
    }
}
