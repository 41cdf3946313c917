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

    /// The container of `file`, from its first bytes or, for a QuickTime movie older than `ftyp`,
    /// from its first top-level atoms; `nil` when it is neither an image nor a video.
    static func container(of file: FileBytes) -> Container? {
        if let container = container(of: file.head) { return container }
        return isLegacyQuickTime(file) ? .isoVideo(.mov) : nil
    }

    /// The container of a file whose first bytes are `head`, or `nil` when it is neither an image
    /// nor a video (or a QuickTime movie older than `ftyp`, which `container(of: FileBytes)` finds).
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
        if head.matches(Array("RIFF".utf8)), head.matches(Array("AVI ".utf8), at: 8) { return .avi }
        if head.matches([0x1A, 0x45, 0xDF, 0xA3]) { return .matroska(MatroskaReader.docType(head) == "webm" ? .webm : .mkv) }
        if let packetSize = transportPacketSize(head) { return .mpegTS(packetSize: packetSize) }
        return nil
    }

    /// Top-level atoms a QuickTime movie older than `ftyp` may have before its `moov`: padding
    /// (`free`, `skip`, `wide`), a preview (`pnot`, `PICT`) and media data (`mdat`).
    static let legacyLeadingAtoms: Set<FourCC> = [
        FourCC("free"), FourCC("skip"), FourCC("wide"), FourCC("pnot"), FourCC("PICT"), FourCC("mdat"),
    ]
    /// Most top-level atoms walked looking for a legacy movie's `moov`.
    static let legacyAtomLimit = 8

    /// Whether `file` is a QuickTime movie written before `ftyp` existed: within its first
    /// `legacyAtomLimit` top-level atoms, passing only `legacyLeadingAtoms`, a `moov` holding a
    /// video track. Atoms are walked by their sizes (32- or 64-bit; 0 runs to the end of the
    /// file), reading only their headers, so a large `free` or `mdat` costs one read. A file that
    /// merely starts with the bytes `free` is not a movie.
    static func isLegacyQuickTime(_ file: FileBytes) -> Bool {
        var offset = 0
        for _ in 0..<legacyAtomLimit {
            guard offset < file.size, let header = try? file.view(at: offset, upTo: 16),
                  let atom = try? ISOBox.parse(header, at: offset, limit: file.size)
            else { return false }
            if atom.type == FourCC("moov") { return QuickTimeReader.hasVideoTrack(atom, file) }
            guard legacyLeadingAtoms.contains(atom.type) else { return false }
            offset = atom.end
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
