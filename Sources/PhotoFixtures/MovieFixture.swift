import Foundation

/// A minimal MP4 or QuickTime movie: the boxes a metadata reader needs, no coded frames.
///
/// The media data is zeros; `write(to:)` leaves it as a hole in a sparse file, so a fixture
/// with gigabytes of `mdat` before its `moov` costs nothing on disk.
public struct MovieFixture: Sendable {
    public var width: Int
    public var height: Int
    /// Clockwise degrees of the video track's matrix: 0, 90, 180 or 270.
    public var rotation = 0
    /// Seconds (stored with a timescale of 600).
    public var duration = 2.5
    /// The `mvhd` creation time, seconds since 1970 (UTC); `nil` writes zero ("none").
    public var mediaCreated: Int64?
    /// A `com.apple.quicktime.creationdate` key value, e.g. `2023-09-22T18:34:05+0200`.
    public var creationDate: String?
    /// A `com.apple.quicktime.location.ISO6709` key value, e.g. `+37.3349-122.0090+010.000/`.
    public var locationKey: String?
    /// A `©xyz` text atom in `udta` (ISO 6709), as cameras and older iPhones write it.
    public var userDataLocation: String?
    /// `qt  ` brand (a `.mov`) instead of `isom`.
    public var quickTime = false
    /// Bytes of media data (zeros).
    public var mediaDataSize = 16
    /// `moov` before `mdat`, as "fast start" files have it.
    public var movieFirst = false
    /// A sound track before the video track, as many phones write.
    public var soundTrackFirst = true
    /// Bytes of a `free` box inside `moov`, before the tracks (long recordings have megabytes of
    /// sample tables there).
    public var movieFiller = 0

    /// For a QuickTime movie older than `ftyp`: the file starts with a box of this type
    /// (`free`, `skip` or `wide`, 8 bytes of padding each) instead of `ftyp`, or, when empty,
    /// straight with `mdat` (or `moov` when `movieFirst`). `nil` writes `ftyp` as usual.
    public var legacyStart: String?

    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    /// The whole file in memory.
    public var bytes: [UInt8] {
        let (before, mediaData, after) = parts
        return before + [UInt8](repeating: 0, count: mediaData) + after
    }

    /// Writes the file, leaving the media data as a hole.
    public func write(to path: String) throws {
        let (before, mediaData, after) = parts
        guard FileManager.default.createFile(atPath: path, contents: Data(before)) else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path])
        }
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        defer { try? handle.close() }
        try handle.seek(toOffset: UInt64(before.count + mediaData))
        try handle.write(contentsOf: Data(after))
        if after.isEmpty { try handle.truncate(atOffset: UInt64(before.count + mediaData)) }
    }

    /// The bytes before the media data's payload, the payload's length, and the bytes after it.
    public var parts: (before: [UInt8], mediaData: Int, after: [UInt8]) {
        typealias F = PhotoFixtures
        let ftyp = if let legacyStart {
            legacyStart.isEmpty ? [] : F.be32(16) + Array(legacyStart.utf8.prefix(4)) + [UInt8](repeating: 0, count: 8)
        } else if quickTime {
            F.box("ftyp", F.fourCC("qt  ") + F.be32(0) + F.fourCC("qt  "))
        } else {
            F.box("ftyp", F.fourCC("isom") + F.be32(512) + F.fourCC("isom") + F.fourCC("iso2") + F.fourCC("mp41"))
        }
        let mdatHeader: [UInt8] = mediaDataSize + 8 > Int(UInt32.max)
            ? F.be32(1) + F.fourCC("mdat") + F.be32(Int(UInt64(mediaDataSize + 16) >> 32)) + F.be32((mediaDataSize + 16) & 0xFFFF_FFFF)
            : F.be32(mediaDataSize + 8) + F.fourCC("mdat")
        let movie = moov
        return movieFirst ? (ftyp + movie + mdatHeader, mediaDataSize, []) : (ftyp + mdatHeader, mediaDataSize, movie)
    }

    private var moov: [UInt8] {
        typealias F = PhotoFixtures
        let timescale = 600
        let created = Int(mediaCreated.map { $0 + 2_082_844_800 } ?? 0)
        var header = F.be32(created) + F.be32(created) + F.be32(timescale) + F.be32(Int(duration * Double(timescale)))
        header += F.be32(0x0001_0000) + F.be16(0x0100) + [UInt8](repeating: 0, count: 10)
        header += Self.matrix(degrees: 0) + [UInt8](repeating: 0, count: 24) + F.be32(3)
        var children = F.fullBox("mvhd", version: 0, header)
        if movieFiller > 0 { children += F.box("free", [UInt8](repeating: 0, count: movieFiller)) }
        if soundTrackFirst { children += track(id: 1, handler: "soun", width: 0, height: 0, degrees: 0) }
        children += track(id: 2, handler: "vide", width: width, height: height, degrees: rotation)
        let entries = [("com.apple.quicktime.creationdate", creationDate), ("com.apple.quicktime.location.ISO6709", locationKey)]
            .compactMap { key, value in value.map { (Array(key.utf8), Array($0.utf8)) } }
        if !entries.isEmpty {
            var keyList = F.be32(entries.count)
            var items: [UInt8] = []
            for (index, (key, value)) in entries.enumerated() {
                keyList += F.be32(key.count + 8) + F.fourCC("mdta") + key
                items += F.be32(value.count + 24) + F.be32(index + 1) + F.box("data", F.be32(1) + F.be32(0) + value)
            }
            let handler = F.fullBox("hdlr", version: 0, F.be32(0) + F.fourCC("mdta") + [UInt8](repeating: 0, count: 12) + [0])
            children += F.box("meta", handler + F.fullBox("keys", version: 0, keyList) + F.box("ilst", items))
        }
        if let userDataLocation {
            let text = Array(userDataLocation.utf8)
            // `©xyz`: a 16-bit length, a 16-bit language code (0x15C7, English), the text.
            let atom = F.be32(text.count + 12) + [0xA9] + Array("xyz".utf8) + F.be16(text.count) + F.be16(0x15C7) + text
            children += F.box("udta", atom)
        }
        return F.box("moov", children)
    }

    private func track(id: Int, handler: StaticString, width: Int, height: Int, degrees: Int) -> [UInt8] {
        typealias F = PhotoFixtures
        var header = F.be32(0) + F.be32(0) + F.be32(id) + F.be32(0) + F.be32(Int(duration * 600))
        header += [UInt8](repeating: 0, count: 8) + F.be16(0) + F.be16(0) + F.be16(0) + F.be16(0)
        header += Self.matrix(degrees: degrees) + F.be32(width << 16) + F.be32(height << 16)
        let mediaHeader = F.fullBox("mdhd", version: 0, F.be32(0) + F.be32(0) + F.be32(600) + F.be32(Int(duration * 600)) + F.be16(0x55C4) + F.be16(0))
        let handlerBox = F.fullBox("hdlr", version: 0, F.be32(0) + F.fourCC(handler) + [UInt8](repeating: 0, count: 12) + [0])
        return F.box("trak", F.fullBox("tkhd", version: 0, flags: 3, header) + F.box("mdia", mediaHeader + handlerBox))
    }

    /// The 3×3 display matrix of a clockwise rotation, in QuickTime's fixed-point layout.
    static func matrix(degrees: Int) -> [UInt8] {
        typealias F = PhotoFixtures
        let one = 0x0001_0000, minusOne = Int(UInt32(bitPattern: -0x0001_0000))
        let (a, b, c, d): (Int, Int, Int, Int)
        switch ((degrees % 360) + 360) % 360 {
        case 90: (a, b, c, d) = (0, one, minusOne, 0)
        case 180: (a, b, c, d) = (minusOne, 0, 0, minusOne)
        case 270: (a, b, c, d) = (0, minusOne, one, 0)
        default: (a, b, c, d) = (one, 0, 0, one)
        }
        return F.be32(a) + F.be32(b) + F.be32(0) + F.be32(c) + F.be32(d) + F.be32(0) + F.be32(0) + F.be32(0) + F.be32(0x4000_0000)
    }
}

extension PhotoFixtures {
    /// A minimal AVI: `avih`, one video stream (`strh` + `strf`), an optional `IDIT` date text
    /// (e.g. `MON MAR 10 15:04:43 2003`), and an empty `movi` list.
    public static func avi(width: Int, height: Int, frames: Int, framesPerSecond: Int, date: String? = nil) -> [UInt8] {
        var main = le32(1_000_000 / max(framesPerSecond, 1)) + le32(0) + le32(0) + le32(0x10) + le32(frames)
        main += le32(0) + le32(1) + le32(0) + le32(width) + le32(height) + [UInt8](repeating: 0, count: 16)
        var stream = fourCC("vids") + fourCC("MJPG") + le32(0) + le16(0) + le16(0) + le32(0)
        stream += le32(1) + le32(framesPerSecond) + le32(0) + le32(frames) + le32(0) + le32(0xFFFF_FFFF) + le32(0)
        stream += le16(0) + le16(0) + le16(width) + le16(height)
        let format = le32(40) + le32(width) + le32(height) + le16(1) + le16(24) + fourCC("MJPG") + le32(width * height * 3)
            + [UInt8](repeating: 0, count: 16)
        let streamList = riffChunk("LIST", fourCC("strl") + riffChunk("strh", stream) + riffChunk("strf", format))
        var headerList = fourCC("hdrl") + riffChunk("avih", main) + streamList
        if let date { headerList += riffChunk("IDIT", Array(date.utf8) + [0x0A, 0]) }
        let body = fourCC("AVI ") + riffChunk("LIST", headerList) + riffChunk("LIST", fourCC("movi"))
        return fourCC("RIFF") + le32(body.count) + body
    }

    /// A minimal Matroska (or WebM) file: EBML header, `Info` (duration in milliseconds, an
    /// optional `DateUTC` in seconds since 1970), one video track, and a cluster of `clusterSize` bytes.
    public static func matroska(
        width: Int, height: Int, durationMilliseconds: Double, dateUTC: Int64? = nil, webm: Bool = false, clusterSize: Int = 16
    ) -> [UInt8] {
        func element(_ id: [UInt8], _ data: [UInt8]) -> [UInt8] {
            // Sizes as 8-byte variable-length integers: 0x01 and seven bytes.
            id + [0x01] + (0..<7).map { UInt8(truncatingIfNeeded: UInt64(data.count) >> (8 * (6 - UInt64($0)))) }
                + data
        }
        func unsigned(_ value: UInt64) -> [UInt8] { (0..<8).map { UInt8(truncatingIfNeeded: value >> (8 * (7 - UInt64($0)))) } }
        let header = element([0x1A, 0x45, 0xDF, 0xA3], element([0x42, 0x82], Array((webm ? "webm" : "matroska").utf8)))
        var info = element([0x2A, 0xD7, 0xB1], unsigned(1_000_000))
        info += element([0x44, 0x89], unsigned(durationMilliseconds.bitPattern))
        if let dateUTC { info += element([0x44, 0x61], unsigned(UInt64(bitPattern: (dateUTC - 978_307_200) * 1_000_000_000))) }
        let video = element([0xE0], element([0xB0], unsigned(UInt64(width))) + element([0xBA], unsigned(UInt64(height))))
        let track = element([0xAE], element([0x83], [1]) + video)
        let segment = element([0x15, 0x49, 0xA9, 0x66], info) + element([0x16, 0x54, 0xAE, 0x6B], track)
            + element([0x1F, 0x43, 0xB6, 0x75], [UInt8](repeating: 0, count: clusterSize))
        return header + element([0x18, 0x53, 0x80, 0x67], segment)
    }
}

extension PhotoFixtures {
    /// A minimal MPEG transport stream: one video packet whose PES payload holds an H.264
    /// sequence parameter set (High profile, 4:2:0) for `width`×`height`, then null packets.
    /// `m2ts` writes 192-byte packets with a 4-byte timestamp prefix, as AVCHD cameras do.
    public static func transportStream(width: Int, height: Int, m2ts: Bool = false) -> [UInt8] {
        var bits = MSBFirstBits()
        bits.append(100, count: 8)  // profile_idc: High
        bits.append(0, count: 8)
        bits.append(40, count: 8)  // level 4.0
        bits.golomb(0)  // seq_parameter_set_id
        bits.golomb(1)  // chroma_format_idc 4:2:0
        bits.golomb(0)
        bits.golomb(0)  // bit depths
        bits.append(0, count: 2)  // qpprime, no scaling matrix
        bits.golomb(0)  // log2_max_frame_num_minus4
        bits.golomb(2)  // pic_order_cnt_type
        bits.golomb(1)  // max_num_ref_frames
        bits.append(0, count: 1)
        let widthInMacroblocks = (width + 15) / 16, heightInMacroblocks = (height + 15) / 16
        bits.golomb(widthInMacroblocks - 1)
        bits.golomb(heightInMacroblocks - 1)
        bits.append(1, count: 1)  // frame_mbs_only
        bits.append(1, count: 1)  // direct_8x8_inference
        let cropRight = (widthInMacroblocks * 16 - width) / 2, cropBottom = (heightInMacroblocks * 16 - height) / 2
        bits.append(cropRight + cropBottom > 0 ? 1 : 0, count: 1)
        if cropRight + cropBottom > 0 {
            bits.golomb(0)
            bits.golomb(cropRight)
            bits.golomb(0)
            bits.golomb(cropBottom)
        }
        bits.append(0, count: 1)  // no VUI
        bits.append(1, count: 1)  // rbsp stop bit
        var escaped: [UInt8] = []
        var zeros = 0
        for byte in bits.bytes {
            if zeros >= 2, byte <= 3 {
                escaped.append(3)
                zeros = 0
            }
            escaped.append(byte)
            zeros = byte == 0 ? zeros + 1 : 0
        }
        let pes: [UInt8] = [0, 0, 1, 0xE0, 0, 0, 0x80, 0x80, 5, 0x21, 0, 1, 0, 1]
        let payload = pes + [0, 0, 0, 1, 0x09, 0xF0] + [0, 0, 0, 1, 0x67] + escaped + [0, 0, 0, 1, 0x68, 0xEE, 0x3C, 0x80]
        func packet(pid: Int, start: Bool, _ data: [UInt8]) -> [UInt8] {
            let header: [UInt8] = [0x47, UInt8((start ? 0x40 : 0) | (pid >> 8)), UInt8(pid & 0xFF), 0x10]
            let body = header + data.prefix(184) + [UInt8](repeating: 0xFF, count: max(0, 184 - data.count))
            return (m2ts ? [0, 0, 0, 0] : []) + body
        }
        return packet(pid: 0x100, start: true, payload) + (0..<4).flatMap { _ in packet(pid: 0x1FFF, start: false, []) }
    }
}

/// Bits appended most-significant first, with Exp-Golomb codes, as H.264 headers are written.
struct MSBFirstBits {
    private(set) var bytes: [UInt8] = []
    private var used = 8

    mutating func append(_ value: Int, count: Int) {
        for index in stride(from: count - 1, through: 0, by: -1) {
            if used == 8 {
                bytes.append(0)
                used = 0
            }
            bytes[bytes.count - 1] |= UInt8((value >> index) & 1) << (7 - used)
            used += 1
        }
    }

    /// ue(v).
    mutating func golomb(_ value: Int) {
        let code = value + 1
        let length = Int.bitWidth - code.leadingZeroBitCount
        append(0, count: length - 1)
        append(code, count: length)
    }
}
