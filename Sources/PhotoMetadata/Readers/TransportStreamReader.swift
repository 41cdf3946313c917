/// Reads MPEG transport streams (`.ts`, AVCHD `.m2ts`/`.mts`): the picture size from the first
/// H.264 sequence parameter set or MPEG-2 sequence header found in the head of the file.
///
/// Only the head is read: a stream has no index, and its duration and date would need a scan
/// of the whole file (or camera-specific SEI messages), which Shoebox does not pay for.
enum TransportStreamReader {
    /// Payload bytes gathered per packet id before giving up on finding a header in them.
    static let maximumPerStream = 64 * 1024

    static func read(_ file: FileBytes, packetSize: Int, into facts: inout ImageFacts) throws(MetadataError) {
        let head = file.head
        let prefix = packetSize - 188
        var streams: [Int: [UInt8]] = [:]
        var offset = prefix
        while offset + 188 <= head.count {
            guard try head.u8(offset) == 0x47 else { break }
            let flags = try head.u8(offset + 1)
            let packetID = Int(flags & 0x1F) << 8 | Int(try head.u8(offset + 2))
            let control = (try head.u8(offset + 3) >> 4) & 0x03
            var payload = offset + 4
            if control & 0x02 != 0 { payload += 1 + Int(try head.u8(offset + 4)) }
            if control & 0x01 != 0, payload < offset + 188, packetID != 0x1FFF {
                var bytes = streams[packetID, default: []]
                if bytes.count < maximumPerStream {
                    bytes += try head.view(payload, offset + 188 - payload).array
                    streams[packetID] = bytes
                }
            }
            offset += packetSize
        }
        for packetID in streams.keys.sorted() {
            if let size = VideoHeaderScanner.pictureSize(in: streams[packetID] ?? []) {
                facts.setSize(width: size.width, height: size.height)
                return
            }
        }
    }
}

/// Finds the picture size in an elementary video stream: an H.264 sequence parameter set or an
/// MPEG-2 sequence header, after a `00 00 01` start code.
enum VideoHeaderScanner {
    static func pictureSize(in bytes: [UInt8]) -> PixelSize? {
        var index = 0
        while index + 4 < bytes.count {
            guard bytes[index] == 0, bytes[index + 1] == 0, bytes[index + 2] == 1 else {
                index += 1
                continue
            }
            let code = bytes[index + 3]
            if code == 0xB3, index + 7 < bytes.count {
                // MPEG-2 sequence header: 12 bits of width, 12 bits of height.
                let width = Int(bytes[index + 4]) << 4 | Int(bytes[index + 5] >> 4)
                let height = Int(bytes[index + 5] & 0x0F) << 8 | Int(bytes[index + 6])
                if width > 0, height > 0 { return PixelSize(width: width, height: height) }
            } else if code & 0x80 == 0, code & 0x1F == 7 {
                let end = min(bytes.count, index + 4 + 256)
                if let size = H264SequenceParameters.pictureSize(rbsp: Self.unescaped(bytes[(index + 4)..<end])) {
                    return size
                }
            }
            index += 3
        }
        return nil
    }

    /// The NAL unit payload without its emulation-prevention bytes (`00 00 03` → `00 00`).
    static func unescaped(_ bytes: ArraySlice<UInt8>) -> [UInt8] {
        var result: [UInt8] = []
        result.reserveCapacity(bytes.count)
        var zeros = 0
        for byte in bytes {
            if zeros >= 2, byte == 3 {
                zeros = 0
                continue
            }
            zeros = byte == 0 ? zeros + 1 : 0
            result.append(byte)
        }
        return result
    }
}

/// The frame size in an H.264 sequence parameter set (ITU-T H.264 7.3.2.1.1), cropping applied.
enum H264SequenceParameters {
    static func pictureSize(rbsp: [UInt8]) -> PixelSize? {
        var bits = BitReader(rbsp)
        guard let profile = bits.bits(8), bits.bits(16) != nil, bits.unsignedGolomb() != nil else { return nil }
        var chromaFormat = 1
        if [100, 110, 122, 244, 44, 83, 86, 118, 128, 138, 139, 134, 135].contains(profile) {
            guard let format = bits.unsignedGolomb(), format <= 3 else { return nil }
            chromaFormat = format
            if chromaFormat == 3 { _ = bits.bits(1) }
            guard bits.unsignedGolomb() != nil, bits.unsignedGolomb() != nil, bits.bits(1) != nil,
                  let scalingMatrix = bits.bits(1) else { return nil }
            if scalingMatrix == 1 {
                for list in 0..<(chromaFormat == 3 ? 12 : 8) {
                    guard let present = bits.bits(1) else { return nil }
                    if present == 1, !skipScalingList(&bits, size: list < 6 ? 16 : 64) { return nil }
                }
            }
        }
        guard bits.unsignedGolomb() != nil, let pictureOrderType = bits.unsignedGolomb() else { return nil }
        if pictureOrderType == 0 {
            guard bits.unsignedGolomb() != nil else { return nil }
        } else if pictureOrderType == 1 {
            guard bits.bits(1) != nil, bits.signedGolomb() != nil, bits.signedGolomb() != nil,
                  let cycle = bits.unsignedGolomb(), cycle <= 255 else { return nil }
            for _ in 0..<cycle {
                guard bits.signedGolomb() != nil else { return nil }
            }
        }
        guard bits.unsignedGolomb() != nil, bits.bits(1) != nil,
              let widthInMacroblocks = bits.unsignedGolomb(), let heightInMapUnits = bits.unsignedGolomb(),
              let framesOnly = bits.bits(1), widthInMacroblocks < 1024, heightInMapUnits < 1024
        else { return nil }
        if framesOnly == 0 { _ = bits.bits(1) }
        guard bits.bits(1) != nil, let cropping = bits.bits(1) else { return nil }
        var crop = (left: 0, right: 0, top: 0, bottom: 0)
        if cropping == 1 {
            guard let left = bits.unsignedGolomb(), let right = bits.unsignedGolomb(),
                  let top = bits.unsignedGolomb(), let bottom = bits.unsignedGolomb() else { return nil }
            crop = (left, right, top, bottom)
        }
        let subWidth = chromaFormat == 1 || chromaFormat == 2 ? 2 : 1
        let subHeight = chromaFormat == 1 ? 2 : 1
        let cropX = chromaFormat == 0 ? 1 : subWidth
        let cropY = (chromaFormat == 0 ? 1 : subHeight) * (2 - framesOnly)
        let width = (widthInMacroblocks + 1) * 16 - cropX * (crop.left + crop.right)
        let height = (2 - framesOnly) * (heightInMapUnits + 1) * 16 - cropY * (crop.top + crop.bottom)
        return width > 0 && height > 0 ? PixelSize(width: width, height: height) : nil
    }

    private static func skipScalingList(_ bits: inout BitReader, size: Int) -> Bool {
        var last = 8, next = 8
        for _ in 0..<size where next != 0 {
            guard let delta = bits.signedGolomb() else { return false }
            next = (last + delta + 256) % 256
            last = next == 0 ? last : next
        }
        return true
    }
}

/// Reads bits most-significant first, and Exp-Golomb codes; `nil` past the end.
struct BitReader {
    private let bytes: [UInt8]
    private var position = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    mutating func bits(_ count: Int) -> Int? {
        var value = 0
        for _ in 0..<count {
            guard position < bytes.count * 8 else { return nil }
            value = value << 1 | Int(bytes[position >> 3] >> (7 - UInt8(position & 7)) & 1)
            position += 1
        }
        return value
    }

    /// ue(v); `nil` for codes longer than 31 bits.
    mutating func unsignedGolomb() -> Int? {
        var zeros = 0
        while true {
            guard let bit = bits(1) else { return nil }
            if bit == 1 { break }
            zeros += 1
            if zeros > 31 { return nil }
        }
        guard let rest = bits(zeros) else { return nil }
        return (1 << zeros) - 1 + rest
    }

    /// se(v).
    mutating func signedGolomb() -> Int? {
        guard let code = unsignedGolomb() else { return nil }
        return code % 2 == 1 ? (code + 1) / 2 : -(code / 2)
    }
}
