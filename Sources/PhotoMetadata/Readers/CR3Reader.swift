/// Canon CR3: an ISO BMFF file whose `moov/uuid` box holds IFD0 (`CMT1`), the Exif IFD (`CMT2`)
/// and the GPS IFD (`CMT4`) as separate TIFF structures, each directory as its structure's IFD0.
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
                let isGPS = block.type == FourCC("CMT4")
                guard block.type == FourCC("CMT1") || block.type == FourCC("CMT2") || isGPS, block.contentSize <= maximumBlock else { continue }
                let tiff = try file.view(at: block.contentStart, count: block.contentSize)
                let values = isGPS ? ExifBlock.gpsValues(in: tiff) : ExifBlock.values(in: tiff, tiffStart: 0)
                facts.exif = facts.exif.filling(from: values)
            }
            return
        }
    }
}
