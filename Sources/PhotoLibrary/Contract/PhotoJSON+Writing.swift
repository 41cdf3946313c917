import WallClock
public import LibraryIndex
import PhotoMetadata

/// `PhotoJSON` written by hand, byte for byte as `ContractJSON.encode` writes it, for lists of a
/// million rows: no encoder, no intermediate `Data` per row.
extension PhotoJSON {
    /// Appends the pretty-printed object (keys sorted, two-space indent, no trailing newline).
    ///
    /// - Throws: `EncodingError` for a non-finite duration, as `JSONEncoder` does.
    public func appendPrettyJSON(to out: inout [UInt8]) throws {
        out.append(contentsOf: "{\n  \"captured\" : ".utf8)
        JSONText.appendString(captured, to: &out)
        out.append(contentsOf: ",\n  \"dateSource\" : ".utf8)
        JSONText.appendString(dateSource, to: &out)
        out.append(contentsOf: ",\n  \"duplicateOf\" : ".utf8)
        JSONText.appendOptionalString(duplicateOf, to: &out)
        out.append(contentsOf: ",\n  \"duration\" : ".utf8)
        if let duration { try JSONText.appendNumber(duration, to: &out) } else { out.append(contentsOf: "null".utf8) }
        out.append(contentsOf: ",\n  \"error\" : ".utf8)
        JSONText.appendOptionalString(error, to: &out)
        out.append(contentsOf: ",\n  \"format\" : ".utf8)
        JSONText.appendOptionalString(format, to: &out)
        out.append(contentsOf: ",\n  \"height\" : ".utf8)
        JSONText.appendOptionalInteger(height, to: &out)
        out.append(contentsOf: ",\n  \"latitude\" : ".utf8)
        try JSONText.appendOptionalNumber(latitude, to: &out)
        out.append(contentsOf: ",\n  \"longitude\" : ".utf8)
        try JSONText.appendOptionalNumber(longitude, to: &out)
        out.append(contentsOf: ",\n  \"mediaType\" : ".utf8)
        JSONText.appendString(mediaType, to: &out)
        out.append(contentsOf: ",\n  \"missing\" : ".utf8)
        out.append(contentsOf: (missing ? "true" : "false").utf8)
        out.append(contentsOf: ",\n  \"offset\" : ".utf8)
        JSONText.appendOptionalString(offset, to: &out)
        out.append(contentsOf: ",\n  \"offsetSource\" : ".utf8)
        JSONText.appendOptionalString(offsetSource, to: &out)
        out.append(contentsOf: ",\n  \"path\" : ".utf8)
        JSONText.appendString(path, to: &out)
        if let pathBytes {
            out.append(contentsOf: ",\n  \"pathBytes\" : ".utf8)
            JSONText.appendString(pathBytes, to: &out)
        }
        JSONText.appendPlace(place, to: &out)
        out.append(contentsOf: ",\n  \"stack\" : ".utf8)
        JSONText.appendOptionalInteger(stack.map(Int.init), to: &out)
        out.append(contentsOf: ",\n  \"width\" : ".utf8)
        JSONText.appendOptionalInteger(width, to: &out)
        out.append(contentsOf: "\n}".utf8)
    }
}

/// JSON scalars as Foundation's `JSONEncoder` writes them with `.withoutEscapingSlashes`.
package enum JSONText {
    /// A quoted string: `"` and `\` escaped, `\b \t \n \f \r`, other C0 controls as `\u00xx`
    /// (lowercase hex); everything else, DEL and non-ASCII included, as it is.
    static func appendString(_ text: String, to out: inout [UInt8]) {
        var text = text
        text.withUTF8 { appendString(utf8: $0, to: &out) }
    }

    /// A quoted string from valid UTF-8 bytes (see ``appendString(_:to:)``).
    static func appendString(utf8 bytes: UnsafeBufferPointer<UInt8>, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        var start = 0
        for (i, byte) in bytes.enumerated() where byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") {
            out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<i]))
            start = i + 1
            switch byte {
            case UInt8(ascii: "\""): out.append(contentsOf: #"\""#.utf8)
            case UInt8(ascii: "\\"): out.append(contentsOf: #"\\"#.utf8)
            case 0x08: out.append(contentsOf: #"\b"#.utf8)
            case 0x09: out.append(contentsOf: #"\t"#.utf8)
            case 0x0A: out.append(contentsOf: #"\n"#.utf8)
            case 0x0C: out.append(contentsOf: #"\f"#.utf8)
            case 0x0D: out.append(contentsOf: #"\r"#.utf8)
            default:
                let hex = Array("0123456789abcdef".utf8)
                out.append(contentsOf: #"\u00"#.utf8)
                out.append(hex[Int(byte >> 4)])
                out.append(hex[Int(byte & 0xF)])
            }
        }
        out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start...]))
        out.append(UInt8(ascii: "\""))
    }

    static func appendOptionalString(_ text: String?, to out: inout [UInt8]) {
        if let text { appendString(text, to: &out) } else { out.append(contentsOf: "null".utf8) }
    }

    static func appendOptionalInteger(_ value: Int?, to out: inout [UInt8]) {
        guard let value else { return out.append(contentsOf: "null".utf8) }
        out.append(contentsOf: String(value).utf8)
    }

    static func appendOptionalNumber(_ value: Double?, to out: inout [UInt8]) throws {
        if let value { try appendNumber(value, to: &out) } else { out.append(contentsOf: "null".utf8) }
    }

    /// Swift's shortest round-trip form without a trailing `.0` (`3`, `2.5`, `1e+21`).
    static func appendNumber(_ value: Double, to out: inout [UInt8]) throws {
        guard value.isFinite else {
            throw EncodingError.invalidValue(value, EncodingError.Context(codingPath: [], debugDescription: "Unable to encode \(value) directly in JSON."))
        }
        var text = value.description
        if text.hasSuffix(".0") { text.removeLast(2) }
        out.append(contentsOf: text.utf8)
    }
}

extension PhotoJSON {
    /// Appends `PhotoJSON(photo)` as ``appendPrettyJSON(to:)`` would, straight from the row: no
    /// intermediate strings for the date, the offset or a UTF-8 path; `stack` and `duplicateOf`
    /// are the photo's (see `PhotoJSON`).
    public static func appendPrettyJSON(of photo: IndexedPhoto, stack: Int64? = nil, duplicateOf: String? = nil, to out: inout [UInt8]) throws {
        let date = photo.captureDate
        out.append(contentsOf: "{\n  \"captured\" : \"".utf8)
        date.local.appendISO8601(to: &out)
        out.append(contentsOf: "\",\n  \"dateSource\" : ".utf8)
        JSONText.appendString(date.source.rawValue, to: &out)
        out.append(contentsOf: ",\n  \"duplicateOf\" : ".utf8)
        JSONText.appendOptionalString(duplicateOf, to: &out)
        out.append(contentsOf: ",\n  \"duration\" : ".utf8)
        if let duration = photo.duration {
            try JSONText.appendNumber((duration * 1000).rounded() / 1000, to: &out)
        } else {
            out.append(contentsOf: "null".utf8)
        }
        out.append(contentsOf: ",\n  \"error\" : ".utf8)
        JSONText.appendOptionalString(photo.error, to: &out)
        out.append(contentsOf: ",\n  \"format\" : ".utf8)
        JSONText.appendOptionalString(photo.format?.rawValue, to: &out)
        out.append(contentsOf: ",\n  \"height\" : ".utf8)
        JSONText.appendOptionalInteger(photo.displaySize?.height, to: &out)
        out.append(contentsOf: ",\n  \"latitude\" : ".utf8)
        try JSONText.appendOptionalNumber(photo.position.map { degrees($0.latitude) }, to: &out)
        out.append(contentsOf: ",\n  \"longitude\" : ".utf8)
        try JSONText.appendOptionalNumber(photo.position.map { degrees($0.longitude) }, to: &out)
        out.append(contentsOf: ",\n  \"mediaType\" : ".utf8)
        JSONText.appendString(photo.mediaType.rawValue, to: &out)
        out.append(contentsOf: ",\n  \"missing\" : ".utf8)
        out.append(contentsOf: (photo.missingSince != nil ? "true" : "false").utf8)
        out.append(contentsOf: ",\n  \"offset\" : ".utf8)
        if let offset = date.offset {
            let minutes = abs(offset.seconds) / 60
            out.append(contentsOf: (offset.seconds < 0 ? "\"-" : "\"+").utf8)
            JSONText.appendDigits(minutes / 60, width: 2, to: &out)
            out.append(UInt8(ascii: ":"))
            JSONText.appendDigits(minutes % 60, width: 2, to: &out)
            out.append(UInt8(ascii: "\""))
        } else {
            out.append(contentsOf: "null".utf8)
        }
        out.append(contentsOf: ",\n  \"offsetSource\" : ".utf8)
        JSONText.appendOptionalString(date.offsetSource?.rawValue, to: &out)
        out.append(contentsOf: ",\n  \"path\" : ".utf8)
        let bytes = photo.path.bytes
        if bytes.allSatisfy({ $0 < 0x80 }) || String(validating: bytes, as: UTF8.self) != nil {
            bytes.withUnsafeBufferPointer { JSONText.appendString(utf8: $0, to: &out) }
        } else {
            JSONText.appendString(photo.path.string, to: &out)
            out.append(contentsOf: ",\n  \"pathBytes\" : ".utf8)
            JSONText.appendString(ContractJSON.base64(bytes), to: &out)
        }
        JSONText.appendPlace(photo.place, to: &out)
        out.append(contentsOf: ",\n  \"stack\" : ".utf8)
        JSONText.appendOptionalInteger(stack.map(Int.init), to: &out)
        out.append(contentsOf: ",\n  \"width\" : ".utf8)
        JSONText.appendOptionalInteger(photo.displaySize?.width, to: &out)
        out.append(contentsOf: "\n}".utf8)
    }
}

extension JSONText {
    /// `,\n  "place" : ` and the place object one level in (keys sorted), or `null`.
    static func appendPlace(_ place: PhotoPlace?, to out: inout [UInt8]) {
        out.append(contentsOf: ",\n  \"place\" : ".utf8)
        guard let place else {
            out.append(contentsOf: "null".utf8)
            return
        }
        out.append(contentsOf: "{\n    \"city\" : ".utf8)
        appendOptionalString(place.city, to: &out)
        out.append(contentsOf: ",\n    \"country\" : ".utf8)
        appendOptionalString(place.country, to: &out)
        out.append(contentsOf: ",\n    \"countryCode\" : ".utf8)
        appendOptionalString(place.countryCode, to: &out)
        out.append(contentsOf: ",\n    \"region\" : ".utf8)
        appendOptionalString(place.region, to: &out)
        out.append(contentsOf: "\n  }".utf8)
    }

    /// `value` in decimal, zero-padded to `width` digits as `LocalDateTime.iso8601` pads it.
    package static func appendDigits(_ value: Int, width: Int, to out: inout [UInt8]) {
        if width == 2 && value >= 0 && value < 100 {
            out.append(UInt8(truncatingIfNeeded: 48 + value / 10))
            out.append(UInt8(truncatingIfNeeded: 48 + value % 10))
            return
        }
        guard value >= 0 else {
            let digits = String(value)
            out.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: max(0, width - digits.count)))
            out.append(contentsOf: digits.utf8)
            return
        }
        var digits: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) =
            (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        var count = 0
        withUnsafeMutableBytes(of: &digits) { buffer in
            var rest = value
            repeat {
                buffer[19 - count] = UInt8(ascii: "0") + UInt8(rest % 10)
                rest /= 10
                count += 1
            } while rest > 0
            out.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: max(0, width - count)))
            out.append(contentsOf: buffer[(20 - count)...])
        }
    }
}

extension PhotoDetailJSON {
    /// Appends the compact object (keys sorted, no spaces), byte for byte as
    /// `ContractJSON.encode(_:compact: true)` writes it: a search answer of a thousand photos
    /// without an encoder.
    ///
    /// - Throws: `EncodingError` for a non-finite number, as `JSONEncoder` does.
    public func appendCompactJSON(to out: inout [UInt8]) throws {
        func key(_ name: String) {
            out.append(contentsOf: (out.last == UInt8(ascii: "{") ? "\"" : ",\"").utf8)
            out.append(contentsOf: name.utf8)
            out.append(contentsOf: "\":".utf8)
        }
        out.append(UInt8(ascii: "{"))
        key("captured"); JSONText.appendString(photo.captured, to: &out)
        key("dateSource"); JSONText.appendString(photo.dateSource, to: &out)
        key("duplicateOf"); JSONText.appendOptionalString(photo.duplicateOf, to: &out)
        key("duration"); try JSONText.appendOptionalNumber(photo.duration, to: &out)
        key("error"); JSONText.appendOptionalString(photo.error, to: &out)
        key("fileSize"); out.append(contentsOf: String(fileSize).utf8)
        key("format"); JSONText.appendOptionalString(photo.format, to: &out)
        key("height"); JSONText.appendOptionalInteger(photo.height, to: &out)
        key("id"); out.append(contentsOf: String(id).utf8)
        key("latitude"); try JSONText.appendOptionalNumber(photo.latitude, to: &out)
        key("longitude"); try JSONText.appendOptionalNumber(photo.longitude, to: &out)
        key("make"); JSONText.appendOptionalString(make, to: &out)
        if let matchedMember { key("matchedMember"); out.append(contentsOf: String(matchedMember).utf8) }
        key("mediaType"); JSONText.appendString(photo.mediaType, to: &out)
        key("missing"); out.append(contentsOf: (photo.missing ? "true" : "false").utf8)
        key("model"); JSONText.appendOptionalString(model, to: &out)
        key("offset"); JSONText.appendOptionalString(photo.offset, to: &out)
        key("offsetSource"); JSONText.appendOptionalString(photo.offsetSource, to: &out)
        key("orientation"); JSONText.appendOptionalInteger(orientation, to: &out)
        key("path"); JSONText.appendString(photo.path, to: &out)
        if let pathBytes = photo.pathBytes { key("pathBytes"); JSONText.appendString(pathBytes, to: &out) }
        key("pixelHeight"); JSONText.appendOptionalInteger(pixelHeight, to: &out)
        key("pixelWidth"); JSONText.appendOptionalInteger(pixelWidth, to: &out)
        key("place")
        if let place = photo.place {
            out.append(contentsOf: "{\"city\":".utf8); JSONText.appendOptionalString(place.city, to: &out)
            out.append(contentsOf: ",\"country\":".utf8); JSONText.appendOptionalString(place.country, to: &out)
            out.append(contentsOf: ",\"countryCode\":".utf8); JSONText.appendOptionalString(place.countryCode, to: &out)
            out.append(contentsOf: ",\"region\":".utf8); JSONText.appendOptionalString(place.region, to: &out)
            out.append(UInt8(ascii: "}"))
        } else {
            out.append(contentsOf: "null".utf8)
        }
        key("stack"); JSONText.appendOptionalInteger(photo.stack.map(Int.init), to: &out)
        if let stackCount { key("stackCount"); out.append(contentsOf: String(stackCount).utf8) }
        key("width"); JSONText.appendOptionalInteger(photo.width, to: &out)
        out.append(UInt8(ascii: "}"))
    }
}
