/// Finds a few named values in XMP or JSON text with one linear scan, without building a tree.
///
/// - Complexity: O(n · k) for a text of n bytes and a name of k bytes; no allocation beyond the
///   value found (at most `maximumValue` bytes).
struct SidecarScanner {
    /// Longest value taken: dates are short, anything longer is not one.
    static let maximumValue = 64

    private let text: ByteView

    init(_ text: ByteView) { self.text = text }

    /// The first byte that is not a byte-order mark or white space.
    var firstSignificantByte: UInt8? {
        var index = text.matches([0xEF, 0xBB, 0xBF]) ? 3 : 0
        while let byte = try? text.u8(index), Self.isSpace(byte) { index += 1 }
        return try? text.u8(index)
    }

    /// The value of an XMP property written as an attribute (`exif:DateTimeOriginal="…"`) or as
    /// an element (`<exif:DateTimeOriginal>…</exif:DateTimeOriginal>`), whichever comes first.
    func xmpValue(of name: [UInt8]) -> [UInt8]? {
        var from = 0
        while let found = find(name, from: from) {
            from = found + name.count
            // The name must stand alone: not the tail of a longer one (`myexif:DateTimeOriginal`).
            if found > 0, let before = try? text.u8(found - 1), Self.isNameByte(before) { continue }
            var index = from
            if (try? text.u8(index)) == UInt8(ascii: ">"), found > 0, (try? text.u8(found - 1)) == UInt8(ascii: "<") {
                return value(from: index + 1, until: UInt8(ascii: "<"))
            }
            while let byte = try? text.u8(index), Self.isSpace(byte) { index += 1 }
            guard (try? text.u8(index)) == UInt8(ascii: "=") else { continue }
            index += 1
            while let byte = try? text.u8(index), Self.isSpace(byte) { index += 1 }
            guard let quote = try? text.u8(index), quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") else { continue }
            return value(from: index + 1, until: quote)
        }
        return nil
    }

    /// `photoTakenTime.timestamp` of a Takeout JSON file: the digits (quoted or not) after
    /// `"timestamp"` inside the object that follows `"photoTakenTime"`.
    func takeoutTimestamp() -> Int64? {
        guard let key = find(Array("\"photoTakenTime\"".utf8), from: 0) else { return nil }
        var index = key + 16
        while let byte = try? text.u8(index), Self.isSpace(byte) || byte == UInt8(ascii: ":") { index += 1 }
        guard (try? text.u8(index)) == UInt8(ascii: "{") else { return nil }
        let objectStart = index
        // The object is flat ({"timestamp": "…", "formatted": "…"}): it ends at the first `}`.
        guard let objectEnd = text.firstIndex(of: UInt8(ascii: "}"), from: objectStart),
              let field = find(Array("\"timestamp\"".utf8), from: objectStart), field < objectEnd
        else { return nil }
        index = field + 11
        while let byte = try? text.u8(index), Self.isSpace(byte) || byte == UInt8(ascii: ":") || byte == UInt8(ascii: "\"") { index += 1 }
        var value: Int64 = 0
        var digits = 0
        while let byte = try? text.u8(index), byte >= 0x30, byte <= 0x39, digits < 12 {
            value = value * 10 + Int64(byte - 0x30)
            digits += 1
            index += 1
        }
        return digits > 0 ? value : nil
    }

    /// A number in a flat JSON object: `"field": 12.5` inside the object that follows `"object"`
    /// (Takeout's `geoData`: `{"latitude": …, "longitude": …, "altitude": …}`).
    func jsonNumber(_ field: String, inObject object: String) -> Double? {
        let key = Array("\"\(object)\"".utf8)
        guard let found = find(key, from: 0) else { return nil }
        var index = found + key.count
        while let byte = try? text.u8(index), Self.isSpace(byte) || byte == UInt8(ascii: ":") { index += 1 }
        guard (try? text.u8(index)) == UInt8(ascii: "{") else { return nil }
        let objectStart = index
        let fieldKey = Array("\"\(field)\"".utf8)
        guard let objectEnd = text.firstIndex(of: UInt8(ascii: "}"), from: objectStart),
              let at = find(fieldKey, from: objectStart), at < objectEnd
        else { return nil }
        index = at + fieldKey.count
        while let byte = try? text.u8(index), Self.isSpace(byte) || byte == UInt8(ascii: ":") { index += 1 }
        var number: [UInt8] = []
        while let byte = try? text.u8(index), number.count < Self.maximumValue,
              (byte >= 0x30 && byte <= 0x39) || "+-.eE".utf8.contains(byte) {
            number.append(byte)
            index += 1
        }
        return Double(String(decoding: number, as: UTF8.self))
    }

    /// The bytes from `start` up to `terminator`, when it comes within `maximumValue` bytes.
    private func value(from start: Int, until terminator: UInt8) -> [UInt8]? {
        var index = start
        while index < text.count, index - start <= Self.maximumValue {
            if (try? text.u8(index)) == terminator { return text.suffix(from: start).prefix(index - start).array }
            index += 1
        }
        return nil
    }

    /// The offset of the first occurrence of `pattern` at or after `from`.
    private func find(_ pattern: [UInt8], from: Int) -> Int? {
        guard let first = pattern.first else { return nil }
        var index = from
        while let candidate = text.firstIndex(of: first, from: index) {
            if text.matches(pattern, at: candidate) { return candidate }
            index = candidate + 1
        }
        return nil
    }

    private static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D }

    private static func isNameByte(_ byte: UInt8) -> Bool {
        (byte >= 0x30 && byte <= 0x39) || (byte | 0x20 >= 0x61 && byte | 0x20 <= 0x7A) || byte == 0x5F || byte == 0x2D || byte == 0x2E || byte >= 0x80
    }
}
