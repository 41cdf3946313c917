import GalleryLayout
import WallClock
import Testing
import Timeline
import ZoomMapping

@Suite("Zoom map")
struct ZoomMapTests {
    private func photos(_ minutes: [Int], day: Int = 8) -> [TimelinePhoto] {
        minutes.enumerated().map { index, minute in
            TimelinePhoto(
                path: "IMG_\(index).JPG",
                captured: LocalDateTime(year: 2025, month: 3, day: day, hour: 10 + minute / 60, minute: minute % 60))
        }
    }

    @Test("hand-computed zoom in under a 64-pt bar, then a clamped one")
    func handComputed() throws {
        let timeline = try PhotoTimeline(photos: photos([0, 1, 2]))
        let map = try ZoomMap(timeline: timeline, settings: ZoomSettings(contentInsets: ContentInsets(top: 64)))
        // Coarse: one row of 39-pt cells under a 50-pt header; fine: 96.375-pt cells.
        #expect(map.coarse.contentHeight == 89)
        #expect(map.fine.contentHeight == 146.375)
        #expect(map.scrollRange(.coarse) == -64 ... -64)
        let t = try map.zoomIn(from: GridIndexPath(section: 0, item: 2), contentOffsetY: -64)
        #expect(t.to == LevelIndexPath(level: .fine, section: 0, item: 2))
        #expect(t.sourceFrame.minY == 50 && t.sourceViewportY == 114)
        #expect(t.targetFrame == GridRect(minX: 2 * 97.875, minY: 50, width: 96.375, height: 96.375))
        #expect(t.contentOffsetY == -64 && !t.clamped && t.targetViewportY == 114)
        #expect(timeline.photos[t.targetPhoto].path == "IMG_2.JPG" && t.isSamePhoto)

        // From offset 0 (cell 50 pt from the top) the fine grid would need offset 0, above its range.
        let clamped = try map.zoomIn(from: GridIndexPath(section: 0, item: 0), contentOffsetY: 0)
        #expect(clamped.unclampedContentOffsetY == 0)
        #expect(clamped.contentOffsetY == -64 && clamped.clamped)
        #expect(clamped.targetViewportY == 114)
    }

    @Test("zoom out to an unsampled photo picks the nearest shown one in time, the earlier on a tie")
    func zoomOutNearest() throws {
        // 11 photos 10 minutes apart: the coarse section shows 10 of them.
        let timeline = try PhotoTimeline(photos: photos(Array(stride(from: 0, through: 100, by: 10))))
        let map = try ZoomMap(timeline: timeline)
        let shown = timeline.coarseSections[0].shown
        #expect(shown.count == 10)
        let hidden = try #require((0..<11).first { !shown.contains($0) })
        let fine = try #require(map.indexPath(ofPhoto: hidden, in: .fine))
        #expect(map.indexPath(ofPhoto: hidden, in: .coarse) == nil)
        let t = try map.zoomOut(from: fine, contentOffsetY: 0)
        #expect(!t.isSamePhoto)
        #expect(t.targetPhoto == (hidden == 0 ? 1 : hidden - 1))
        #expect(t.to.section == 0 && shown[t.to.item] == t.targetPhoto)
    }

    @Test("zoom out prefers the strictly nearer later photo")
    func zoomOutLater() throws {
        // Minutes 0…9 at 10-minute steps, then 91, 92, … so some hidden photo sits nearer its successor.
        var minutes = Array(stride(from: 0, through: 90, by: 10))
        minutes += [300, 301, 302, 303, 304, 305, 306, 307, 308, 309, 310, 311]
        let timeline = try PhotoTimeline(photos: photos(minutes))
        let map = try ZoomMap(timeline: timeline)
        let shown = timeline.coarseSections[0].shown
        for photo in timeline.photos.indices where !shown.contains(photo) {
            let t = try map.zoomOut(from: try #require(map.indexPath(ofPhoto: photo, in: .fine)), contentOffsetY: 0)
            let time = timeline.captureMilliseconds(ofPhoto: photo)
            let best = shown.min { a, b in
                let (da, db) = (abs(timeline.captureMilliseconds(ofPhoto: a) - time), abs(timeline.captureMilliseconds(ofPhoto: b) - time))
                return da != db ? da < db : a < b
            }
            #expect(t.targetPhoto == best)
        }
    }

    @Test("errors name the valid range")
    func errors() throws {
        let map = try ZoomMap(timeline: PhotoTimeline(photos: photos([0, 1, 2])))
        #expect {
            try map.zoomIn(from: GridIndexPath(section: 12, item: 0), contentOffsetY: 0)
        } throws: { ($0 as? ZoomError)?.message == "section 12 is out of range: the coarse level has only section 0" }
        #expect {
            try map.zoomOut(from: GridIndexPath(section: 0, item: 3), contentOffsetY: 0)
        } throws: { ($0 as? ZoomError)?.message == "item 3 is out of range: section 0 of the fine level has items 0–2" }
        #expect {
            try map.pinch(from: .fine, focalPoint: GridPoint(x: 10, y: 5000), contentOffsetY: 0)
        } throws: { ($0 as? ZoomError)?.message == "the focal point (10, 5000) is outside the viewport: x must be 0–390 and y 0–844" }
        #expect {
            try map.pinch(from: .coarse, focalPoint: GridPoint(x: -1, y: 10), contentOffsetY: 0)
        } throws: { ($0 as? ZoomError)?.code == .focalPointOutsideViewport }
        let empty = try ZoomMap(timeline: PhotoTimeline(photos: []))
        #expect {
            try empty.pinch(from: .fine, focalPoint: GridPoint(x: 10, y: 10), contentOffsetY: 0)
        } throws: { ($0 as? ZoomError)?.code == .emptyLevel }
        #expect(empty.scrollRange(.fine) == 0...0)
    }

    @Test("zoom in then out returns the same photo; y kept unless clamped; offsets in range", arguments: propertySeeds)
    func roundTrip(seed: UInt64) throws {
        var (map, rng) = try randomMap(seed: seed)
        for _ in 0..<200 {
            let start = randomIndexPath(map.coarse, using: &rng)
            let range = map.scrollRange(.coarse)
            let offset = Double.random(in: range.lowerBound...range.upperBound + 1, using: &rng)
            let zoomIn = try map.zoomIn(from: start, contentOffsetY: offset)
            try check(zoomIn, in: map)
            #expect(zoomIn.isSamePhoto)
            #expect(map.timeline.photos[zoomIn.targetPhoto] == map.timeline.photos[try map.photo(at: start, in: .coarse)])

            let zoomOut = try map.zoomOut(from: zoomIn.to.indexPath, contentOffsetY: zoomIn.contentOffsetY)
            try check(zoomOut, in: map)
            #expect(zoomOut.to == LevelIndexPath(level: .coarse, start), "a sampled photo comes back to its cell")
            if !zoomIn.clamped && !zoomOut.clamped {
                #expect(close(zoomOut.contentOffsetY, offset))
            }
        }
    }

    @Test("zoom out from any fine photo lands in its coarse section", arguments: propertySeeds)
    func zoomOut(seed: UInt64) throws {
        var (map, rng) = try randomMap(seed: seed)
        let timeline = map.timeline
        for _ in 0..<200 {
            let start = randomIndexPath(map.fine, using: &rng)
            let range = map.scrollRange(.fine)
            let offset = Double.random(in: range.lowerBound - 100...range.upperBound + 100, using: &rng)
            let t = try map.zoomOut(from: start, contentOffsetY: offset)
            try check(t, in: map)
            let coarse = timeline.fineSections[start.section].coarseSection
            #expect(t.to.section == coarse)
            #expect(map.coarseSection(ofPhoto: t.sourcePhoto) == coarse)
            let shown = timeline.coarseSections[coarse].shown
            if shown.contains(t.sourcePhoto) {
                #expect(t.isSamePhoto)
            } else {
                let time = timeline.captureMilliseconds(ofPhoto: t.sourcePhoto)
                let best = shown.min { a, b in
                    let da = abs(timeline.captureMilliseconds(ofPhoto: a) - time)
                    let db = abs(timeline.captureMilliseconds(ofPhoto: b) - time)
                    return da != db ? da < db : a < b
                }
                #expect(t.targetPhoto == best)
            }
        }
    }

    @Test("pinch anchors the item under or nearest the focal point, both directions", arguments: propertySeeds)
    func pinch(seed: UInt64) throws {
        var (map, rng) = try randomMap(seed: seed)
        let viewport = map.settings.viewport
        for _ in 0..<200 {
            let level = Bool.random(using: &rng) ? TimelineLevel.coarse : .fine
            let range = map.scrollRange(level)
            let offset = Double.random(in: range, using: &rng)
            let focal = GridPoint(
                x: Double.random(in: 0..<viewport.width, using: &rng), y: Double.random(in: 0..<viewport.height, using: &rng))
            let t = try map.pinch(from: level, focalPoint: focal, contentOffsetY: offset)
            try check(t, in: map)
            let content = GridPoint(x: focal.x, y: focal.y + offset)
            #expect(t.from.indexPath == map.layout(level).nearestIndexPath(to: content))
            if let hit = map.layout(level).indexPath(at: content) {
                #expect(t.from.indexPath == hit, "a cell under the focal point is the anchor")
            }
        }
    }

    @Test("photo lookups are consistent both ways", arguments: propertySeeds.prefix(10))
    func lookups(seed: UInt64) throws {
        let (map, _) = try randomMap(seed: seed)
        for photo in map.timeline.photos.indices {
            let fine = try #require(map.indexPath(ofPhoto: photo, in: .fine))
            #expect(try map.photo(at: fine, in: .fine) == photo)
            if let coarse = map.indexPath(ofPhoto: photo, in: .coarse) {
                #expect(try map.photo(at: coarse, in: .coarse) == photo)
            }
        }
        for (section, coarse) in map.timeline.coarseSections.enumerated() {
            for (item, photo) in coarse.shown.enumerated() {
                #expect(map.indexPath(ofPhoto: photo, in: .coarse) == GridIndexPath(section: section, item: item))
            }
        }
        #expect(map.indexPath(ofPhoto: -1, in: .fine) == nil)
        #expect(map.indexPath(ofPhoto: map.timeline.photos.count, in: .coarse) == nil)
    }

    /// Invariants of every transition.
    private func check(_ t: ZoomTransition, in map: ZoomMap) throws {
        #expect(exists(t.from, in: map) && exists(t.to, in: map))
        #expect(t.to.level == t.from.level.other)
        #expect(try map.photo(at: t.from.indexPath, in: t.from.level) == t.sourcePhoto)
        #expect(try map.photo(at: t.to.indexPath, in: t.to.level) == t.targetPhoto)
        #expect(try map.layout(t.to.level).frame(at: t.to.indexPath) == t.targetFrame)
        let range = map.scrollRange(t.to.level)
        #expect(range.contains(t.contentOffsetY), "offset inside the scrollable range")
        #expect(range.lowerBound == -map.settings.contentInsets.top)
        #expect(t.clamped == (t.contentOffsetY != t.unclampedContentOffsetY))
        #expect(t.clamped == !range.contains(t.unclampedContentOffsetY))
        if !t.clamped {
            #expect(close(t.targetViewportY, t.sourceViewportY), "the photo keeps its height on screen")
        }
    }
}
