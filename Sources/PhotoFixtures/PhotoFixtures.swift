/// Builders of small, valid image files, made by the project itself for its tests and benchmarks.
///
/// Stub: the JPEG writer is minimal (header-valid, pixel data not decodable) until the full
/// fixture writer lands.
public enum PhotoFixtures {
    /// A baseline JPEG of the given pixel size with an APP1 Exif segment holding `exif`.
    public static func jpeg(width: Int, height: Int, exif: ExifFields = ExifFields()) -> [UInt8] {
        var bytes: [UInt8] = [0xFF, 0xD8]
        let tiff = tiffExif(exif)
        if !tiff.isEmpty {
            let payload: [UInt8] = Array("Exif".utf8) + [0, 0] + tiff
            bytes += [0xFF, 0xE1] + be16(payload.count + 2) + payload
        }
        // SOF0: 8-bit, one component.
        bytes += [0xFF, 0xC0] + be16(11) + [8] + be16(height) + be16(width) + [1, 1, 0x11, 0]
        bytes += [0xFF, 0xD9]
        return bytes
    }

    /// A little-endian TIFF structure with IFD0 and an Exif sub-IFD, or empty when `exif` has no field.
    static func tiffExif(_ exif: ExifFields) -> [UInt8] {
        var ifd0: [(tag: UInt16, type: UInt16, value: [UInt8], count: Int)] = []
        var sub: [(tag: UInt16, type: UInt16, value: [UInt8], count: Int)] = []
        func ascii(_ s: String) -> ([UInt8], Int) { let b = Array(s.utf8) + [0]; return (b, b.count) }
        if let v = exif.make { let a = ascii(v); ifd0.append((0x010F, 2, a.0, a.1)) }
        if let v = exif.model { let a = ascii(v); ifd0.append((0x0110, 2, a.0, a.1)) }
        if let v = exif.orientation { ifd0.append((0x0112, 3, le16(v) + [0, 0], 1)) }
        if let v = exif.dateTime { let a = ascii(v); ifd0.append((0x0132, 2, a.0, a.1)) }
        if let v = exif.dateTimeOriginal { let a = ascii(v); sub.append((0x9003, 2, a.0, a.1)) }
        if let v = exif.dateTimeDigitized { let a = ascii(v); sub.append((0x9004, 2, a.0, a.1)) }
        if let v = exif.offsetTimeOriginal { let a = ascii(v); sub.append((0x9011, 2, a.0, a.1)) }
        if let v = exif.subSecTimeOriginal { let a = ascii(v); sub.append((0x9291, 2, a.0, a.1)) }
        if ifd0.isEmpty && sub.isEmpty { return [] }
        if !sub.isEmpty { ifd0.append((0x8769, 4, [0, 0, 0, 0], 1)) }
        ifd0.sort { $0.tag < $1.tag }
        sub.sort { $0.tag < $1.tag }

        var out: [UInt8] = [0x49, 0x49, 0x2A, 0x00] + le32(8)
        func ifdSize(_ n: Int) -> Int { 2 + 12 * n + 4 }
        let ifd0Start = 8
        let ifd0DataStart = ifd0Start + ifdSize(ifd0.count)
        let ifd0DataLength = ifd0.reduce(0) { $0 + ($1.value.count > 4 ? ($1.value.count + 1) & ~1 : 0) }
        let subStart = ifd0DataStart + ifd0DataLength

        func write(_ entries: [(tag: UInt16, type: UInt16, value: [UInt8], count: Int)], dataStart: Int, into out: inout [UInt8]) {
            out += le16(entries.count)
            var data: [UInt8] = []
            for e in entries {
                out += le16(Int(e.tag)) + le16(Int(e.type)) + le32(e.count)
                if e.tag == 0x8769 {
                    out += le32(subStart)
                } else if e.value.count <= 4 {
                    out += e.value + [UInt8](repeating: 0, count: 4 - e.value.count)
                } else {
                    out += le32(dataStart + data.count)
                    data += e.value
                    if data.count % 2 == 1 { data.append(0) }
                }
            }
            out += le32(0)
            out += data
        }
        write(ifd0, dataStart: ifd0DataStart, into: &out)
        if !sub.isEmpty { write(sub, dataStart: subStart + ifdSize(sub.count), into: &out) }
        return out
    }

    static func be16(_ v: Int) -> [UInt8] { [UInt8((v >> 8) & 0xFF), UInt8(v & 0xFF)] }
    static func le16(_ v: Int) -> [UInt8] { [UInt8(v & 0xFF), UInt8((v >> 8) & 0xFF)] }
    static func le32(_ v: Int) -> [UInt8] { [UInt8(v & 0xFF), UInt8((v >> 8) & 0xFF), UInt8((v >> 16) & 0xFF), UInt8((v >> 24) & 0xFF)] }
}
