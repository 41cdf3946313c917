/// Reads HEIF, HEIC and AVIF: the primary item's `ispe` and `irot`, and the Exif item.
enum HEIFReader {
    /// Largest `meta` box read (real ones take a few KiB, up to some hundreds with many tiles).
    static let maximumMetaSize = 4 * 1024 * 1024

    /// The file's top-level `meta` box, parsed.
    static func meta(of file: FileBytes) throws(MetadataError) -> HEIFMeta {
        let top = ISOBox.children(of: file, from: 0, to: file.size, limit: 64)
        guard let metaBox = top.first(where: { $0.type == FourCC("meta") }) else {
            throw .malformed("The HEIF file has no 'meta' box.")
        }
        guard metaBox.contentSize <= maximumMetaSize else {
            throw MetadataError(.budgetExceeded, "The HEIF 'meta' box is larger than \(maximumMetaSize) bytes.")
        }
        return HEIFMeta(try file.view(at: metaBox.contentStart, count: metaBox.contentSize))
    }

    static func read(_ file: FileBytes, into facts: inout ImageFacts) throws(MetadataError) {
        let meta = try meta(of: file)
        // Without associations (a damaged or missing `ipma`), fall back to the last `ispe`,
        // as ExifTool does.
        let properties = meta.associations.isEmpty ? meta.propertyBoxes.reversed() : meta.primaryItem.map(meta.properties(of:))
        if let properties {
            if let spatial = properties.first(where: { $0.type == FourCC("ispe") }) {
                facts.setSize(width: Int(try spatial.content.u32(4)), height: Int(try spatial.content.u32(8)))
            }
            if let rotation = properties.first(where: { $0.type == FourCC("irot") }) {
                facts.quarterTurns = Int(try rotation.content.u8(0) & 0x03)
            }
        }
        if let exifItem = meta.exifItem, let location = meta.locations[exifItem] {
            facts.exif = try exifValues(at: location, meta: meta, file: file)
        }
        if let damage = meta.damage { throw damage }
    }

    /// Reads the Exif item: a 32-bit offset to the TIFF header, then the EXIF block.
    private static func exifValues(at location: HEIFMeta.Location, meta: HEIFMeta, file: FileBytes) throws(MetadataError) -> ExifValues {
        if location.method == 0, location.extents.count == 1, let extent = location.extents.first {
            let start = location.baseOffset + extent.offset
            let length = extent.length == 0 ? file.size - start : extent.length
            let prefix = try file.view(at: start, count: min(length, 64))
            return try ExifBlock.values(inFile: file, at: start, length: length, tiffStart: try tiffHeaderStart(in: prefix))
        }
        let data = try meta.data(of: location, file: file, limit: ExifBlock.maximumInMemory)
        return ExifBlock.values(in: data, tiffStart: try tiffHeaderStart(in: data))
    }

    /// Where the TIFF header starts in an Exif item: after the declared offset, or where
    /// `II*\0` / `MM\0*` is found in the first bytes when the declared offset is wrong.
    static func tiffHeaderStart(in data: ByteView) throws(MetadataError) -> Int {
        let declared = Int(try data.u32(0)) + 4
        if isTIFFHeader(data, at: declared) { return declared }
        for offset in 4..<min(data.count, 64) where isTIFFHeader(data, at: offset) {
            return offset
        }
        throw .malformed("The Exif item holds no TIFF header.")
    }

    private static func isTIFFHeader(_ data: ByteView, at offset: Int) -> Bool {
        data.matches([0x49, 0x49, 0x2A, 0x00], at: offset) || data.matches([0x4D, 0x4D, 0x00, 0x2A], at: offset)
    }
}
