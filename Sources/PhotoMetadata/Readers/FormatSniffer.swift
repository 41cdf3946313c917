/// Identifies a container from a file's first bytes, never from its name.
enum FormatSniffer {
    /// The reader family for a file.
    enum Container: Equatable {
        case jpeg, png, webp, tiff, isoMedia(ImageFormat), raf, mrw, x3f, crw
    }

    /// The container of a file whose first bytes are `head`, or `nil` when it is not an image.
    static func container(of head: ByteView) -> Container? {
        if head.matches([0xFF, 0xD8, 0xFF]) { return .jpeg }
        if head.matches([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .png }
        if head.matches(Array("RIFF".utf8)), head.matches(Array("WEBP".utf8), at: 8) { return .webp }
        if head.matches(Array("II".utf8)) || head.matches(Array("MM".utf8)) {
            if head.matches(Array("HEAPCCDR".utf8), at: 6) { return .crw }
            let order: ByteOrder = head.matches(Array("II".utf8)) ? .littleEndian : .bigEndian
            if let magic = try? head.u16(2, order), [42, 0x55, 0x4F52, 0x5352].contains(magic) { return .tiff }
            return nil
        }
        if head.matches(Array("FUJIFILMCCD-RAW".utf8)) { return .raf }
        if head.matches([0x00, 0x4D, 0x52, 0x4D]) { return .mrw }
        if head.matches(Array("FOVb".utf8)) { return .x3f }
        if head.matches(Array("ftyp".utf8), at: 4), let format = isoFormat(head) { return .isoMedia(format) }
        return nil
    }

    /// HEIC, HEIF, AVIF or CR3 from the `ftyp` brands; `nil` for other ISO media (videos).
    static func isoFormat(_ head: ByteView) -> ImageFormat? {
        guard let size = try? head.u32(0), size >= 16 else { return nil }
        let end = min(Int(size), head.count)
        guard let major = try? head.fourCC(8) else { return nil }
        var brands = [major]
        var offset = 16
        while offset + 4 <= end, let brand = try? head.fourCC(offset) {
            brands.append(brand)
            offset += 4
        }
        let heic: Set<FourCC> = [FourCC("heic"), FourCC("heix"), FourCC("heim"), FourCC("heis"), FourCC("hevc"), FourCC("hevx")]
        let avif: Set<FourCC> = [FourCC("avif"), FourCC("avis")]
        let heif: Set<FourCC> = [FourCC("mif1"), FourCC("msf1"), FourCC("mif2"), FourCC("miaf")]
        if brands.contains(FourCC("crx ")) { return .cr3 }
        if heic.contains(major) { return .heic }
        if avif.contains(major) { return .avif }
        if heif.contains(major) || brands.contains(where: { heif.contains($0) || heic.contains($0) || avif.contains($0) }) {
            if !brands.contains(where: heic.contains), brands.contains(where: avif.contains) { return .avif }
            return .heif
        }
        return nil
    }
}
