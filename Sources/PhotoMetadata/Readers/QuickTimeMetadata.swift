/// The creation date and location in a movie's metadata boxes: QuickTime `meta` (`keys` +
/// `ilst`), iTunes-style `meta`/`ilst` items, and `udta` text atoms.
enum QuickTimeMetadata {
    /// The texts found, as written.
    struct Texts: Sendable, Hashable {
        var creationDate: String?
        /// ISO 6709, e.g. `+37.3349-122.0090+010.000/`.
        var location: String?

        /// These texts with every missing one taken from `other`.
        func filling(from other: Texts) -> Texts {
            Texts(creationDate: creationDate ?? other.creationDate, location: location ?? other.location)
        }
    }

    static let creationDateKey = Array("com.apple.quicktime.creationdate".utf8)
    static let locationKey = Array("com.apple.quicktime.location.ISO6709".utf8)
    /// `©day`.
    static let dayAtom = FourCC(rawValue: 0xA964_6179)
    /// `©xyz`: an ISO 6709 location.
    static let locationAtom = FourCC(rawValue: 0xA978_797A)
    /// Most `keys` entries looked at.
    static let maximumKeys = 4096

    /// The creation date and location texts in the content of a `meta` box.
    ///
    /// QuickTime's `meta` has no version and flags; ISO's (in `udta`) has them: both are accepted.
    static func texts(inMeta content: ByteView) -> Texts {
        let start = content.matches(Array("hdlr".utf8), at: 4) ? 0 : 4
        let children = ISOBox.children(of: content, from: start, limit: 64)
        var keys: [Int: [UInt8]] = [:]
        if let keysBox = children.first(where: { $0.type == FourCC("keys") }) {
            keys = Self.keys(content.suffix(from: keysBox.contentStart).prefix(keysBox.contentSize))
        }
        var texts = Texts()
        guard let list = children.first(where: { $0.type == FourCC("ilst") }) else { return texts }
        for item in ISOBox.children(of: content, from: list.contentStart, to: list.end, limit: 1024) {
            let key = keys[Int(item.type.rawValue)]
            let isCreationDate = key == creationDateKey || item.type == dayAtom
            let isLocation = key == locationKey || item.type == locationAtom
            guard (isCreationDate && texts.creationDate == nil) || (isLocation && texts.location == nil) else { continue }
            for data in ISOBox.children(of: content, from: item.contentStart, to: item.end, limit: 16) where data.type == FourCC("data") {
                guard data.contentSize > 8, let type = try? content.u32(data.contentStart), type & 0xFF_FFFF == 1 else { continue }
                let value = content.suffix(from: data.contentStart + 8).prefix(min(data.contentSize - 8, 64))
                let text = String(decoding: value.array, as: UTF8.self)
                if isCreationDate { texts.creationDate = text } else { texts.location = text }
                break
            }
        }
        return texts
    }

    /// The creation date and location in the content of a `udta` box: QuickTime `©day` and
    /// `©xyz` text atoms (16-bit length, 16-bit language, text) or an iTunes-style `meta` inside it.
    static func texts(inUserData content: ByteView) -> Texts {
        var texts = Texts()
        for box in ISOBox.children(of: content, limit: 256) {
            if box.type == dayAtom || box.type == locationAtom, box.contentSize > 4, let length = try? content.u16(box.contentStart) {
                let text = content.suffix(from: box.contentStart + 4).prefix(min(Int(length), box.contentSize - 4, 64))
                // An iTunes-style item holds a `data` box instead of the length and language.
                if text.count > 0 && !content.matches(Array("data".utf8), at: box.contentStart + 4) {
                    let value = String(decoding: text.array, as: UTF8.self)
                    if box.type == dayAtom {
                        texts.creationDate = texts.creationDate ?? value
                    } else {
                        texts.location = texts.location ?? value
                    }
                }
            }
            if box.type == FourCC("meta") {
                texts = texts.filling(from: Self.texts(inMeta: content.suffix(from: box.contentStart).prefix(box.contentSize)))
            }
        }
        return texts
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
