public import WallClock
import SeededRandom

/// A family archive of 25 years (2001–2025), about 1,900 photos, for the packed timeline's tests
/// and `make-library --archive`: ten early years of 4–9 lone days of 1–2 photos each, then
/// fifteen years growing denser (10 shooting days a year rising to 38, most days 1–5 photos, one
/// in five an event of 6–20). The same `seed` gives the same archive.
public enum FamilyArchive {
    /// The archive's capture times, in order: a day's photos from 09:00, seven minutes apart.
    public static func captures(seed: UInt64) -> [LocalDateTime] {
        var rng = SplitMix64(seed: seed)
        var captures: [LocalDateTime] = []
        for (index, year) in (2001...2025).enumerated() {
            let dayCount = index < 10 ? Int.random(in: 4...9, using: &rng) : 10 + 2 * (index - 10)
            let first = CivilCalendar.daysSince1970(year: year, month: 1, day: 1)
            let last = CivilCalendar.daysSince1970(year: year, month: 12, day: 31)
            var days = Set<Int>()
            while days.count < dayCount { days.insert(Int.random(in: first...last, using: &rng)) }
            for day in days.sorted() {
                let count = index < 10
                    ? Int.random(in: 1...2, using: &rng)
                    : (Int.random(in: 0..<5, using: &rng) == 0 ? Int.random(in: 6...20, using: &rng) : Int.random(in: 1...5, using: &rng))
                let (y, m, d) = CivilCalendar.date(daysSince1970: day)
                for n in 0..<count {
                    let minute = 9 * 60 + n * 7
                    captures.append(LocalDateTime(year: y, month: m, day: d, hour: minute / 60, minute: minute % 60))
                }
            }
        }
        return captures
    }
}
