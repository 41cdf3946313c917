/// One calendar year of the timeline, as the Years level shows it: how many photos, how many in
/// each month, and a key photo.
public struct TimelineYear: Sendable, Hashable {
    /// The Gregorian year of the photos' days (a day runs from `dayStartHour` to `dayStartHour`).
    public let year: Int
    /// Positions in ``PhotoTimeline/photos``: the year's photos are one run of capture order.
    public let photoRange: Range<Int>
    /// Photos per month, January first (12 entries); a stack counts all of its photos when the
    /// timeline's caller says how many each item holds (see ``PhotoTimeline/years(today:photoCount:)``).
    public let months: [Int]
    /// Position in ``PhotoTimeline/photos`` of the key photo: the first readable photo of the
    /// year's day nearest today's month and day (see ``PhotoTimeline/years(today:photoCount:isReadable:)``).
    public let keyPhoto: Int
    /// The day of the key photo.
    public let keyDay: TimelineDay

    /// The year's photos: the months' counts added up.
    public var count: Int { months.reduce(0, +) }
}

extension PhotoTimeline {
    /// The years that have photos, in order, each with its month counts and key photo.
    ///
    /// The key photo is the first readable photo (in capture order) of the year's day whose month
    /// and day are nearest `today`'s among the days that have one: the distance is
    /// `|ordinal(photo day) − ordinal(today)|`, where `ordinal(m, d)` counts days from 1 January in
    /// a leap year (so 29 February has one, and 1 March is 61 in every year); the earlier day wins
    /// a tie. A year with a readable photo taken on today's month and day therefore shows one
    /// ("this day, N years ago"). A year without a readable photo keeps the first photo of its
    /// nearest day.
    ///
    /// - Parameters:
    ///   - today: the viewer's date; only its month and day matter. It comes in as a parameter so
    ///     the answer is a pure function of the photos.
    ///   - photoCount: how many photos the items at positions of ``photos`` stand for (a stack's
    ///     cover stands for all of its photos), called once per day; `nil` counts each item once.
    ///   - isReadable: whether the photo at a position of ``photos`` can be shown (the index read
    ///     it without an error); `nil` takes every photo as readable.
    /// - Complexity: O(photos), and `photoCount`'s and `isReadable`'s.
    public func years(today: TimelineDay, photoCount: ((Range<Int>) -> Int)? = nil, isReadable: ((Int) -> Bool)? = nil) -> [TimelineYear] {
        let target = Self.leapYearOrdinal(month: today.month, day: today.day)
        var years: [TimelineYear] = []
        var year = Int.min
        var start = 0
        var months = [Int](repeating: 0, count: 12)
        typealias Candidate = (distance: Int, photo: Int, day: TimelineDay)
        var best: Candidate?
        var bestAny: Candidate? // used only when the year has no readable photo
        func close(end: Int) {
            guard let key = best ?? bestAny else { return }
            years.append(TimelineYear(year: year, photoRange: start..<end, months: months, keyPhoto: key.photo, keyDay: key.day))
        }
        for run in Self.dayRuns(keys: captureKeys, dayStartHour: settings.dayStartHour) {
            let day = TimelineDay(daysSince2001: run.day)
            let (y, m, d) = day.components
            if y != year {
                close(end: run.start)
                year = y
                start = run.start
                months = [Int](repeating: 0, count: 12)
                best = nil
                bestAny = nil
            }
            months[m - 1] += photoCount?(run.start..<run.end) ?? run.end - run.start
            let distance = abs(Self.leapYearOrdinal(month: m, day: d) - target)
            if bestAny == nil || distance < bestAny!.distance { bestAny = (distance, run.start, day) }
            if best == nil || distance < best!.distance,
               let readable = isReadable.map({ isReadable in (run.start..<run.end).first(where: isReadable) }) ?? run.start {
                best = (distance, readable, day)
            }
        }
        close(end: photos.count)
        return years
    }

    /// Day of the year of month `month` and day `day` counted in a leap year: 1 January is 1,
    /// 29 February 60, 1 March 61, 31 December 366.
    package static func leapYearOrdinal(month: Int, day: Int) -> Int {
        let before = [0, 31, 60, 91, 121, 152, 182, 213, 244, 274, 305, 335]
        return before[min(max(month, 1), 12) - 1] + day
    }
}
