/// Canon CR3: an ISO BMFF file whose `moov/uuid` box holds IFD0 (`CMT1`) and the Exif IFD (`CMT2`)
/// as separate TIFF structures.
enum CR3Reader {
    static let canonUUID: [UInt8] = [0x85, 0xC0, 0xB6, 0x87, 0x82, 0x0F, 0x11, 0xE0, 0x81, 0x11, 0xF4, 0xCE, 0x46, 0x2B, 0x6A, 0x48]
    static let maximumBlock = 1024 * 1024

    static func read(_ file: FileBytes, into facts: inout ImageFacts) throws(MetadataError) {
        let top = ISOBox.children(of: file, from: 0, to: file.size, limit: 64)
        guard let movie = top.first(where: { $0.type == FourCC("moov") }) else {
            throw .malformed("The CR3 file has no 'moov' box.")
        }
        for box in ISOBox.children(of: file, from: movie.contentStart, to: movie.end) where box.type == FourCC("uuid") {
            let identifier = try file.view(at: box.start + box.headerSize - 16, count: 16)
            guard identifier.matches(canonUUID) else { continue }
            for block in ISOBox.children(of: file, from: box.contentStart, to: box.end) {
                guard block.type == FourCC("CMT1") || block.type == FourCC("CMT2"), block.contentSize <= maximumBlock else { continue }
                let tiff = try file.view(at: block.contentStart, count: block.contentSize)
                facts.exif = facts.exif.filling(from: ExifBlock.values(in: tiff, tiffStart: 0))
            }
            return
        }
    }
}

/// Fujifilm RAF: a header pointing at an embedded JPEG that carries the EXIF.
enum RAFReader {
    static func read(_ file: FileBytes, into facts: inout ImageFacts) throws(MetadataError) {
        let header = try file.view(at: 84, count: 8)
        let offset = Int(try header.u32(0)), length = Int(try header.u32(4))
        guard length > 0, offset < file.size else { throw .malformed("The RAF header points outside the file.") }
        var embedded = ImageFacts(format: .jpeg)
        try JPEGReader.read(file, at: offset, into: &embedded)
        facts.exif = embedded.exif
    }
}

/// Minolta MRW: blocks after the `\0MRM` header; `PRD` gives the image size, `TTW` is a TIFF structure.
enum MRWReader {
    static func read(_ file: FileBytes, into facts: inout ImageFacts) throws(MetadataError) {
        let end = min(file.size, Int(try file.head.u32(4)) + 8)
        var position = 8
        for _ in 0..<32 {
            guard position + 8 <= end else { return }
            let header = try file.view(at: position, count: 8)
            let type = try header.fourCC(0)
            let length = Int(try header.u32(4))
            let dataStart = position + 8
            guard length <= end - dataStart else { throw .truncated(dataStart, length) }
            if type == FourCC("\0PRD") {
                let data = try file.view(at: dataStart, count: 16)
                facts.setSize(width: Int(try data.u16(14)), height: Int(try data.u16(12)))
            } else if type == FourCC("\0TTW") {
                facts.exif = ExifBlock.values(of: .file(file, base: dataStart))
            }
            position = dataStart + length
        }
    }
}

/// Sigma X3F: a header with the image size, and a section directory at the end of the file
/// whose JPEG preview sections (`IMA2`, format 18) carry the EXIF in newer files.
enum X3FReader {
    static func read(_ file: FileBytes, into facts: inout ImageFacts) throws(MetadataError) {
        let header = try file.head.view(0, 40)
        facts.setSize(width: Int(try header.u32(28, .littleEndian)), height: Int(try header.u32(32, .littleEndian)))

        let directoryOffset = Int(try file.view(at: file.size - 4, count: 4).u32(0, .littleEndian))
        let directory = try file.view(at: directoryOffset, count: 12)
        guard directory.matches(Array("SECd".utf8)) else { throw .malformed("The X3F section directory is missing.") }
        let count = min(Int(try directory.u32(8, .littleEndian)), 64)
        let entries = try file.view(at: directoryOffset + 12, count: count * 12)
        for index in 0..<count {
            let offset = Int(try entries.u32(index * 12, .littleEndian))
            let type = try entries.fourCC(index * 12 + 8)
            guard type == FourCC("IMA2") || type == FourCC("IMAG") else { continue }
            let section = try file.view(at: offset, count: 28)
            guard section.matches(Array("SECi".utf8)), try section.u32(12, .littleEndian) == 18 else { continue }
            var embedded = ImageFacts(format: .jpeg)
            try? JPEGReader.read(file, at: offset + 28, into: &embedded)
            if !embedded.exif.isEmpty {
                facts.exif = embedded.exif
                return
            }
        }
    }
}
