/// The text form of a local date-time, as the store and every front end write it.
extension LocalDateTime: CustomStringConvertible {
    /// `YYYY-MM-DDTHH:MM:SS`, followed by `.fff` when the millisecond is known.
    public var iso8601: String {
        let pad = CivilCalendar.padded
        var text = pad(year, 4) + "-" + pad(month, 2) + "-" + pad(day, 2)
        text += "T" + pad(hour, 2) + ":" + pad(minute, 2) + ":" + pad(second, 2)
        if let millisecond { text += "." + pad(millisecond, 3) }
        return text
    }

    public var description: String { iso8601 }

    /// Appends the `iso8601` text as UTF-8, without building a String (listings write a million):
    /// `separator` between date and time (`T`, or a space for tables), and `.fff` when the
    /// millisecond is known and `milliseconds` is true.
    public func appendISO8601(to out: inout [UInt8], separator: UInt8 = UInt8(ascii: "T"), milliseconds: Bool = true) {
        func digits(_ value: Int, _ width: Int) {
            guard value >= 0 else {
                out.append(contentsOf: CivilCalendar.padded(value, width).utf8)
                return
            }
            var divisor = 1
            for _ in 1..<width { divisor *= 10 }
            while divisor * 10 <= value { divisor *= 10 }
            while divisor > 0 {
                out.append(UInt8(truncatingIfNeeded: 48 + value / divisor % 10))
                divisor /= 10
            }
        }
        digits(year, 4)
        out.append(UInt8(ascii: "-"))
        digits(month, 2)
        out.append(UInt8(ascii: "-"))
        digits(day, 2)
        out.append(separator)
        digits(hour, 2)
        out.append(UInt8(ascii: ":"))
        digits(minute, 2)
        out.append(UInt8(ascii: ":"))
        digits(second, 2)
        if milliseconds, let millisecond {
            out.append(UInt8(ascii: "."))
            digits(millisecond, 3)
        }
    }

    /// Parses `YYYY-MM-DDTHH:MM:SS` with an optional `.f`, `.ff` or `.fff`, as `iso8601` writes it.
    ///
    /// Returns `nil` for any other form and for values that are not `isValid`.
    public init?(iso8601 text: String) {
        var text = text
        guard let value = text.withUTF8({ LocalDateTime(iso8601Bytes: UnsafeRawBufferPointer($0)) }) else { return nil }
        self = value
    }

    /// Parses the UTF-8 bytes of the `iso8601` form without building a String (the store reads
    /// a million of them). The same rules as `init?(iso8601:)`.
    ///
    /// - Complexity: O(1); at most 23 bytes are read.
    public init?(iso8601Bytes bytes: UnsafeRawBufferPointer) {
        guard let value = LocalDateTime(unvalidatedISO8601Bytes: bytes), value.isValid else { return nil }
        self = value
    }

    /// Parses the `iso8601` form's bytes without checking that the numbers name a real date and
    /// time ("2021-02-30T25:00:00" is accepted): for readers that count such rows themselves.
    ///
    /// - Complexity: O(1); at most 23 bytes are read.
    public init?(unvalidatedISO8601Bytes bytes: UnsafeRawBufferPointer) {
        func number(_ from: Int, _ count: Int) -> Int? {
            var value = 0
            for index in from..<(from + count) {
                let digit = Int(bytes[index]) &- 48
                guard (0...9).contains(digit) else { return nil }
                value = value * 10 + digit
            }
            return value
        }
        func separator(_ index: Int, _ character: Unicode.Scalar) -> Bool { bytes[index] == UInt8(ascii: character) }
        guard bytes.count == 19 || (21...23).contains(bytes.count),
              separator(4, "-"), separator(7, "-"), separator(10, "T"), separator(13, ":"), separator(16, ":"),
              let year = number(0, 4), let month = number(5, 2), let day = number(8, 2),
              let hour = number(11, 2), let minute = number(14, 2), let second = number(17, 2)
        else { return nil }
        var millisecond: Int?
        if bytes.count > 19 {
            // ".f", ".ff" or ".fff": fractions of a second, scaled to milliseconds.
            guard separator(19, "."), let fraction = number(20, bytes.count - 20) else { return nil }
            millisecond = fraction * [100, 10, 1][bytes.count - 21]
        }
        self.init(year: year, month: month, day: day, hour: hour, minute: minute, second: second, millisecond: millisecond)
    }
}
