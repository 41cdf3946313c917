/// Reads a PNG: the IHDR size and its `eXIf` chunk, before the image data or after it.
enum PNGReader {
    static let maximumChunks = 256
    /// How far from the end of the file an `eXIf` written after the image data is looked for.
    static let tailSize = 32 * 1024

    static func read(_ file: FileBytes, into facts: inout ImageFacts) throws(MetadataError) {
        var position = 8
        var sawExif = false
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
                try readExif(file, at: dataStart, length: length, into: &facts)
                sawExif = true
            case FourCC("IDAT"):
                // Best effort: the size is known by now, and damage after the image data must not lose it.
                if !sawExif, let trailing = (try? trailingExifChunk(file, after: position)) ?? nil {
                    try? readExif(file, at: trailing.dataStart, length: trailing.length, into: &facts)
                }
                return
            case FourCC("IEND"):
                return
            default:
                break
            }
            position = dataStart + length + 4
        }
    }

    private static func readExif(_ file: FileBytes, at dataStart: Int, length: Int, into facts: inout ImageFacts) throws(MetadataError) {
        let marked = try file.view(at: dataStart, upTo: 6).matches(ExifDecoder.exifMarker)
        facts.exif = try ExifBlock.values(inFile: file, at: dataStart, length: length, tiffStart: marked ? 6 : 0)
    }

    /// An `eXIf` chunk after the image data, as libpng may write it.
    ///
    /// Walking there chunk by chunk would cost a read per IDAT chunk (libpng writes 8 KiB
    /// ones), so the file's last `tailSize` bytes are searched instead, in one read. A match
    /// counts only when the chunks from it run exactly to an empty IEND that ends the file, so
    /// the letters `eXIf` inside compressed image data are not mistaken for a chunk.
    static func trailingExifChunk(_ file: FileBytes, after imageData: Int) throws(MetadataError) -> (dataStart: Int, length: Int)? {
        let start = max(imageData, file.size - tailSize)
        let tail = try file.view(at: start, count: file.size - start, readAhead: 0)
        let name = Array("eXIf".utf8)
        var index = 4
        while let found = tail.firstIndex(of: name[0], from: index) {
            index = found + 1
            guard found >= 4, tail.matches(name, at: found), chunksEndTheFile(tail, from: found - 4) else { continue }
            return (start + found + 4, Int(try tail.u32(found - 4)))
        }
        return nil
    }

    /// Whether the chunks starting at `offset` in `tail` run exactly to an empty IEND at its end.
    private static func chunksEndTheFile(_ tail: ByteView, from offset: Int) -> Bool {
        var position = offset
        for _ in 0..<maximumChunks {
            guard let length = try? Int(tail.u32(position)), let type = try? tail.fourCC(position + 4),
                  length <= tail.count - position - 12
            else { return false }
            position += 12 + length
            if type == FourCC("IEND") { return length == 0 && position == tail.count }
        }
        return false
    }
}
