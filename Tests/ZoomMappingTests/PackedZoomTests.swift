import GalleryLayout
import SeededRandom
import Testing
import Timeline
import WallClock
import ZoomMapping

@Suite("Packed zoom")
struct PackedZoomTests {
    static let today = TimelineDay(year: 2026, month: 11, day: 27)!
    static let pairs: [(PackedLevel, PackedLevel)] = [
        (.years, .coarse), (.coarse, .years), (.coarse, .fine), (.fine, .coarse), (.years, .fine), (.fine, .years),
    ]

    /// A random library (sparse years too) at a random phone or desktop viewport.
    static func randomMap(seed: UInt64) throws -> (PackedZoomMap, SplitMix64) {
        var rng = SplitMix64(seed: seed)
        let photos = Bool.random(using: &rng) ? randomLibrary(using: &rng) : sparseArchive(seed: rng.next())
        let timeline = try PhotoTimeline(photos: photos)
        let phone = Bool.random(using: &rng)
        let viewport = phone
            ? ViewportSize(width: Double(Int.random(in: 320...599, using: &rng)), height: Double(Int.random(in: 560...932, using: &rng)))
            : ViewportSize(width: Double(Int.random(in: 600...2560, using: &rng)), height: Double(Int.random(in: 600...1440, using: &rng)))
        let insets = ContentInsets(top: [0, 64].randomElement(using: &rng)!, bottom: [0, 34].randomElement(using: &rng)!)
        return (try PackedZoomMap(timeline: timeline, viewport: viewport, contentInsets: insets, today: today), rng)
    }

    @Test("a tapped photo stays under the finger (±1 px) unless the scroll range clamps, every level pair", arguments: Array(UInt64(1)...30))
    func tapsStayUnderTheFinger(seed: UInt64) throws {
        var (map, rng) = try Self.randomMap(seed: seed)
        var unclamped = 0
        for (from, to) in Self.pairs {
            let source = map.layout(from)
            for _ in 0..<25 {
                let section = Int.random(in: 0..<source.sectionCount, using: &rng)
                let item = Int.random(in: 0..<source.sectionCounts[section], using: &rng)
                let frame = try source.frame(section: section, item: item)
                // Scrolled so the cell is somewhere on screen, as a finger needs it.
                let range = map.scrollRange(from)
                let offset = min(max(frame.minY - Double.random(in: 0...(map.viewport.height - frame.height).magnitude, using: &rng), range.lowerBound), range.upperBound)
                let t = try map.zoom(from: from, to: to, at: GridIndexPath(section: section, item: item), contentOffsetY: offset)
                #expect(t.from.level == from && t.to.level == to)
                #expect(try map.layout(to).frame(section: t.to.section, item: t.to.item) == t.targetFrame)
                #expect(t.sourceViewportY == frame.minY - offset)
                if !t.clamped {
                    unclamped += 1
                    #expect(abs(t.targetViewportY - Self.landingTop(t)) <= 1, "\(from)→\(to) \(section),\(item)")
                    // A finger on the tapped cell's middle is on the target cell, from years or into a larger cell.
                    if from == .years || t.targetFrame.height >= t.sourceFrame.height {
                        let finger = t.sourceViewportY + t.sourceFrame.height / 2
                        #expect(t.targetViewportY - 1 <= finger && finger <= t.targetViewportY + t.targetFrame.height + 1, "\(from)→\(to)")
                    }
                } else {
                    #expect(t.contentOffsetY == map.scrollRange(to).lowerBound || t.contentOffsetY == map.scrollRange(to).upperBound)
                }
                // The photo itself, its nearest shown photo in time (Overview), or its year's key photo.
                switch to {
                case .fine: #expect(t.isSamePhoto)
                case .coarse:
                    #expect(map.timeline.coarseSections[t.to.section].photoRange.contains(t.sourcePhoto))
                    #expect(map.timeline.coarseSections[t.to.section].shown[t.to.item] == t.targetPhoto)
                case .years:
                    #expect(map.years[t.to.section].photoRange.contains(t.sourcePhoto) && t.targetPhoto == map.years[t.to.section].keyPhoto)
                }
            }
        }
        #expect(unclamped > 0)
    }

    /// Where a zoom puts the target cell's top on screen unless clamped: the source cell's top, or
    /// from years the top that puts the two cells' centres level.
    static func landingTop(_ t: PackedTransition) -> Double {
        guard t.from.level == .years, t.to.level != .years else { return t.sourceViewportY }
        return t.sourceViewportY + (t.sourceFrame.height - t.targetFrame.height) / 2
    }

    @Test("a pinch anchors the photo nearest the focal point and keeps its height", arguments: Array(UInt64(1)...30))
    func pinches(seed: UInt64) throws {
        var (map, rng) = try Self.randomMap(seed: seed)
        for (from, to) in Self.pairs {
            for _ in 0..<15 {
                let range = map.scrollRange(from)
                let offset = Double.random(in: range, using: &rng)
                let focal = GridPoint(x: Double.random(in: 0...map.viewport.width, using: &rng), y: Double.random(in: 0...map.viewport.height, using: &rng))
                let t = try map.pinch(from: from, to: to, focalPoint: focal, contentOffsetY: offset)
                // The anchor is the cell under the point, else one of the row nearest vertically.
                let point = GridPoint(x: focal.x, y: offset + focal.y)
                let layout = map.layout(from)
                if let under = Self.cell(at: point, in: layout) {
                    #expect(under == t.from.indexPath, "\(from) pinch at \(point)")
                } else {
                    func vertical(_ f: GridRect) -> Double { max(f.minY - point.y, 0, point.y - f.maxY) }
                    var nearest = Double.infinity
                    for section in 0..<layout.sectionCount {
                        for item in 0..<layout.sectionCounts[section] {
                            nearest = min(nearest, vertical(try layout.frame(section: section, item: item)))
                        }
                    }
                    #expect(vertical(t.sourceFrame) == nearest, "\(from) pinch at \(point)")
                }
                if !t.clamped { #expect(abs(t.targetViewportY - Self.landingTop(t)) <= 1) }
            }
        }
    }

    /// The cell containing `point`, found by looking at every cell.
    static func cell(at point: GridPoint, in layout: PackedLayout) -> GridIndexPath? {
        for section in 0..<layout.sectionCount {
            let block = try! layout.block(section)
            guard block.frame.minY <= point.y, point.y < block.frame.maxY, block.frame.minX <= point.x, point.x < block.frame.maxX else { continue }
            for item in 0..<layout.sectionCounts[section] where try! layout.frame(section: section, item: item).contains(point) {
                return GridIndexPath(section: section, item: item)
            }
        }
        return nil
    }

    @Test("years → Overview: the key photo lands on itself or the shown photo nearest in time, centred where the card's photo was",
          arguments: [ViewportSize(width: 390, height: 844), ViewportSize(width: 1440, height: 900)])
    func yearsToOverview(viewport: ViewportSize) throws {
        let timeline = try PhotoTimeline(photos: sparseArchive(seed: 7))
        let map = try PackedZoomMap(timeline: timeline, viewport: viewport, today: Self.today)
        var exact = 0
        for (index, year) in map.years.enumerated() {
            let frame = try map.yearsLayout.frame(section: index, item: 0)
            let t = try map.zoom(from: .years, to: .coarse, at: GridIndexPath(section: index, item: 0), contentOffsetY: max(0, frame.minY - 300))
            #expect(t.sourcePhoto == year.keyPhoto)
            let coarse = timeline.coarseSections[t.to.section]
            #expect(coarse.photoRange.contains(year.keyPhoto))
            if coarse.shown.contains(year.keyPhoto) { #expect(t.isSamePhoto) }
            if !t.clamped {
                exact += 1
                // The centres level: a finger on the middle of the card's photo (125 points on a
                // phone) is on the middle of the Overview cell (38 points), not 24 points below it.
                #expect(abs((t.targetViewportY + t.targetFrame.height / 2) - (t.sourceViewportY + t.sourceFrame.height / 2)) < 1e-9)
                #expect(t.targetFrame.height < t.sourceFrame.height)
            }
        }
        #expect(exact > 0)
    }

    @Test("the Years level: counts, month strips, and the key photo nearest today's month and day")
    func years() throws {
        func photo(_ y: Int, _ m: Int, _ d: Int, _ h: Int = 12) -> TimelinePhoto {
            TimelinePhoto(path: "\(y)-\(m)-\(d)-\(h).jpg", captured: LocalDateTime(year: y, month: m, day: d, hour: h, minute: 0))
        }
        let timeline = try PhotoTimeline(photos: [
            photo(2003, 2, 1), photo(2003, 11, 20), photo(2003, 11, 27, 9), photo(2003, 11, 27, 8), photo(2003, 12, 30),
            photo(2010, 1, 1), photo(2010, 6, 1), photo(2010, 6, 2),
            photo(2012, 2, 29), photo(2012, 3, 1),
        ])
        let years = timeline.years(today: TimelineDay(year: 2026, month: 11, day: 27)!)
        #expect(years.map(\.year) == [2003, 2010, 2012])
        #expect(years.map(\.count) == [5, 3, 2])
        #expect(years[0].months == [0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 3, 1])
        // Today's month and day: the first photo of 27 November (8 o'clock).
        #expect(timeline.photos[years[0].keyPhoto].path == "2003-11-27-8.jpg")
        #expect(timeline.photos[years[1].keyPhoto].path == "2010-6-2-12.jpg")
        #expect(timeline.photos[years[2].keyPhoto].path == "2012-3-1-12.jpg")
        // A tie (29 Feb today: 28 Feb and 1 Mar are one day away each) keeps the earlier day.
        let leap = try PhotoTimeline(photos: [photo(2011, 2, 28), photo(2011, 3, 1)]).years(today: TimelineDay(year: 2024, month: 2, day: 29)!)
        #expect(leap[0].keyPhoto == 0)
    }

    @Test("a year's key photo is a readable one when the year has one; the packed map picks the same, and a tap lands on it")
    func keyPhotoIsReadable() throws {
        func photo(_ y: Int, _ m: Int, _ d: Int, _ h: Int = 12) -> TimelinePhoto {
            TimelinePhoto(path: "\(y)-\(m)-\(d)-\(h).jpg", captured: LocalDateTime(year: y, month: m, day: d, hour: h, minute: 0))
        }
        let timeline = try PhotoTimeline(photos: [
            photo(2024, 3, 1), photo(2024, 6, 1, 8), photo(2024, 6, 1, 9), photo(2024, 6, 2),
            photo(2025, 6, 1, 12), photo(2025, 6, 1, 13),
            photo(2026, 6, 1),
        ])
        // Damaged: both photos of 1 June 2024, the first of 1 June 2025, and 2026's only photo.
        let damaged: Set = ["2024-6-1-8.jpg", "2024-6-1-9.jpg", "2025-6-1-12.jpg", "2026-6-1-12.jpg"]
        let readable = { (position: Int) in !damaged.contains(timeline.photos[position].path) }
        let today = TimelineDay(year: 2030, month: 6, day: 1)!
        let years = timeline.years(today: today, isReadable: readable)
        // The nearest day's damaged photos give way to the next day (2024) or the day's next photo
        // (2025); a year of damaged files only keeps its nearest one (2026).
        #expect(years.map { timeline.photos[$0.keyPhoto].path } == ["2024-6-2-12.jpg", "2025-6-1-13.jpg", "2026-6-1-12.jpg"])
        #expect(years.map(\.keyDay) == [TimelineDay(year: 2024, month: 6, day: 2)!, TimelineDay(year: 2025, month: 6, day: 1)!, TimelineDay(year: 2026, month: 6, day: 1)!])
        #expect(timeline.years(today: today).map { timeline.photos[$0.keyPhoto].path } == ["2024-6-1-8.jpg", "2025-6-1-12.jpg", "2026-6-1-12.jpg"])
        for viewport in [ViewportSize(width: 390, height: 844), ViewportSize(width: 1440, height: 900)] {
            let map = try PackedZoomMap(timeline: timeline, viewport: viewport, today: today, isReadable: readable)
            #expect(map.years.map(\.keyPhoto) == years.map(\.keyPhoto))
            for section in years.indices {
                let t = try map.zoom(from: .years, to: .coarse, at: GridIndexPath(section: section, item: 0), contentOffsetY: 0)
                #expect(t.sourcePhoto == years[section].keyPhoto && t.isSamePhoto)
            }
        }
    }

    @Test("a resize or rotation keeps the photo at the top of the screen at its height", arguments: Array(UInt64(1)...12))
    func resizeKeepsTheTopPhoto(seed: UInt64) throws {
        var (map, rng) = try Self.randomMap(seed: seed)
        let rotated = try PackedZoomMap(
            timeline: map.timeline, viewport: ViewportSize(width: map.viewport.height, height: map.viewport.width),
            contentInsets: map.contentInsets, today: Self.today)
        for level in PackedLevel.allCases {
            let offset = Double.random(in: map.scrollRange(level), using: &rng)
            let t = try PackedZoomMap.resize(level, contentOffsetY: offset, from: map, to: rotated)
            #expect(t.isSamePhoto && t.from == PackedIndexPath(level: level, t.to.indexPath))
            #expect(t.targetFrame == (try rotated.layout(level).frame(section: t.to.section, item: t.to.item)))
            if !t.clamped { #expect(abs(t.targetViewportY - t.sourceViewportY) <= 1) }
        }
    }
}
