import Foundation
public import Places
public import WallClock

/// The zone `--time-zone` names: a fixed offset (`+02:00`, `-0530`, `Z`) or an IANA zone
/// (`Europe/Lisbon`), whose offset depends on the date (daylight saving time).
public enum TimeZoneSpec: Sendable, Hashable {
    case fixed(seconds: Int)
    case named(String)

    /// Parses `±HH:MM`, `±HHMM`, `±HH`, `Z`, `UTC` or an `Area/City` name this system's zone
    /// database knows.
    ///
    /// - Throws: `AdjustError` (`invalidValue`, field `timeZone`).
    public init(parsing text: String) throws(AdjustError) {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if trimmed == "Z" || trimmed == "UTC" {
            self = .fixed(seconds: 0)
            return
        }
        if let first = trimmed.first, first == "+" || first == "-" {
            guard let offset = Self.fixedOffset(trimmed) else {
                throw AdjustError(.invalidValue, field: "timeZone", subject: text, "The offset \"\(text)\" is not one: write ±HH:MM within ±14:00, e.g. +02:00 or -05:30.")
            }
            self = .fixed(seconds: offset)
            return
        }
        // Names only: no `..`, no absolute path, nothing the zone database would read as a file elsewhere.
        let allowed = trimmed.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || $0.properties.numericType != nil || "/_+-".unicodeScalars.contains($0)) }
        guard allowed, trimmed.contains("/"), !trimmed.hasPrefix("/"), !trimmed.contains(".."), TimeZone(identifier: trimmed) != nil else {
            throw AdjustError(.invalidValue, field: "timeZone", subject: text, "Unknown time zone \"\(text)\": give an IANA name such as Europe/Lisbon or America/New_York, or an offset such as +02:00.")
        }
        self = .named(trimmed)
    }

    /// `±HH:MM`, `±HHMM` or `±HH` in seconds, within ±14:00 (the widest offset in use).
    private static func fixedOffset(_ text: String) -> Int? {
        let bytes = Array(text.utf8)
        let sign = bytes[0] == UInt8(ascii: "-") ? -1 : 1
        let digits = bytes.dropFirst().filter { $0 != UInt8(ascii: ":") }
        guard bytes.dropFirst().allSatisfy({ ($0 >= 0x30 && $0 <= 0x39) || $0 == UInt8(ascii: ":") }),
              digits.count == 2 || digits.count == 4,
              bytes.count == 3 || bytes.count == 5 || (bytes.count == 6 && bytes[3] == UInt8(ascii: ":"))
        else { return nil }
        let value = digits.reduce(0) { $0 * 10 + Int($1 - 0x30) }
        let hours = digits.count == 2 ? value : value / 100
        let minutes = digits.count == 2 ? 0 : value % 100
        guard minutes < 60, hours * 60 + minutes <= 14 * 60 else { return nil }
        return sign * (hours * 3600 + minutes * 60)
    }

    /// The zone as given back: `+02:00` or `Europe/Lisbon`.
    public var text: String {
        switch self {
        case .fixed(let seconds):
            let minutes = abs(seconds) / 60
            return (seconds < 0 ? "-" : "+") + CivilCalendar.padded(minutes / 60, 2) + ":" + CivilCalendar.padded(minutes % 60, 2)
        case .named(let name):
            return name
        }
    }

    /// The offset in seconds east of UTC that a clock showing `local` has in this zone; `nil` for
    /// a date the zone cannot convert. A time a daylight-saving change skips or repeats gets the
    /// offset Foundation's calendar picks for it (as `Place.utcOffset(at:)`).
    public func offset(atLocal local: LocalDateTime) -> Int? {
        switch self {
        case .fixed(let seconds):
            return seconds
        case .named(let name):
            return Place(city: nil, region: nil, country: nil, countryCode: nil, timeZoneIdentifier: name, distanceKilometres: 0)
                .utcOffset(at: local)
        }
    }

    /// The offset in seconds east of UTC at an instant, in milliseconds since 1970 UTC.
    public func offset(atUTCMilliseconds instant: Int64) -> Int? {
        switch self {
        case .fixed(let seconds):
            return seconds
        case .named(let name):
            return TimeZone(identifier: name)?.secondsFromGMT(for: Date(timeIntervalSince1970: Double(instant) / 1000))
        }
    }
}
