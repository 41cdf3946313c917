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
