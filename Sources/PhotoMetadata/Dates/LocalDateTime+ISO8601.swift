/// Text forms of a local date-time, as the store and the command line write them.
extension LocalDateTime: CustomStringConvertible {
    /// `YYYY-MM-DDTHH:MM:SS`, followed by `.fff` when the millisecond is known.
    public var iso8601: String {
        var text = Self.padded(year, 4) + "-" + Self.padded(month, 2) + "-" + Self.padded(day, 2)
        text += "T" + Self.padded(hour, 2) + ":" + Self.padded(minute, 2) + ":" + Self.padded(second, 2)
        if let millisecond { text += "." + Self.padded(millisecond, 3) }
        return text
    }

    public var description: String { iso8601 }

    /// Parses `YYYY-MM-DDTHH:MM:SS` with an optional `.fff` (1 to 3 digits), as `iso8601` writes it.
    ///
    /// Returns `nil` for any other form and for impossible calendar values.
    public init?(iso8601 text: String) {
        var scanner = DigitScanner(text)
        guard let year = scanner.number(digits: 4), scanner.skip(oneOf: "-"),
              let month = scanner.number(digits: 2), scanner.skip(oneOf: "-"),
              let day = scanner.number(digits: 2), scanner.skip(oneOf: "T"),
              let hour = scanner.number(digits: 2), scanner.skip(oneOf: ":"),
              let minute = scanner.number(digits: 2), scanner.skip(oneOf: ":"),
              let second = scanner.number(digits: 2)
        else { return nil }
        var millisecond: Int?
        if scanner.skip(oneOf: ".") {
            let fraction = scanner.digits()
            guard (1...3).contains(fraction.utf8.count) else { return nil }
            millisecond = ExifDateParser.milliseconds(fraction)
        }
        guard scanner.isAtEnd else { return nil }
        self.init(year: year, month: month, day: day, hour: hour, minute: minute, second: second, millisecond: millisecond)
        guard isValid else { return nil }
    }

    /// Whether every field is in its calendar range (days per month, leap years; seconds 0–59).
    var isValid: Bool {
        guard (1...12).contains(month), (0...9999).contains(year) else { return false }
        guard (1...Self.daysIn(month: month, year: year)).contains(day) else { return false }
        guard (0...23).contains(hour), (0...59).contains(minute), (0...59).contains(second) else { return false }
        if let millisecond, !(0...999).contains(millisecond) { return false }
        return true
    }

    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    static func padded(_ value: Int, _ width: Int) -> String {
        let digits = String(value)
        return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
    }
}
