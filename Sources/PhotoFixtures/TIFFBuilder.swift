/// Lays out a TIFF structure: a header, IFD0 with an optional Exif IFD and GPS IFD, an optional
/// IFD1 with a JPEG thumbnail, and optional leading data.
struct TIFFBuilder {
    /// One directory entry's value.
    enum Value {
        case ascii(String)
        case short(Int)
        /// Several shorts (BitsPerSample of an RGB image).
        case shorts([Int])
        case long(Int)
        /// An offset filled in by the builder: the start of the leading data.
        case dataOffset
        /// An offset filled in by the builder: the Exif IFD.
        case exifPointer
        /// An offset filled in by the builder: the GPS IFD.
        case gpsPointer
        /// Unsigned rationals, as numerators over `denominator`.
        case rationals([Double], denominator: Int)
        /// Bytes of type UNDEFINED (a maker note).
        case undefined([UInt8])

        var type: UInt16 {
            switch self {
            case .ascii: 2
            case .short, .shorts: 3
            case .long, .dataOffset, .exifPointer, .gpsPointer: 4
            case .rationals: 5
            case .undefined: 7
            }
        }

        var count: Int {
            switch self {
            case .ascii(let text): text.utf8.count + 1
            case .rationals(let values, _): values.count
            case .shorts(let values): values.count
            case .undefined(let bytes): bytes.count
            default: 1
            }
        }
    }

    var bigEndian = false
    var ifd0: [(tag: UInt16, value: Value)] = []
    var exif: [(tag: UInt16, value: Value)] = []
    var gps: [(tag: UInt16, value: Value)] = []
    /// IFD1's JPEG thumbnail.
    var thumbnail: [UInt8]?
    /// The type `.exifPointer` and `.gpsPointer` are written with.
    var pointerType = ExifFields.PointerType.long

    /// The EXIF fields placed where the standard puts them.
    init(exif fields: ExifFields, bigEndian: Bool = false) {
        self.bigEndian = bigEndian
        pointerType = fields.pointerType
        if let v = fields.make { ifd0.append((0x010F, .ascii(v))) }
        if let v = fields.model { ifd0.append((0x0110, .ascii(v))) }
        if let v = fields.orientation { ifd0.append((0x0112, .short(v))) }
        if let v = fields.dateTime { ifd0.append((0x0132, .ascii(v))) }
        if let v = fields.dateTimeOriginal { exif.append((0x9003, .ascii(v))) }
        if let v = fields.dateTimeDigitized { exif.append((0x9004, .ascii(v))) }
        if let v = fields.offsetTime { exif.append((0x9010, .ascii(v))) }
        if let v = fields.offsetTimeOriginal { exif.append((0x9011, .ascii(v))) }
        if let v = fields.offsetTimeDigitized { exif.append((0x9012, .ascii(v))) }
        if let v = fields.subSecTime { exif.append((0x9290, .ascii(v))) }
        if let v = fields.subSecTimeOriginal { exif.append((0x9291, .ascii(v))) }
        if let v = fields.subSecTimeDigitized { exif.append((0x9292, .ascii(v))) }
        if let v = fields.makerNote { exif.append((0x927C, .undefined(v))) }
        if let v = fields.pixelWidth { exif.append((0xA002, .long(v))) }
        if let v = fields.pixelHeight { exif.append((0xA003, .long(v))) }
        thumbnail = fields.thumbnail
        let denominator = ExifFields.gpsDenominator
        if let v = fields.gpsLatitudeRef { gps.append((0x0001, .ascii(v))) }
        if let v = fields.gpsLatitude { gps.append((0x0002, .rationals(v, denominator: denominator))) }
        if let v = fields.gpsLongitudeRef { gps.append((0x0003, .ascii(v))) }
        if let v = fields.gpsLongitude { gps.append((0x0004, .rationals(v, denominator: denominator))) }
        if let v = fields.gpsTimeStamp { gps.append((0x0007, .rationals(v, denominator: denominator))) }
        if let v = fields.gpsDateStamp { gps.append((0x001D, .ascii(v))) }
    }

    var isEmpty: Bool { ifd0.isEmpty && exif.isEmpty && gps.isEmpty && thumbnail == nil }

    /// The TIFF bytes. `leadingData` sits right after the header, where `.dataOffset` points.
    func build(leadingData: [UInt8] = []) -> [UInt8] {
        var first = ifd0
        if !exif.isEmpty { first.append((0x8769, .exifPointer)) }
        if !gps.isEmpty { first.append((0x8825, .gpsPointer)) }
        first.sort { $0.tag < $1.tag }
        let second = exif.sorted { $0.tag < $1.tag }
        let third = gps.sorted { $0.tag < $1.tag }

        var out: [UInt8] = bigEndian ? [0x4D, 0x4D, 0x00, 0x2A] : [0x49, 0x49, 0x2A, 0x00]
        let ifd0Start = 8 + leadingData.count + leadingData.count % 2
        out += int(ifd0Start, 4)
        out += leadingData
        if leadingData.count % 2 == 1 { out.append(0) }

        let exifStart = ifd0Start + directorySize(first)
        let gpsStart = exifStart + (second.isEmpty ? 0 : directorySize(second))
        let ifd1Start = gpsStart + (third.isEmpty ? 0 : directorySize(third))
        write(first, at: ifd0Start, exifStart: exifStart, gpsStart: gpsStart, next: thumbnail == nil ? 0 : ifd1Start, into: &out)
        if !second.isEmpty { write(second, at: exifStart, exifStart: exifStart, gpsStart: gpsStart, into: &out) }
        if !third.isEmpty { write(third, at: gpsStart, exifStart: exifStart, gpsStart: gpsStart, into: &out) }
        if let thumbnail {
            // IFD1: JPEG compression, the thumbnail's offset and length, then the thumbnail.
            let thumbnailStart = ifd1Start + 2 + 3 * 12 + 4
            let ifd1: [(tag: UInt16, value: Value)] = [(0x0103, .short(6)), (0x0201, .long(thumbnailStart)), (0x0202, .long(thumbnail.count))]
            write(ifd1, at: ifd1Start, exifStart: exifStart, gpsStart: gpsStart, into: &out)
            out += thumbnail
        }
        return out
    }

    private func directorySize(_ entries: [(tag: UInt16, value: Value)]) -> Int {
        2 + 12 * entries.count + 4 + entries.reduce(0) { total, entry in
            let size = bytes(of: entry.value).count
            return total + (size > 4 ? size + size % 2 : 0)
        }
    }

    private func write(_ entries: [(tag: UInt16, value: Value)], at start: Int, exifStart: Int, gpsStart: Int, next: Int = 0, into out: inout [UInt8]) {
        out += int(entries.count, 2)
        var data: [UInt8] = []
        let dataStart = start + 2 + 12 * entries.count + 4
        for (tag, value) in entries {
            var payload = bytes(of: value)
            var type = value.type
            let target: Int? = switch value {
            case .exifPointer: exifStart
            case .gpsPointer: gpsStart
            default: nil
            }
            if let target {
                precondition(target <= pointerType.maximum, "An IFD at \(target) does not fit a pointer of type \(pointerType).")
                payload = int(target, pointerType.size)
                type = pointerType.rawValue
            }
            out += int(Int(tag), 2) + int(Int(type), 2) + int(value.count, 4)
            if payload.count <= 4 {
                out += payload + [UInt8](repeating: 0, count: 4 - payload.count)
            } else {
                out += int(dataStart + data.count, 4)
                data += payload
                if data.count % 2 == 1 { data.append(0) }
            }
        }
        out += int(next, 4)
        out += data
    }

    private func bytes(of value: Value) -> [UInt8] {
        switch value {
        case .ascii(let text): Array(text.utf8) + [0]
        case .short(let number): int(number, 2)
        case .shorts(let numbers): numbers.flatMap { int($0, 2) }
        case .long(let number): int(number, 4)
        case .dataOffset: int(8, 4)
        case .exifPointer, .gpsPointer: int(0, 4)
        case .rationals(let values, let denominator):
            values.flatMap { int(Int(($0 * Double(denominator)).rounded()), 4) + int(denominator, 4) }
        case .undefined(let bytes): bytes
        }
    }

    func int(_ value: Int, _ width: Int) -> [UInt8] {
        let little = (0..<width).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
        return bigEndian ? little.reversed() : little
    }
}
