/// EXIF kept in a PNG text chunk the way ImageMagick and GIMP wrote it before `eXIf` existed:
/// the keyword `Raw profile type exif` (or `... APP1`) and the text
/// `"\nexif\n   <byte count>\n<hex digits, wrapped in lines>"`, in a `tEXt` chunk, a `zTXt`
/// one (always compressed) or an `iTXt` one (compressed or not).
enum PNGRawProfile {
    static let keywords: Set<String> = ["Raw profile type exif", "Raw profile type APP1"]
    /// Longest keyword PNG allows, plus its terminating NUL.
    static let maximumKeyword = 80
    /// Most bytes of profile text read or inflated (hex text is twice the EXIF's size).
    static let maximumText = 1 << 20

    /// The EXIF bytes (`Exif\0\0` or a TIFF header first) held by a text chunk, or `nil` when
    /// the chunk holds something else.
    static func exif(_ type: FourCC, in file: FileBytes, at dataStart: Int, length: Int) throws(MetadataError) -> ByteView? {
        let start = try file.view(at: dataStart, upTo: maximumKeyword)
        guard let nul = start.firstIndex(of: 0), keywords.contains(String(decoding: start.prefix(nul).array, as: UTF8.self)),
              length <= maximumText
        else { return nil }
        let data = try file.view(at: dataStart, count: length, readAhead: 0).suffix(from: nul + 1)
        switch type {
        case FourCC("tEXt"):
            return try decode(data)
        case FourCC("zTXt"):
            return try decode(ByteView(Inflate.zlib(data.suffix(from: 1), limit: maximumText)))
        case FourCC("iTXt"):
            // Compression flag and method, then a language tag and a translated keyword, each NUL-terminated.
            guard let language = data.firstIndex(of: 0, from: 2),
                  let translated = data.firstIndex(of: 0, from: language + 1)
            else { return nil }
            let text = data.suffix(from: translated + 1)
            return try decode(try data.u8(0) == 1 ? ByteView(Inflate.zlib(text, limit: maximumText)) : text)
        default:
            return nil
        }
    }

    /// The bytes of a raw profile text: a name line, a decimal byte count, then hex digits.
    static func decode(_ text: ByteView) throws(MetadataError) -> ByteView {
        var index = 0
        func skip(while condition: (UInt8) -> Bool) {
            while index < text.count, let byte = try? text.u8(index), condition(byte) { index += 1 }
        }
        let isSpace: (UInt8) -> Bool = { $0 == 0x0A || $0 == 0x0D || $0 == 0x20 || $0 == 0x09 }
        skip(while: isSpace)
        skip(while: { !isSpace($0) })  // the profile name
        skip(while: isSpace)
        var count = 0
        while index < text.count, let byte = try? text.u8(index), (0x30...0x39).contains(byte), count <= maximumText {
            count = count * 10 + Int(byte - 0x30)
            index += 1
        }
        guard count > 0, count <= maximumText / 2 else {
            throw MetadataError(.malformed, "A raw EXIF profile in a PNG text chunk has no valid byte count.")
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(count)
        var high: UInt8?
        while index < text.count, bytes.count < count {
            let byte = try text.u8(index)
            index += 1
            if isSpace(byte) { continue }
            guard let nibble = hexValue(byte) else {
                throw MetadataError(.malformed, "A raw EXIF profile in a PNG text chunk has a character that is not a hex digit.")
            }
            if let first = high {
                bytes.append(first << 4 | nibble)
                high = nil
            } else {
                high = nibble
            }
        }
        guard bytes.count == count else {
            throw MetadataError(.malformed, "A raw EXIF profile in a PNG text chunk is shorter than its byte count.")
        }
        return ByteView(bytes)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case 0x30...0x39: byte - 0x30
        case 0x41...0x46: byte - 0x41 + 10
        case 0x61...0x66: byte - 0x61 + 10
        default: nil
        }
    }
}
