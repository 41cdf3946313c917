import WallClock
/// Parses EXIF date, sub-second and offset texts, leniently but never accepting an impossible date.
enum ExifDateParser {
    /// Years accepted from EXIF. Wider than for file names: the value was written as a date.
    static let years = 1800...2200

    /// `YYYY:MM:DD HH:MM:SS` and the lenient forms seen in real files: `-` or `/` between date
    /// parts, `T` before the time, missing seconds, fractional seconds, a trailing `Z` or `±HH:MM`,
    /// trailing NULs and spaces. A date whose time is missing or blank (`2019:01:01`,
    /// `2019:01:01   :  :  `) is midnight of that day; other text after the time is ignored.
    /// Returns `nil` for blanks, zeros and impossible calendar values.
    static func dateTime(_ text: String) -> (local: LocalDateTime, offset: UTCOffset?)? {
        var scanner = DigitScanner(trimmed(text))
        guard let year = scanner.number(digits: 4), scanner.skip(oneOf: ":-/."),
              let month = scanner.number(digits: 2), scanner.skip(oneOf: ":-/."),
              let day = scanner.number(digits: 2)
        else { return nil }
        let dayOnly = LocalDateTime(year: year, month: month, day: day)
        guard years.contains(year), dayOnly.isValid else { return nil }
        if scanner.restSatisfies({ $0 == 0x20 || $0 == 0x3A }) { return (dayOnly, nil) }

        guard scanner.skip(oneOf: " T"), scanner.skipSpaces() >= 0,
              let hour = scanner.number(digits: 2), scanner.skip(oneOf: ":."),
              let minute = scanner.number(digits: 2)
        else { return nil }
        var second = 0
        if scanner.skip(oneOf: ":.") {
            guard let value = scanner.number(digits: 2) else { return nil }
            second = value
        }
        var millisecond: Int?
        if scanner.peek(oneOf: ".,") {
            _ = scanner.skip(oneOf: ".,")
            millisecond = milliseconds(scanner.digits())
        }
        scanner.skipSpaces()
        let offset = scanner.isAtEnd ? nil : Self.offset(scanner.rest)
        let local = LocalDateTime(year: year, month: month, day: day, hour: hour, minute: minute, second: second, millisecond: millisecond)
        guard local.isValid else { return nil }
        return (local, offset)
    }

    /// Sub-second digits as milliseconds: `"813"` → 813, `"21"` → 210, `"054"` → 54, `"0532"` → 53.
    static func milliseconds(_ text: String) -> Int? {
        let digits = trimmed(text)
        guard !digits.isEmpty, digits.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
        var value = 0
        var count = 0
        for byte in digits.utf8.prefix(3) {
            value = value * 10 + Int(byte - 0x30)
            count += 1
        }
        while count < 3 {
            value *= 10
            count += 1
        }
        return value
    }

    /// `±HH:MM`, `±HHMM`, `±HH` or `Z`; `nil` for blanks and values beyond ±18 hours.
    static func offset(_ text: String) -> UTCOffset? {
        UTCOffset(iso8601: trimmed(text))
    }

    /// The text without the NULs, spaces and line ends that pad fixed-size EXIF fields; `text`
    /// itself, not a copy, when there is nothing to take off (as for most dates).
    static func trimmed(_ text: String) -> String {
        var contiguous = text
        let kept = contiguous.withUTF8(keptRange)
        guard kept.count != text.utf8.count else { return text }
        return contiguous.withUTF8 { String(decoding: UnsafeBufferPointer(rebasing: $0[kept]), as: UTF8.self) }
    }

    /// The text of a fixed-size field without its NULs and padding, made once from the bytes.
    static func trimmed(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: bytes[keptRange(bytes)]), as: UTF8.self)
    }

    /// The bytes before the first NUL, less the spaces, tabs and line ends after them and the
    /// spaces and tabs before them.
    private static func keptRange(_ bytes: UnsafeBufferPointer<UInt8>) -> Range<Int> {
        var end = bytes.firstIndex(of: 0) ?? bytes.count
        while end > 0, bytes[end - 1] == 0x20 || bytes[end - 1] == 0x09 || bytes[end - 1] == 0x0A || bytes[end - 1] == 0x0D { end -= 1 }
        var start = 0
        while start < end, bytes[start] == 0x20 || bytes[start] == 0x09 { start += 1 }
        return start..<end
    }
}
