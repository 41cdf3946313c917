/// Reads a WebP: the VP8, VP8L or VP8X size and the `EXIF` chunk.
///
/// Extended files are walked chunk by chunk to the `EXIF` chunk even when the VP8X flags do not
/// announce it, as some writers forget the flag.
enum WebPReader {
    static let maximumChunks = 64

    static func read(_ file: FileBytes, into facts: inout ImageFacts) throws(MetadataError) {
        let riffEnd = min(file.size, Int(try file.head.u32(4, .littleEndian)) + 8)
        var position = 12
        for index in 0..<maximumChunks {
            guard position + 8 <= riffEnd else { return }
            let header = try file.view(at: position, count: 8)
            let type = try header.fourCC(0)
            let length = Int(try header.u32(4, .littleEndian))
            let dataStart = position + 8
            guard length <= riffEnd - dataStart else { throw .truncated(dataStart, length) }
            switch type {
            case FourCC("VP8X"):
                let data = try file.view(at: dataStart, count: 10)
                facts.setSize(width: Int(try data.u24(4, .littleEndian)) + 1, height: Int(try data.u24(7, .littleEndian)) + 1)
            case FourCC("VP8 ") where facts.pixelSize == nil:
                let data = try file.view(at: dataStart, count: 10)
                guard data.matches([0x9D, 0x01, 0x2A], at: 3) else { throw .malformed("The VP8 frame has no start code.") }
                facts.setSize(width: Int(try data.u16(6, .littleEndian) & 0x3FFF), height: Int(try data.u16(8, .littleEndian) & 0x3FFF))
            case FourCC("VP8L") where facts.pixelSize == nil:
                let data = try file.view(at: dataStart, count: 5)
                guard try data.u8(0) == 0x2F else { throw .malformed("The VP8L stream has no signature.") }
                let bits = try data.u32(1, .littleEndian)
                facts.setSize(width: Int(bits & 0x3FFF) + 1, height: Int((bits >> 14) & 0x3FFF) + 1)
            case FourCC("EXIF"):
                let marked = try file.view(at: dataStart, upTo: 6).matches(ExifDecoder.exifMarker)
                facts.exif = try ExifBlock.values(inFile: file, at: dataStart, length: length, tiffStart: marked ? 6 : 0)
                return
            default:
                break
            }
            if index == 0, type != FourCC("VP8X") { return }  // simple formats carry no metadata chunks
            position = dataStart + length + (length & 1)
        }
    }
}
