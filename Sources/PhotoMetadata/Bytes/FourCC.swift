/// Four ASCII characters packed big-endian, as box and chunk types are stored.
struct FourCC: Hashable, Sendable, CustomStringConvertible {
    let rawValue: UInt32

    init(rawValue: UInt32) { self.rawValue = rawValue }

    init(_ text: StaticString) {
        var value: UInt32 = 0
        text.withUTF8Buffer { for byte in $0.prefix(4) { value = value << 8 | UInt32(byte) } }
        rawValue = value
    }

    var description: String {
        String(decoding: (0..<4).map { UInt8(truncatingIfNeeded: rawValue >> (24 - 8 * $0)) }, as: UTF8.self)
    }
}

extension ByteView {
    func fourCC(_ offset: Int) throws(MetadataError) -> FourCC {
        FourCC(rawValue: try u32(offset, .bigEndian))
    }
}
