// Two TIFF writers serve the fixtures: `TIFFBuilder` lays out EXIF (IFD0 with its Exif and GPS
// IFDs, either byte order, for metadata tests); `TIFFLayout` lays out images, little-endian
// directories that each own one strip, chained by SubIFD (raws, DNGs).

/// One little-endian TIFF directory entry for `TIFFLayout`.
enum TIFFEntry {
    case bytes(UInt16, [UInt8])
    case ascii(UInt16, String)
    case short(UInt16, [Int])
    case long(UInt16, [Int])
    case rationals(UInt16, [Int], denominator: Int)
    case signedRationals(UInt16, [Int], denominator: Int)
    /// The offset of the next directory `TIFFLayout` writes (a SubIFD).
    case subIFD(UInt16)

    var tag: UInt16 {
        switch self {
        case .bytes(let tag, _), .ascii(let tag, _), .short(let tag, _), .long(let tag, _),
             .rationals(let tag, _, _), .signedRationals(let tag, _, _), .subIFD(let tag): tag
        }
    }

    /// TIFF type number, value count and value bytes (`subIFD` as written by the layout).
    func encoded(subIFD: Int) -> (type: Int, count: Int, bytes: [UInt8]) {
        let le16 = PhotoFixtures.le16, le32 = PhotoFixtures.le32
        switch self {
        case .bytes(_, let values): return (1, values.count, values)
        case .ascii(_, let text): return (2, text.utf8.count + 1, Array(text.utf8) + [0])
        case .short(_, let values): return (3, values.count, values.flatMap(le16))
        case .long(_, let values): return (4, values.count, values.flatMap(le32))
        case .rationals(_, let values, let denominator): return (5, values.count, values.flatMap { le32($0) + le32(denominator) })
        case .signedRationals(_, let values, let denominator):
            return (10, values.count, values.flatMap { le32(Int(UInt32(bitPattern: Int32($0)))) + le32(denominator) })
        case .subIFD: return (4, 1, le32(subIFD))
        }
    }
}

/// Writes little-endian TIFF files of directories that each own one strip: each directory's
/// StripOffsets (0x0111) is set to where its strip lands, and a `subIFD` entry points at the
/// directory after it.
enum TIFFLayout {
    /// The file: header, then each directory followed by its out-of-line values and its strip.
    static func build(_ directories: [(entries: [TIFFEntry], strip: [UInt8])]) -> [UInt8] {
        var starts: [Int] = []
        var offset = 8
        for directory in directories {
            starts.append(offset)
            offset += size(of: directory.entries) + directory.strip.count + directory.strip.count % 2
        }
        var out: [UInt8] = [0x49, 0x49, 0x2A, 0x00] + PhotoFixtures.le32(8)
        for (index, directory) in directories.enumerated() {
            let next = index + 1 < starts.count ? starts[index + 1] : 0
            let stripAt = starts[index] + size(of: directory.entries)
            out += write(directory.entries, at: starts[index], stripAt: stripAt, subIFD: next)
            out += directory.strip + (directory.strip.count % 2 == 1 ? [0] : [])
        }
        return out
    }

    /// Bytes of a directory with its out-of-line values, each padded to an even length.
    private static func size(of entries: [TIFFEntry]) -> Int {
        2 + 12 * entries.count + 4 + entries.reduce(0) { total, entry in
            let count = entry.encoded(subIFD: 0).bytes.count
            return total + (count > 4 ? count + count % 2 : 0)
        }
    }

    private static func write(_ entries: [TIFFEntry], at start: Int, stripAt: Int, subIFD: Int) -> [UInt8] {
        let sorted = entries.sorted { $0.tag < $1.tag }
        var out = PhotoFixtures.le16(sorted.count)
        var data: [UInt8] = []
        let dataStart = start + 2 + 12 * sorted.count + 4
        for entry in sorted {
            var (type, count, bytes) = entry.encoded(subIFD: subIFD)
            if entry.tag == 0x0111 { bytes = PhotoFixtures.le32(stripAt) }
            out += PhotoFixtures.le16(Int(entry.tag)) + PhotoFixtures.le16(type) + PhotoFixtures.le32(count)
            if bytes.count <= 4 {
                out += bytes + [UInt8](repeating: 0, count: 4 - bytes.count)
            } else {
                out += PhotoFixtures.le32(dataStart + data.count)
                data += bytes + (bytes.count % 2 == 1 ? [0] : [])
            }
        }
        return out + PhotoFixtures.le32(0) + data
    }
}
