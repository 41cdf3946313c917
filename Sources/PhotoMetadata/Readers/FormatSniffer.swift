/// Identifies a container from a file's first bytes, never from its name.
enum FormatSniffer {
    /// The reader family for a file.
    enum Container: Equatable {
        case jpeg, png, webp, tiff, isoMedia(ImageFormat), raf, mrw, x3f, crw
        /// ISO BMFF and QuickTime movies (MP4, MOV, M4V, 3GP).
        case isoVideo(ImageFormat)
        case avi
        /// Matroska or WebM, from the EBML header's `DocType`.
        case matroska(ImageFormat)
        /// MPEG transport stream; `packetSize` is 188, or 192 for M2TS.
        case mpegTS(packetSize: Int)
    }

    /// The container of a file whose first bytes are `head`, or `nil` when it is neither an image
    /// nor a video.
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
        if head.matches(Array("ftyp".utf8), at: 4) {
            if let format = isoFormat(head) { return .isoMedia(format) }
            return isoVideoFormat(head).map(Container.isoVideo)
        }
        // QuickTime movies older than `ftyp` start straight with one of these boxes.
        if isLegacyQuickTime(head) { return .isoVideo(.mov) }
        if head.matches(Array("RIFF".utf8)), head.matches(Array("AVI ".utf8), at: 8) { return .avi }
        if head.matches([0x1A, 0x45, 0xDF, 0xA3]) { return .matroska(MatroskaReader.docType(head) == "webm" ? .webm : .mkv) }
        if let packetSize = transportPacketSize(head) { return .mpegTS(packetSize: packetSize) }
        return nil
    }

    /// Whether `head` starts like a QuickTime movie written before `ftyp` existed: a `moov`, `mdat`,
    /// `wide` or `pnot` box, or `free`/`skip` padding followed (within the head) by one of those.
    /// Padding alone is not enough: any file could start with the bytes `free`.
    static func isLegacyQuickTime(_ head: ByteView) -> Bool {
        let movie: Set<FourCC> = [FourCC("moov"), FourCC("mdat"), FourCC("wide"), FourCC("pnot")]
        let padding: Set<FourCC> = [FourCC("free"), FourCC("skip")]
        var offset = 0
        // A few padding boxes at most, then a movie box.
        for _ in 0..<8 {
            guard let size = try? head.u32(offset), let type = try? head.fourCC(offset + 4) else { return false }
            // 1: a 64-bit size follows; 0: the box runs to the end of the file.
            if movie.contains(type) { return size >= 8 || size <= 1 }
            guard padding.contains(type), size >= 8 else { return false }
            offset += Int(size)
        }
        return false
    }

    /// The video format of an ISO BMFF file from its major brand; `nil` for audio-only brands.
    static func isoVideoFormat(_ head: ByteView) -> ImageFormat? {
        guard let major = try? head.fourCC(8) else { return nil }
        let audio: Set<FourCC> = [FourCC("M4A "), FourCC("M4B "), FourCC("M4P "), FourCC("F4A "), FourCC("F4B ")]
        if audio.contains(major) { return nil }
        if major == FourCC("qt  ") { return .mov }
        if major.rawValue >> 8 == FourCC("M4V ").rawValue >> 8 { return .m4v }
        if major.rawValue >> 16 == FourCC("3g  ").rawValue >> 16 { return .threeGP }
        return .mp4
    }

    /// 188 for a transport stream, 192 for M2TS, when the sync byte 0x47 starts every packet of
    /// the head (four at most, three at least).
    static func transportPacketSize(_ head: ByteView) -> Int? {
        for (size, first) in [(188, 0), (192, 4)] {
            let packets = min(4, (head.count - first) / size)
            if packets >= 3, (0..<packets).allSatisfy({ (try? head.u8(first + $0 * size)) == 0x47 }) { return size }
        }
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
