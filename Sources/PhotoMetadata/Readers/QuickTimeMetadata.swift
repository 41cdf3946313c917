/// The creation date in a movie's metadata boxes: QuickTime `meta` (`keys` + `ilst`), iTunes-style
/// `meta`/`ilst` items, and `udta` text atoms.
enum QuickTimeMetadata {
    static let creationDateKey = Array("com.apple.quicktime.creationdate".utf8)
    /// `©day`.
    static let dayAtom = FourCC(rawValue: 0xA964_6179)
    /// Most `keys` entries looked at.
    static let maximumKeys = 4096

    /// The creation date text in the content of a `meta` box, or `nil`.
    ///
    /// QuickTime's `meta` has no version and flags; ISO's (in `udta`) has them: both are accepted.
    static func creationDate(inMeta content: ByteView) -> String? {
        let start = content.matches(Array("hdlr".utf8), at: 4) ? 0 : 4
        let children = ISOBox.children(of: content, from: start, limit: 64)
        var keys: [Int: [UInt8]] = [:]
        if let keysBox = children.first(where: { $0.type == FourCC("keys") }) {
            keys = Self.keys(content.suffix(from: keysBox.contentStart).prefix(keysBox.contentSize))
        }
        guard let list = children.first(where: { $0.type == FourCC("ilst") }) else { return nil }
        for item in ISOBox.children(of: content, from: list.contentStart, to: list.end, limit: 1024) {
            let index = Int(item.type.rawValue)
            let isCreationDate = keys[index] == creationDateKey || item.type == dayAtom
            guard isCreationDate else { continue }
            for data in ISOBox.children(of: content, from: item.contentStart, to: item.end, limit: 16) where data.type == FourCC("data") {
                guard data.contentSize > 8, let type = try? content.u32(data.contentStart), type & 0xFF_FFFF == 1 else { continue }
                let value = content.suffix(from: data.contentStart + 8).prefix(min(data.contentSize - 8, 64))
                return String(decoding: value.array, as: UTF8.self)
            }
        }
        return nil
    }

    /// The creation date in the content of a `udta` box: a QuickTime `©day` text atom
    /// (16-bit length, 16-bit language, text) or an iTunes-style `meta` inside it.
    static func creationDate(inUserData content: ByteView) -> String? {
        for box in ISOBox.children(of: content, limit: 256) {
            if box.type == dayAtom, box.contentSize > 4, let length = try? content.u16(box.contentStart) {
                let text = content.suffix(from: box.contentStart + 4).prefix(min(Int(length), box.contentSize - 4, 64))
                // An iTunes-style item holds a `data` box instead of the length and language.
                if text.count > 0 && !content.matches(Array("data".utf8), at: box.contentStart + 4) {
                    return String(decoding: text.array, as: UTF8.self)
                }
            }
            if box.type == FourCC("meta"), let text = creationDate(inMeta: content.suffix(from: box.contentStart).prefix(box.contentSize)) {
                return text
            }
        }
        return nil
    }

    /// The `keys` box content: its names by 1-based index.
    static func keys(_ content: ByteView) -> [Int: [UInt8]] {
        guard let count = try? content.u32(4) else { return [:] }
        var keys: [Int: [UInt8]] = [:]
        var offset = 8
        var index = 1
        while index <= min(Int(count), maximumKeys) {
            guard let size = try? content.u32(offset), size >= 8, let name = try? content.view(offset + 8, Int(size) - 8) else { break }
            keys[index] = name.array
            offset += Int(size)
            index += 1
        }
        return keys
    }
}
