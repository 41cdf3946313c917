/// Reads ISO BMFF and QuickTime movies (MP4, MOV, M4V, 3GP): the `mvhd` duration and creation
/// time, the first enabled video track's `tkhd` size and matrix, and the creation date of
/// `meta`/`keys`/`ilst` and `udta`.
///
/// Only box headers are read on the way to `moov`, wherever it lies (after a 4 GB `mdat` it costs
/// one read); a `moov` of up to `wholeMovieLimit` bytes is then read in one request, a larger
/// one box by box, skipping the sample tables.
enum QuickTimeReader {
    /// `moov` boxes up to this size are read in one request.
    static let wholeMovieLimit = 1 << 20
    /// Bytes read ahead when a box header lies beyond the head: most `moov` boxes fit in them.
    static let headerReadAhead = 64 * 1024
    /// Largest `meta` or `udta` box read.
    static let maximumMetadataBox = 1 << 20
    /// Most top-level boxes walked before giving up on finding `moov`.
    static let maximumTopLevelBoxes = 1024
    /// Seconds from 1904-01-01 (the QuickTime epoch) to 1970-01-01.
    static let epochShift: Int64 = 2_082_844_800

    static func read(_ file: FileBytes, into facts: inout ImageFacts) throws(MetadataError) {
        let movie = try findMovie(file)
        if movie.size <= wholeMovieLimit {
            _ = try file.view(at: movie.start, count: movie.size, readAhead: movie.size)
        }
        var fallbackTrack: TrackHeader?
        var chosenTrack: TrackHeader?
        var metaTexts = QuickTimeMetadata.Texts()
        var userDataTexts = QuickTimeMetadata.Texts()
        for box in ISOBox.children(of: file, from: movie.contentStart, to: movie.end) {
            try file.checkDeadline()
            switch box.type {
            case FourCC("mvhd"):
                try readMovieHeader(file.view(at: box.contentStart, count: min(box.contentSize, 32)), into: &facts)
            case FourCC("trak") where chosenTrack == nil:
                guard let track = try videoTrack(box, file) else { continue }
                if track.isEnabled { chosenTrack = track } else if fallbackTrack == nil { fallbackTrack = track }
            case FourCC("meta"):
                if box.contentSize <= maximumMetadataBox {
                    metaTexts = metaTexts.filling(from: QuickTimeMetadata.texts(inMeta: try file.view(at: box.contentStart, count: box.contentSize)))
                }
            case FourCC("udta"):
                if box.contentSize <= maximumMetadataBox {
                    userDataTexts = userDataTexts.filling(from: QuickTimeMetadata.texts(inUserData: try file.view(at: box.contentStart, count: box.contentSize)))
                }
            default:
                break
            }
        }
        let texts = metaTexts.filling(from: userDataTexts)
        facts.videoDates.creationText = texts.creationDate
        // The first location that reads as a position: a damaged key does not hide a good atom.
        facts.position = [metaTexts.location, userDataTexts.location].lazy.compactMap { $0.flatMap(GeoPosition.init(iso6709:)) }.first
        if let track = chosenTrack ?? fallbackTrack {
            facts.setSize(width: track.width, height: track.height)
            facts.quarterTurns = track.quarterTurns
        }
    }

    /// The `moov` box, found by walking the top-level box headers.
    static func findMovie(_ file: FileBytes) throws(MetadataError) -> ISOBox {
        var offset = 0
        var walked = 0
        while offset + 8 <= file.size, walked < maximumTopLevelBoxes {
            let header = try file.view(at: offset, upTo: min(32, file.size - offset), readAhead: headerReadAhead)
            let box = try ISOBox.parse(header, at: offset, limit: file.size)
            if box.type == FourCC("moov") { return box }
            offset = box.end
            walked += 1
        }
        throw .malformed("The movie has no 'moov' box.")
    }

    /// `mvhd`: duration and the creation time (UTC seconds since 1904; zero means none).
    static func readMovieHeader(_ content: ByteView, into facts: inout ImageFacts) throws(MetadataError) {
        let version = try content.u8(0)
        let creation: UInt64, timescale: UInt32, duration: UInt64
        if version == 1 {
            creation = try content.u64(4)
            timescale = try content.u32(20)
            duration = try content.u64(24)
        } else {
            creation = UInt64(try content.u32(4))
            timescale = try content.u32(12)
            let short = try content.u32(16)
            duration = short == .max ? .max : UInt64(short)
        }
        if creation > 0, creation < UInt64(Int64.max) {
            let seconds = Int64(creation) - epochShift
            if VideoDates.plausible(seconds) { facts.videoDates.mediaCreateUTC = seconds }
        }
        if timescale > 0, duration != .max {
            facts.setDuration(Double(duration) / Double(timescale))
        }
    }

    /// The header of a video track, or `nil` for other tracks (sound, timecode, metadata).
    static func videoTrack(_ track: ISOBox, _ file: FileBytes) throws(MetadataError) -> TrackHeader? {
        let children = ISOBox.children(of: file, from: track.contentStart, to: track.end, limit: 64)
        guard let headerBox = children.first(where: { $0.type == FourCC("tkhd") }) else { return nil }
        let header = try TrackHeader(try file.view(at: headerBox.contentStart, count: min(headerBox.contentSize, 96)))
        let handler = try handlerType(ofTrack: children, file)
        let isVideo = handler.map { $0 == FourCC("vide") } ?? (header.width > 0 && header.height > 0)
        return isVideo && header.width > 0 && header.height > 0 ? header : nil
    }

    /// The media handler type of a track (`vide`, `soun`, `tmcd`, ...) from its `mdia`'s `hdlr`,
    /// given the track's child boxes; `nil` when there is none.
    static func handlerType(ofTrack children: [ISOBox], _ file: FileBytes) throws(MetadataError) -> FourCC? {
        guard let media = children.first(where: { $0.type == FourCC("mdia") }),
              let handlerBox = ISOBox.children(of: file, from: media.contentStart, to: media.end, limit: 16)
                .first(where: { $0.type == FourCC("hdlr") }),
              handlerBox.contentSize >= 12
        else { return nil }
        return try file.view(at: handlerBox.contentStart + 8, count: 4).fourCC(0)
    }

    /// Whether `movie`, a `moov` box, holds a track whose media handler is `vide`.
    static func hasVideoTrack(_ movie: ISOBox, _ file: FileBytes) -> Bool {
        ISOBox.children(of: file, from: movie.contentStart, to: movie.end).contains { box in
            guard box.type == FourCC("trak") else { return false }
            let children = ISOBox.children(of: file, from: box.contentStart, to: box.end, limit: 64)
            return (try? handlerType(ofTrack: children, file)) == FourCC("vide")
        }
    }
}

/// What `tkhd` says about a track: enabled or not, its presentation size and rotation.
struct TrackHeader {
    var isEnabled: Bool
    var width: Int
    var height: Int
    /// Quarter turns of the display matrix (1 or 3 turn the picture on its side).
    var quarterTurns: Int

    init(_ content: ByteView) throws(MetadataError) {
        let version = try content.u8(0)
        isEnabled = try content.u24(1) & 1 != 0
        let matrix = version == 1 ? 52 : 40
        // 16.16 fixed point, rounded to whole pixels.
        width = Int((try content.u32(matrix + 36) &+ 0x8000) >> 16)
        height = Int((try content.u32(matrix + 40) &+ 0x8000) >> 16)
        let a = Int32(bitPattern: try content.u32(matrix)), b = Int32(bitPattern: try content.u32(matrix + 4))
        let c = Int32(bitPattern: try content.u32(matrix + 12)), d = Int32(bitPattern: try content.u32(matrix + 16))
        if a == 0, d == 0, b != 0, c != 0 {
            quarterTurns = b > 0 ? 3 : 1
        } else if a < 0, d < 0 {
            quarterTurns = 2
        } else {
            quarterTurns = 0
        }
    }
}
