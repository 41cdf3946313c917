public import Foundation
public import Timeline

extension TimelineDay {
    /// The local calendar day of `now` on this machine, for picking the Years level's key photos.
    /// Front ends call it; the pure modules take the day as a parameter.
    public static func today(now: Date = Date(), timeZone: TimeZone = .current) -> TimelineDay {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let c = calendar.dateComponents([.year, .month, .day], from: now)
        return TimelineDay(year: c.year ?? 2001, month: c.month ?? 1, day: c.day ?? 1) ?? TimelineDay(daysSince2001: 0)
    }

    /// A `YYYY-MM-DD` day, or `nil` when the text is not one.
    public init?(iso text: String) {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
              parts.allSatisfy({ $0.utf8.allSatisfy { (0x30...0x39).contains($0) } }),
              let y = Int(parts[0]), let m = Int(parts[1]), let d = Int(parts[2]) else { return nil }
        self.init(year: y, month: m, day: d)
    }
}
