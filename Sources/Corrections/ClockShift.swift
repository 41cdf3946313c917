/// A move of the local clock: `±[Nd][Nh][Nm][Ns]`, e.g. `+1h`, `-30m`, `+2d3h4m5s`.
public struct ClockShift: Sendable, Hashable {
    /// The largest shift taken: ten thousand years, so any arithmetic on it stays far from overflow
    /// (the dates it yields are checked against the years a sidecar can hold anyway).
    public static let maximumSeconds: Int64 = 10_000 * 366 * 86_400

    public var seconds: Int64

    public init(seconds: Int64) {
        self.seconds = seconds
    }

    /// Parses the text form; the sign is required, each unit at most once and in the order d, h, m, s.
    ///
    /// - Throws: `AdjustError` (`invalidValue`, field `shift`).
    public init(parsing text: String) throws(AdjustError) {
        func invalid(_ why: String) -> AdjustError {
            AdjustError(.invalidValue, field: "shift", subject: text, "The shift \"\(text)\" \(why); write it as a sign and days, hours, minutes, seconds, e.g. +1h, -30m or +2d3h.")
        }
        var bytes = Array(text.utf8)[...]
        guard let sign = bytes.first, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") else { throw invalid("has no sign") }
        bytes = bytes.dropFirst()
        guard !bytes.isEmpty else { throw invalid("has no amount") }
        var total: Int64 = 0
        var lastUnit = -1
        while !bytes.isEmpty {
            var value: Int64 = 0
            var digits = 0
            while let byte = bytes.first, byte >= 0x30, byte <= 0x39 {
                guard digits < 12 else { throw AdjustError(.invalidValue, field: "shift", subject: text, "The shift \"\(text)\" is too large: at most \(Self.maximumSeconds / 86_400) days.") }
                value = value * 10 + Int64(byte - 0x30)
                digits += 1
                bytes = bytes.dropFirst()
            }
            guard digits > 0, let unit = bytes.first else { throw invalid("has a number without a unit") }
            let units: [UInt8: (rank: Int, seconds: Int64)] = [0x64: (0, 86_400), 0x68: (1, 3600), 0x6D: (2, 60), 0x73: (3, 1)]
            guard let (rank, scale) = units[unit | 0x20] else { throw invalid("has an unknown unit '\(Character(Unicode.Scalar(unit)))'") }
            guard rank > lastUnit else { throw invalid("repeats or reorders its units") }
            lastUnit = rank
            bytes = bytes.dropFirst()
            // At most 12 digits times 86,400: no overflow; the total is bounded below.
            total += value * scale
            guard total <= Self.maximumSeconds else {
                throw AdjustError(.invalidValue, field: "shift", subject: text, "The shift \"\(text)\" is too large: at most \(Self.maximumSeconds / 86_400) days.")
            }
        }
        seconds = sign == UInt8(ascii: "-") ? -total : total
    }

    /// `+1d2h3m4s`, `-30m`, `+0s`.
    public var text: String {
        var rest = seconds.magnitude
        var text = seconds < 0 ? "-" : "+"
        for (unit, size) in [("d", UInt64(86_400)), ("h", 3600), ("m", 60), ("s", 1)] where rest >= size {
            text += "\(rest / size)\(unit)"
            rest %= size
        }
        return seconds == 0 ? "+0s" : text
    }
}
