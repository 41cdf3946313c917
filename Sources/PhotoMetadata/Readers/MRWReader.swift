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
