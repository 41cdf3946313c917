/// A minimal Canon CR3: the metadata boxes only, no image data.
extension PhotoFixtures {
    /// Canon's `uuid` box identifier for the metadata inside `moov`.
    static let canonUUID: [UInt8] = [0x85, 0xC0, 0xB6, 0x87, 0x82, 0x0F, 0x11, 0xE0, 0x81, 0x11, 0xF4, 0xCE, 0x46, 0x2B, 0x6A, 0x48]

    /// A CR3 whose `moov/uuid` box holds `exif` as Canon writes it: IFD0 in `CMT1`, the Exif IFD in
    /// `CMT2` and the GPS IFD in `CMT4`, each a TIFF structure of its own (the directory as its IFD0).
    public static func cr3(exif: ExifFields) -> [UInt8] {
        let all = TIFFBuilder(exif: exif)
        func tiff(_ entries: [(tag: UInt16, value: TIFFBuilder.Value)]) -> [UInt8] {
            var builder = TIFFBuilder(exif: ExifFields())
            builder.ifd0 = entries
            return builder.build()
        }
        var blocks = box("CMT1", tiff(all.ifd0))
        if !all.exif.isEmpty { blocks += box("CMT2", tiff(all.exif)) }
        if !all.gps.isEmpty { blocks += box("CMT4", tiff(all.gps)) }
        let uuid = be32(8 + 16 + blocks.count) + fourCC("uuid") + canonUUID + blocks
        let ftyp = box("ftyp", fourCC("crx ") + be32(1) + fourCC("crx ") + fourCC("isom"))
        return ftyp + box("moov", uuid)
    }
}
