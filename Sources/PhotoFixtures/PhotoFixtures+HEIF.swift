/// A minimal HEIF/AVIF container: the boxes a metadata reader needs, without coded image data.
extension PhotoFixtures {
    /// The `ftyp` brands and image item type of a HEIF fixture.
    public enum HEIFBrand: Sendable {
        /// `heic` major brand, `hvc1` image item.
        case heic
        /// `avif` major brand, `av01` image item.
        case avif
    }

    /// A HEIF file whose primary item has an `ispe` of `width`×`height`, an `irot` of
    /// `rotation` counter-clockwise quarter turns (none when 0), and an `Exif` item holding `exif`.
    ///
    /// - Parameter exifInItemData: store the Exif item in the `idat` box (iloc construction
    ///   method 1) instead of the `mdat` box (method 0).
    public static func heif(
        width: Int, height: Int, rotation: Int = 0, exif: ExifFields = ExifFields(),
        brand: HEIFBrand = .heic, exifInItemData: Bool = false
    ) -> [UInt8] {
        let tiff = exifTIFF(exif)
        let exifPayload: [UInt8] = tiff.isEmpty ? [] : be32(6) + Array("Exif".utf8) + [0, 0] + tiff
        let imageData: [UInt8] = [0, 0, 0, 0]
        let major: StaticString = brand == .heic ? "heic" : "avif"
        let ftyp = box("ftyp", fourCC(major) + be32(0) + fourCC("mif1") + fourCC(major))

        // The meta box has the same size whatever the offsets, so build it twice.
        func meta(mdatContent: Int) -> [UInt8] {
            let hasExif = !exifPayload.isEmpty
            var children = fullBox("hdlr", version: 0, be32(0) + fourCC("pict") + [UInt8](repeating: 0, count: 12) + [0])
            children += fullBox("pitm", version: 0, be16(1))
            var entries = fullBox("infe", version: 2, be16(1) + be16(0) + fourCC(brand == .heic ? "hvc1" : "av01") + [0])
            if hasExif { entries += fullBox("infe", version: 2, be16(2) + be16(0) + fourCC("Exif") + [0]) }
            children += fullBox("iinf", version: 0, be16(hasExif ? 2 : 1) + entries)
            if hasExif { children += fullBox("iref", version: 0, box("cdsc", be16(2) + be16(1) + be16(1))) }

            var locations = [UInt8(0x44), 0x00] + be16(hasExif ? 2 : 1)
            locations += be16(1) + be16(0) + be16(0) + be16(1) + be32(mdatContent) + be32(imageData.count)
            if hasExif {
                let method: UInt8 = exifInItemData ? 1 : 0
                let offset = exifInItemData ? 0 : mdatContent + imageData.count
                locations += be16(2) + [0, method] + be16(0) + be16(1) + be32(offset) + be32(exifPayload.count)
            }
            children += fullBox("iloc", version: 1, locations)

            var properties = fullBox("ispe", version: 0, be32(width) + be32(height))
            var associations: [UInt8] = [0x01]
            if rotation % 4 != 0 {
                properties += box("irot", [UInt8(((rotation % 4) + 4) % 4)])
                associations.append(0x82)
            }
            let ipma = fullBox("ipma", version: 0, be32(1) + be16(1) + [UInt8(associations.count)] + associations)
            children += box("iprp", box("ipco", properties) + ipma)
            if hasExif, exifInItemData { children += box("idat", exifPayload) }
            return fullBox("meta", version: 0, children)
        }

        let metaSize = meta(mdatContent: 0).count
        let mdatContent = ftyp.count + metaSize + 8
        let mdat = box("mdat", imageData + (exifInItemData ? [] : exifPayload))
        return ftyp + meta(mdatContent: mdatContent) + mdat
    }

    static func box(_ type: StaticString, _ content: [UInt8]) -> [UInt8] {
        be32(content.count + 8) + fourCC(type) + content
    }

    static func fullBox(_ type: StaticString, version: UInt8, flags: Int = 0, _ content: [UInt8]) -> [UInt8] {
        box(type, [version] + Array(be32(flags).dropFirst()) + content)
    }
}
