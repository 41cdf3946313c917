/// The `Content-Disposition` of an original (RFC 6266): shown in place, or saved as a download,
/// under the file's own name.
enum ContentDisposition {
    /// `inline` or `attachment`, with an ASCII `filename` (other bytes, quotes, backslashes and
    /// control characters as `_`) and the exact name as `filename*=UTF-8''…` (RFC 8187).
    static func value(fileName: String, attachment: Bool) -> String {
        let kind = attachment ? "attachment" : "inline"
        guard !fileName.isEmpty else { return kind }
        let fallback = String(fileName.unicodeScalars.map { scalar -> Character in
            scalar.isASCII && scalar.value >= 0x20 && scalar.value != 0x7F && scalar != "\"" && scalar != "\\" ? Character(scalar) : "_"
        })
        return "\(kind); filename=\"\(fallback)\"; filename*=UTF-8''\(percentEncoded(fileName))"
    }

    /// RFC 8187's `attr-char` kept, every other UTF-8 byte as `%XX`.
    static func percentEncoded(_ text: String) -> String {
        let kept = Set("!#$&+-.^_`|~".utf8)
        let hex = Array("0123456789ABCDEF".utf8)
        var out: [UInt8] = []
        for byte in text.utf8 {
            let isAlphanumeric = (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
            if isAlphanumeric || kept.contains(byte) {
                out.append(byte)
            } else {
                out += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]]
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}
