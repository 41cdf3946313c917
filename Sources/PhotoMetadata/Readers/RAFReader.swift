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
