import GalleryLayout
import SeededRandom
import Testing
import Timeline
import WallClock
import ZoomMapping

@Suite("Packed layout")
struct PackedLayoutTests {
    static let today = TimelineDay(year: 2026, month: 11, day: 27)!

    @Test("hand-computed: a phone's Overview packs small sections side by side within a year")
    func handComputed() throws {
        // 390 wide, compact coarse: 10 columns of (390 − 9)/10 = 38.1, spacing 1, label line 14.
        let layout = try PackedLayout(level: .coarse, counts: [1, 2, 3, 12, 1, 5, 4], groups: [2004, 2004, 2004, 2004, 2004, 2005, 2005], width: 390)
        layout._checkInvariants(groups: [2004, 2004, 2004, 2004, 2004, 2005, 2005])
        #expect(layout.columns == 10 && layout.cellSide == 38.1)
        let blocks = try (0..<7).map { try layout.block($0) }
        #expect(blocks.map(\.line) == [0, 0, 0, 1, 2, 3, 3])
        #expect(blocks.map(\.column) == [0, 1, 3, 0, 0, 0, 5])
        #expect(blocks[3].rows == 2 && blocks[3].columns == 10)
        // Line 0: 14 + 38.1; line 1 (two rows): 14 + 2·38.1 + 1; line 2: one row.
        #expect(blocks[1].frame == GridRect(minX: 39.1, minY: 14, width: 2 * 38.1 + 1, height: 38.1))
        #expect(blocks[1].labelFrame == GridRect(minX: 39.1, minY: 0, width: 2 * 38.1 + 1, height: 14))
        let line1 = 14 + 38.1 + 1
        #expect(blocks[3].frame.minY == line1 + 14)
        #expect(try layout.frame(section: 3, item: 11) == GridRect(minX: 39.1, minY: line1 + 14 + 39.1, width: 38.1, height: 38.1))
        let line2 = line1 + 14 + 2 * 38.1 + 1 + 1
        #expect(blocks[4].frame.minY == line2 + 14)
        // A new year starts a line even though the 1-photo block left room.
        #expect(blocks[5].labelFrame.minY == line2 + 14 + 38.1 + 1)
        #expect(layout.contentHeight == line2 + 14 + 38.1 + 1 + 14 + 38.1)
    }

    @Test("hand-computed: a month of less than a row shares its line with the next month of its year (Days only)")
    func sparseMonthsShare() throws {
        // 390 wide, compact fine: 4 columns of (390 − 4.5)/4 = 96.375, spacing 1.5, label line 22.
        // Jan, Feb, Mar, Dec 2004; Jan, Mar, Apr 2005.
        let groups = [2004 * 12, 2004 * 12 + 1, 2004 * 12 + 2, 2004 * 12 + 11, 2005 * 12, 2005 * 12 + 2, 2005 * 12 + 3]
        let counts = [1, 2, 3, 1, 1, 4, 1]
        let layout = try PackedLayout(level: .fine, counts: counts, groups: groups, width: 390)
        layout._checkInvariants(groups: groups)
        #expect(layout.columns == 4 && layout.cellSide == 96.375)
        let blocks = try (0..<7).map { try layout.block($0) }
        // Feb joins lone January; March does not fit beside them and opens a line that December
        // joins; a new year opens a line; March 2005 (4, a full row) does not fit beside January,
        // and April may not join March 2005, which fills a row.
        #expect(blocks.map(\.line) == [0, 0, 1, 1, 2, 3, 4])
        #expect(blocks.map(\.column) == [0, 1, 0, 3, 0, 0, 0])
        // Each block keeps its own label, above its own columns.
        #expect(blocks[1].labelFrame == GridRect(minX: 97.875, minY: 0, width: 2 * 96.375 + 1.5, height: 22))
        #expect(blocks[3].labelFrame.minX == 3 * 97.875 && blocks[3].labelFrame.minY == blocks[2].labelFrame.minY)
        #expect(abs(layout.contentHeight - (5 * (22 + 96.375) + 4 * 1.5)) < 1e-9)
        // The Overview keeps one line per year's run and never mixes years; there groups are years.
        let coarse = try PackedLayout(level: .coarse, counts: counts, groups: groups, width: 390)
        #expect(coarse.lineCount == 7)
    }

    @Test("columns follow the width; phones keep the seed's 10 and 4", arguments: [
        (390.0, PackedLevel.coarse, 10), (390, .fine, 4), (1440, .coarse, 13), (1440, .fine, 7), (390, .years, 3), (1440, .years, 7),
        (320, .fine, 3), (768, .fine, 4), (2560, .fine, 13), (10_000, .fine, 49), (1, .coarse, 1), (1, .fine, 1),
    ])
    func columns(width: Double, level: PackedLevel, expected: Int) throws {
        let layout = try PackedLayout(level: level, counts: [7], groups: [0], width: width)
        #expect(layout.columns == expected)
        #expect(layout.cellSide > 0)
        if level == .fine, width >= ViewportClass.regularFromWidth { #expect((180...260).contains(layout.cellSide)) }
        layout._checkInvariants()
    }

    @Test("widths out of range, negative counts and mismatched arrays are refused", arguments: [0.0, -5, 100_001, .nan, .infinity])
    func refused(width: Double) {
        #expect(throws: ZoomError.self) { try PackedLayout(level: .fine, counts: [1], groups: [0], width: width) }
        #expect(throws: ZoomError.self) { try PackedLayout(level: .fine, counts: [-1], groups: [0], width: 390) }
        #expect(throws: ZoomError.self) { try PackedLayout(level: .fine, counts: [1, 2], groups: [0], width: 390) }
    }

    @Test("random counts, groups and widths keep every invariant", arguments: Array(UInt64(1)...60))
    func randomInvariants(seed: UInt64) throws {
        var rng = SplitMix64(seed: seed)
        let n = Int.random(in: 0...400, using: &rng)
        var group = 0
        var counts: [Int] = []
        var groups: [Int] = []
        for _ in 0..<n {
            if Int.random(in: 0..<6, using: &rng) == 0 { group += 1 }
            counts.append(Bool.random(using: &rng) ? Int.random(in: 0...3, using: &rng) : Int.random(in: 1...120, using: &rng))
            groups.append(group)
        }
        let width = [1, 200, 390, 414, 599, 600, 1024, 1440, 2560, 10_000, Double.random(in: 1...3000, using: &rng)].randomElement(using: &rng)!
        for level in PackedLevel.allCases {
            let layout = try PackedLayout(level: level, counts: counts, groups: groups, width: width)
            layout._checkInvariants(groups: groups)
            // Every cell inside its block, no two cells of different blocks overlapping in a line.
            for section in 0..<layout.sectionCount where counts[section] > 0 {
                let block = try layout.block(section)
                let last = try layout.frame(section: section, item: counts[section] - 1)
                #expect(last.maxX <= block.frame.maxX + 1e-9 && last.maxY <= block.frame.maxY + 1e-9)
            }
        }
    }

    @Test("nothing lost: one photo, one year, 1900 and 2100, 12,000 photos on one day, a 10,000-px window")
    func extremes() throws {
        func photo(_ y: Int, _ m: Int, _ d: Int, _ i: Int) -> TimelinePhoto {
            TimelinePhoto(path: "p\(i).jpg", captured: LocalDateTime(year: y, month: m, day: d, hour: 12, minute: i % 60, second: i / 60 % 60))
        }
        let libraries: [[TimelinePhoto]] = [
            [photo(2020, 5, 5, 0)],
            (0..<40).map { photo(2019, 1 + $0 % 12, 1 + $0 % 28, $0) },
            [photo(1900, 1, 1, 0), photo(1900, 12, 31, 1), photo(2100, 6, 1, 2), photo(2100, 12, 31, 3)],
            (0..<12_000).map { TimelinePhoto(path: "d/\($0).jpg", captured: LocalDateTime(year: 2023, month: 7, day: 14, hour: 8 + $0 / 3600, minute: $0 / 60 % 60, second: $0 % 60)) },
        ]
        for photos in libraries {
            let timeline = try PhotoTimeline(photos: photos)
            for (width, height) in [(390.0, 844.0), (1440, 900), (10_000, 900), (1, 1)] {
                let map = try PackedZoomMap(timeline: timeline, viewport: ViewportSize(width: width, height: height), today: Self.today)
                for level in PackedLevel.allCases {
                    let layout = map.layout(level)
                    layout._checkInvariants()
                    #expect(layout.sectionCounts.reduce(0, +) == (level == .fine ? photos.count : level == .years ? map.years.count : timeline.coarseSections.reduce(0) { $0 + $1.shown.count }))
                    #expect(layout.contentHeight.isFinite && layout.contentHeight > 0)
                }
                #expect(map.years.reduce(0) { $0 + $1.count } == photos.count)
            }
        }
    }

    @Test("the sparse 25-year archive reaches the coverage and screen targets, phone and desktop",
          arguments: [UInt64(31), 7, 1000, 5, 1, 2, 3, 42, 77, 2024])
    func sparseArchiveTargets(seed: UInt64) throws {
        let photos = sparseArchive(seed: seed)
        #expect((1_700...2_100).contains(photos.count))
        let timeline = try PhotoTimeline(photos: photos)
        let desktop = ViewportSize(width: 1440, height: 900)
        let phone = ViewportSize(width: 390, height: 844)
        let targets: [(ViewportSize, PackedLevel, Double)] = [
            (desktop, .coarse, 30), (desktop, .fine, 110), (phone, .coarse, 16), (phone, .fine, 90), (desktop, .years, 3), (phone, .years, 3),
        ]
        print("sparse archive \(seed): \(photos.count) photos, \(timeline.coarseSections.count) coarse and \(timeline.fineSections.count) fine sections")
        for (viewport, level, maxScreens) in targets {
            let map = try PackedZoomMap(timeline: timeline, viewport: viewport, today: Self.today)
            let layout = map.layout(level)
            let coverage = ScreenCoverage(layout, viewportHeight: viewport.height)
            print("  \(Int(viewport.width))×\(Int(viewport.height)) \(level): \(layout.columns) columns of \(layout.cellSide), coverage median "
                + "\(coverage.median), 10th percentile \(coverage.p10), \(coverage.screens) screens (at most \(maxScreens))")
            #expect(coverage.screens <= maxScreens, "\(viewport) \(level)")
            guard level != .years else { continue }
            #expect(coverage.median >= 0.55, "\(viewport) \(level)")
            // On the desktop's Days the early years' lone days (1–2 of 7 cells, about 0.2 of a
            // screen each when alone on a line) meet this only because sparse months share lines.
            #expect(coverage.p10 >= 0.35, "\(viewport) \(level)")
        }
    }
}
