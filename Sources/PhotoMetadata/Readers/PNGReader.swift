/// Reads a PNG: the IHDR size and an `eXIf` chunk met before the image data.
enum PNGReader {
    static let maximumChunks = 256

    static func read(_ file: FileBytes, into facts: inout ImageFacts) throws(MetadataError) {
        var position = 8
        for _ in 0..<maximumChunks {
            let header = try file.view(at: position, count: 8)
            let length = Int(try header.u32(0))
            let type = try header.fourCC(4)
            let dataStart = position + 8
            guard length <= Int(Int32.max), dataStart + length <= file.size else {
                throw .truncated(dataStart, length)
            }
            switch type {
            case FourCC("IHDR"):
                let data = try file.view(at: dataStart, count: 8)
                facts.setSize(width: Int(try data.u32(0)), height: Int(try data.u32(4)))
            case FourCC("eXIf"), FourCC("exIf"):
                let marked = try file.view(at: dataStart, upTo: 6).matches(ExifDecoder.exifMarker)
                facts.exif = try ExifBlock.values(inFile: file, at: dataStart, length: length, tiffStart: marked ? 6 : 0)
            case FourCC("IDAT"), FourCC("IEND"):
                return
            default:
                break
            }
            position = dataStart + length + 4
        }
    }
}
