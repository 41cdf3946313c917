/// Reads a PNG: the IHDR size and its EXIF, from an `eXIf` chunk before or after the image
/// data, else from a "Raw profile type exif" text chunk (GIMP, older ImageMagick).
enum PNGReader {
    static let maximumChunks = 256
    /// How far from the end of the file chunks written after the image data are looked for.
    static let tailSize = 32 * 1024
    /// Types of the chunks that may hold EXIF.
    static let exifChunkTypes: Set<FourCC> = [FourCC("eXIf"), FourCC("exIf"), FourCC("tEXt"), FourCC("zTXt"), FourCC("iTXt")]

    static func read(_ file: FileBytes, into facts: inout ImageFacts) throws(MetadataError) {
        var search = ExifSearch()
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
            case FourCC("IDAT"):
                // Best effort: the size is known by now, and damage after the image data must not lose it.
                if !search.foundExifChunk, let trailing = try? trailingChunks(file, after: position) {
                    for chunk in trailing {
                        try? search.consider(chunk.type, in: file, at: chunk.dataStart, length: chunk.length, into: &facts)
                    }
                }
                return
            case FourCC("IEND"):
                return
            default:
                try search.consider(type, in: file, at: dataStart, length: length, into: &facts)
            }
            position = dataStart + length + 4
        }
    }

    /// Which EXIF source has been found so far: an `eXIf` chunk wins over a raw text profile.
    struct ExifSearch {
        private(set) var foundExifChunk = false
        private var foundProfile = false

        mutating func consider(_ type: FourCC, in file: FileBytes, at dataStart: Int, length: Int, into facts: inout ImageFacts) throws(MetadataError) {
            switch type {
            case FourCC("eXIf"), FourCC("exIf"):
                guard !foundExifChunk else { return }
                let marked = try file.view(at: dataStart, upTo: 6).matches(ExifDecoder.exifMarker)
                facts.exif = try ExifBlock.values(inFile: file, at: dataStart, length: length, tiffStart: marked ? 6 : 0)
                foundExifChunk = true
            case FourCC("tEXt"), FourCC("zTXt"), FourCC("iTXt"):
                guard !foundExifChunk, !foundProfile,
                      let exif = try PNGRawProfile.exif(type, in: file, at: dataStart, length: length)
                else { return }
                let marked = exif.matches(ExifDecoder.exifMarker)
                facts.exif = ExifBlock.values(in: exif, tiffStart: marked ? 6 : 0)
                foundProfile = true
            default:
                break
            }
        }
    }

    /// The EXIF-holding chunks written after the image data, as libpng and GIMP may write them.
    ///
    /// Walking there chunk by chunk would cost a read per IDAT chunk (libpng writes 8 KiB
    /// ones), so the file's last `tailSize` bytes are searched instead, in one read. A chunk
    /// found there counts only when the chunks from it run exactly to an empty IEND that ends
    /// the file, so the same letters inside compressed image data are not taken for a chunk.
    static func trailingChunks(_ file: FileBytes, after imageData: Int) throws(MetadataError) -> [(type: FourCC, dataStart: Int, length: Int)] {
        let start = max(imageData, file.size - tailSize)
        let tail = try file.view(at: start, count: file.size - start, readAhead: 0)
        var offset = 0
        while offset + 12 <= tail.count {
            // Cheap first test: the type's first letter (e, t, z or i) before the whole name.
            if let letter = try? tail.u8(offset + 4), [0x65, 0x74, 0x7A, 0x69].contains(letter),
               let type = try? tail.fourCC(offset + 4), exifChunkTypes.contains(type),
               let chain = chunks(in: tail, from: offset) {
                return chain.filter { exifChunkTypes.contains($0.type) }
                    .map { (type: $0.type, dataStart: start + $0.dataStart, length: $0.length) }
            }
            offset += 1
        }
        return []
    }

    /// The chunks from `offset` in `tail`, when they run exactly to an empty IEND at its end.
    private static func chunks(in tail: ByteView, from offset: Int) -> [(type: FourCC, dataStart: Int, length: Int)]? {
        var result: [(type: FourCC, dataStart: Int, length: Int)] = []
        var position = offset
        for _ in 0..<maximumChunks {
            guard let length = try? Int(tail.u32(position)), let type = try? tail.fourCC(position + 4),
                  length <= tail.count - position - 12
            else { return nil }
            if type == FourCC("IEND") { return length == 0 && position + 12 == tail.count ? result : nil }
            result.append((type, position + 8, length))
            position += 12 + length
        }
        return nil
    }
}
