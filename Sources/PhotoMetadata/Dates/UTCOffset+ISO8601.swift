import WallClock
/// Text forms of a UTC offset.
extension UTCOffset: CustomStringConvertible {
    /// `+HH:MM` or `-HH:MM` (`+00:00` for UTC). Seconds beyond whole minutes are dropped.
    public var iso8601: String {
        let minutes = abs(seconds) / 60
        return (seconds < 0 ? "-" : "+") + CivilCalendar.padded(minutes / 60, 2) + ":" + CivilCalendar.padded(minutes % 60, 2)
    }

    public var description: String { iso8601 }

    /// Parses `±HH:MM`, `±HHMM`, `±HH` or `Z`; `nil` for anything else or beyond ±18:00.
    public init?(iso8601 text: String) {
        if text == "Z" || text == "z" {
            self.init(seconds: 0)
            return
        }
        var scanner = DigitScanner(text)
        let sign: Int
        if scanner.skip(oneOf: "+") {
            sign = 1
        } else if scanner.skip(oneOf: "-") {
            sign = -1
        } else {
            return nil
        }
        guard let hours = scanner.number(digits: 2) else { return nil }
        var minutes = 0
        if !scanner.isAtEnd {
            _ = scanner.skip(oneOf: ":")
            guard let value = scanner.number(digits: 2), scanner.isAtEnd else { return nil }
            minutes = value
        }
        guard minutes < 60, hours * 60 + minutes <= 18 * 60 else { return nil }
        self.init(seconds: sign * (hours * 3600 + minutes * 60))
    }
}
