/// Reads a JPEG (also MPO, and JPEGs embedded in raw files): APP1 Exif, the position in an
/// APP1 XMP packet, and the SOFn size.
///
/// Walks the marker segments from SOI to SOS, reading only segment headers, the first
/// Exif APP1, the first XMP APP1 and the first frame header.
enum JPEGReader {
    /// Most segments walked before giving up (real files have a few dozen).
    static let maximumSegments = 4096
    /// The name that starts an APP1 XMP packet.
    static let xmpNamespace = Array("http://ns.adobe.com/xap/1.0/".utf8) + [0]

    /// Reads the JPEG that starts at file offset `start` (its SOI marker).
    static func read(_ file: FileBytes, at start: Int = 0, into facts: inout ImageFacts) throws(MetadataError) {
        let soi = try file.view(at: start, count: 2, readAhead: 64 * 1024)
        guard soi.matches([0xFF, 0xD8]) else { throw .malformed("The embedded JPEG has no start-of-image marker.") }
        var position = start + 2
        var foundExif = false
        var foundXMP = false
        for _ in 0..<maximumSegments {
            guard position + 2 <= file.size else { throw MetadataError(.truncated, "The JPEG ends before its image data.") }
            var header = try file.view(at: position, upTo: 4, readAhead: 64 * 1024)
            if try header.u8(0) != 0xFF {
                guard let next = try resynchronize(file, from: position) else { return }
                position = next
                header = try file.view(at: position, upTo: 4, readAhead: 64 * 1024)
            }
            let marker = try header.u8(1)
            switch marker {
            case 0xFF:
                position += 1
                continue
            case 0x00, 0x01, 0xD0...0xD8:
                position += 2
                continue
            case 0xD9, 0xDA:
                return
            default:
                break
            }
            let length = Int(try header.u16(2))
            guard length >= 2 else { throw .malformed("A JPEG segment has an impossible length (\(length)).") }
            let payloadStart = position + 4
            let payloadLength = length - 2
            if marker == 0xE1, !foundExif || !foundXMP, payloadLength > 14 {
                let payload = try file.view(at: payloadStart, upTo: payloadLength, readAhead: 64 * 1024)
                if !foundExif, payload.matches(ExifDecoder.exifMarker.prefix(4)), payload.count > 6 {
                    foundExif = true
                    facts.exif = ExifBlock.values(in: payload, tiffStart: 6)
                } else if !foundXMP, payload.matches(xmpNamespace) {
                    foundXMP = true
                    let packet = payload.suffix(from: xmpNamespace.count)
                    facts.position = SidecarReader.xmpPosition(SidecarScanner(packet))
                }
            } else if isFrameHeader(marker), facts.pixelSize == nil {
                let frame = try file.view(at: payloadStart, count: min(payloadLength, 5))
                facts.setSize(width: Int(try frame.u16(3)), height: Int(try frame.u16(1)))
            }
            position = payloadStart + payloadLength
        }
        throw .malformed("The JPEG has more than \(maximumSegments) segments before its image data.")
    }

    /// SOF0–SOF15 except DHT (C4), JPG (C8) and DAC (CC).
    static func isFrameHeader(_ marker: UInt8) -> Bool {
        (0xC0...0xCF).contains(marker) && marker != 0xC4 && marker != 0xC8 && marker != 0xCC
    }

    /// The offset of the next marker after stray bytes between segments, or `nil` when none is near.
    private static func resynchronize(_ file: FileBytes, from position: Int) throws(MetadataError) -> Int? {
        let window = try file.view(at: position, upTo: 4096)
        var index = 0
        while let found = window.firstIndex(of: 0xFF, from: index) {
            if found + 1 < window.count, let next = try? window.u8(found + 1), next != 0x00, next != 0xFF {
                return position + found
            }
            index = found + 1
        }
        return nil
    }
}
