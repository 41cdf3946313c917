import WallClock
import Testing
import Timeline

@Suite("Days, day-start hour and labels")
struct DayAndLabelTests {
    @Test("day numbers count from Monday 2001-01-01")
    func dayNumbers() throws {
        let epoch = try #require(TimelineDay(year: 2001, month: 1, day: 1))
        #expect(epoch.daysSince2001 == 0)
        #expect(epoch.weekday == 1)
        #expect(TimelineDay(year: 2025, month: 3, day: 8)?.daysSince2001 == 8832)
        #expect(TimelineDay(year: 1999, month: 12, day: 31)?.daysSince2001 == -367)
        #expect(TimelineDay(year: 2024, month: 2, day: 30) == nil)
        #expect(TimelineDay(year: 2024, month: 2, day: 29) != nil)
        #expect(TimelineDay(year: 1900, month: 2, day: 29) == nil)
        #expect(TimelineDay(year: 2000, month: 2, day: 29) != nil)
        #expect(TimelineDay(year: 2025, month: 13, day: 1) == nil)
        #expect(TimelineDay(daysSince2001: -367).isoString == "1999-12-31")
        #expect(TimelineDay(daysSince2001: 8832).weekday == 6)
    }

    @Test("components round-trip", arguments: Array(stride(from: -800_000, through: 800_000, by: 997)))
    func roundTrip(day: Int) throws {
        let d = TimelineDay(daysSince2001: day)
        let (y, m, dd) = d.components
        guard (1...9999).contains(y) else { return }
        #expect(TimelineDay(year: y, month: m, day: dd) == d)
        #expect(d.advanced(by: 1).daysSince2001 == day + 1)
    }

    @Test("date-time strings, validity and keys")
    func dateTimes() {
        let t = LocalDateTime(year: 2025, month: 3, day: 8, hour: 14, minute: 5, second: 9, millisecond: 42)
        #expect(t.description == "2025-03-08T14:05:09.042")
        #expect(LocalDateTime(year: 2025, month: 3, day: 8, hour: 1).description == "2025-03-08T01:00:00")
        let secondOfDay: Int64 = 14 * 3600 + 5 * 60 + 9
        let expected: Int64 = 8832 * 86_400_000 + secondOfDay * 1000 + 42
        #expect(t.millisecondsSince2001 == expected)
        #expect(LocalDateTime(year: 2025, month: 3, day: 8, hour: 24).isValid == false)
        #expect(LocalDateTime(year: 2025, month: 2, day: 29).millisecondsSince2001 == nil)
        #expect(LocalDateTime(year: 2025, month: 3, day: 8, millisecond: 1000).isValid == false)
    }

    @Test("an invalid date-time is an error naming the photo")
    func invalidDate() {
        let photos = [TimelinePhoto(path: "bad/one.jpg", captured: LocalDateTime(year: 2023, month: 2, day: 30))]
        #expect {
            try PhotoTimeline(photos: photos)
        } throws: { error in
            let e = error as? TimelineError
            return e?.code == .invalidDateTime && e?.subject == "bad/one.jpg" && e!.message.contains("bad/one.jpg")
        }
    }

    private func photo(_ path: String, _ day: Int, _ hour: Int, _ minute: Int = 0) -> TimelinePhoto {
        TimelinePhoto(path: path, captured: LocalDateTime(year: 2025, month: 3, day: day, hour: hour, minute: minute))
    }

    @Test("day-start hour 4: 01:00 belongs to the previous day, 04:00 to its own")
    func dayStartHour() throws {
        let photos = [photo("a", 8, 22), photo("b", 9, 1), photo("c", 9, 3, 59), photo("d", 9, 4), photo("e", 9, 12)]
        let settings = TimelineSettings(dayStartHour: 4, fine: FineSettings(mergeLimit: 1))
        let timeline = try PhotoTimeline(photos: photos, settings: settings)
        let sections = timeline.fineSections.map { ($0.firstDay.isoString, timeline.photos[$0.photoRange].map(\.path)) }
        #expect(sections.map(\.0) == ["2025-03-08", "2025-03-09"])
        #expect(sections.map(\.1) == [["a", "b", "c"], ["d", "e"]])

        let midnight = try PhotoTimeline(photos: photos, settings: TimelineSettings(fine: FineSettings(mergeLimit: 1)))
        #expect(midnight.fineSections.map { timeline.photos[$0.photoRange].count } == [1, 4])
    }

    @Test("day-start hour moves a photo across a coarse window")
    func dayStartAcrossWindow() throws {
        // 2001-01-15 is day 14, the first day of window 1; at 02:00 with day start 4 it belongs to day 13.
        let photos = [
            TimelinePhoto(path: "x", captured: LocalDateTime(year: 2001, month: 1, day: 15, hour: 2)),
            TimelinePhoto(path: "y", captured: LocalDateTime(year: 2001, month: 1, day: 15, hour: 5)),
        ]
        let shifted = try PhotoTimeline(photos: photos, settings: TimelineSettings(dayStartHour: 4))
        #expect(shifted.coarseSections.map(\.windowStart.daysSince2001) == [0, 14])
        #expect(shifted.fineSections.map(\.firstDay.daysSince2001) == [13, 14])
        let plain = try PhotoTimeline(photos: photos)
        #expect(plain.coarseSections.map(\.windowStart.daysSince2001) == [14])
        #expect(plain.fineSections.count == 1)
    }

    @Test("two days merge only within the limit and within one window")
    func merging() throws {
        func day(_ d: Int, _ n: Int) -> [TimelinePhoto] {
            (0..<n).map { TimelinePhoto(path: "d\(d)/\($0)", captured: dateTime(day: d, millisecondOfDay: $0 * 1000)) }
        }
        // Days 12+13 merge (5+7 = 12); 13 is the last day of window 0, so 14 starts afresh;
        // 14+15 would be 13 > 12; 15+16 merge; 17 stands alone; 19 has no neighbour.
        let photos = day(12, 5) + day(13, 7) + day(14, 6) + day(15, 7) + day(16, 5) + day(17, 3) + day(19, 1)
        let timeline = try PhotoTimeline(photos: photos)
        #expect(timeline.fineSections.map { [$0.firstDay.daysSince2001, $0.lastDay.daysSince2001] }
            == [[12, 13], [14, 14], [15, 16], [17, 17], [19, 19]])
        #expect(timeline.fineSections.map(\.coarseSection) == [0, 1, 1, 1, 1])
        #expect(timeline.coarseSections.map(\.fineSections) == [0..<1, 1..<5])
        #expect(timeline.coarseSections.map(\.count) == [12, 22])
        #expect(timeline.coarseSections.map(\.shown.count) == [10, 20])
    }

    @Test("capture-time ties are ordered by path; the date origin is preserved")
    func tiesAndOrigin() throws {
        let t = LocalDateTime(year: 2024, month: 7, day: 1, hour: 23, minute: 30)
        let photos = [
            TimelinePhoto(path: "b.jpg", captured: t, isFromModificationTime: true),
            TimelinePhoto(path: "a.jpg", captured: t),
            TimelinePhoto(path: "B.jpg", captured: t),
        ]
        let timeline = try PhotoTimeline(photos: photos)
        #expect(timeline.photos.map(\.path) == ["B.jpg", "a.jpg", "b.jpg"])
        #expect(timeline.photos.map(\.dateOrigin) == [.recorded, .recorded, .fileModified])
        #expect(!timeline.inputWasSorted)
    }

    @Test("labels", arguments: [
        ("2025-03-08", "2025-03-08", "Sat 8 Mar 2025"),
        ("2025-03-08", "2025-03-09", "8 – 9 Mar 2025"),
        ("2025-02-28", "2025-03-01", "28 Feb – 1 Mar 2025"),
        ("2024-12-30", "2025-01-02", "30 Dec 2024 – 2 Jan 2025"),
        ("2025-03-03", "2025-03-16", "3 – 16 Mar 2025"),
        ("2025-03-16", "2025-03-03", "3 – 16 Mar 2025"),
        ("2001-01-01", "2001-01-01", "Mon 1 Jan 2001"),
    ])
    func labels(first: String, last: String, expected: String) throws {
        #expect(TimelineDay.rangeLabel(from: try day(first), to: try day(last)) == expected)
    }

    @Test("section labels and JSON dates: coarse labels are clipped to the photos")
    func sectionLabels() throws {
        let photos = [photo("a", 8, 10), photo("b", 9, 10)]
        let timeline = try PhotoTimeline(photos: photos)
        #expect(timeline.fineSections.map(\.label) == ["8 – 9 Mar 2025"])
        let coarse = try #require(timeline.coarseSections.first)
        #expect(coarse.label == "8 – 9 Mar 2025")
        #expect(coarse.windowLabel == "24 Feb – 9 Mar 2025")
        let summary = try #require(timeline.summary(.coarse, 0))
        #expect(summary.start.isoString == "2025-03-08" && summary.end.isoString == "2025-03-09")
        #expect(summary.shown == [0, 1] && summary.count == 2 && summary.label == coarse.label)
        #expect(timeline.summary(.fine, 1) == nil)
        #expect(timeline.summaries(.fine).map(\.shown) == [[0, 1]])
    }

    private func day(_ iso: String) throws -> TimelineDay {
        let parts = iso.split(separator: "-").compactMap { Int($0) }
        return try #require(TimelineDay(year: parts[0], month: parts[1], day: parts[2]))
    }
}
