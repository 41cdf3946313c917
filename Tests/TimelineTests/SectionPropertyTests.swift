import SeededRandom
import Testing
import Timeline

@Suite("Sections over random libraries")
struct SectionPropertyTests {
    @Test("photos are in capture order, then path", arguments: propertySeeds)
    func captureOrder(seed: UInt64) throws {
        var rng = SplitMix64(seed: seed)
        let input = randomLibrary(using: &rng)
        let timeline = try PhotoTimeline(photos: input, settings: randomSettings(using: &rng))
        #expect(timeline.photos.count == input.count)
        #expect(Set(timeline.photos.map(\.path)) == Set(input.map(\.path)))
        for (a, b) in zip(timeline.photos, timeline.photos.dropFirst()) {
            let ka = try #require(a.captured.millisecondsSince2001)
            let kb = try #require(b.captured.millisecondsSince2001)
            #expect(ka < kb || (ka == kb && a.path.utf8.lexicographicallyPrecedes(b.path.utf8)))
        }
    }

    @Test("fine sections: 1 or 2 days, one window, greedy pairing, every photo once", arguments: propertySeeds)
    func fineSections(seed: UInt64) throws {
        var rng = SplitMix64(seed: seed)
        let settings = randomSettings(using: &rng)
        let timeline = try PhotoTimeline(photos: randomLibrary(using: &rng), settings: settings)
        let span = settings.coarse.spanDays
        let days = timeline.photos.map { logicalDay(of: $0, dayStartHour: settings.dayStartHour) }
        var photosPerDay: [Int: Int] = [:]
        for day in days { photosPerDay[day, default: 0] += 1 }

        var next = 0
        for (index, section) in timeline.fineSections.enumerated() {
            #expect(section.photoRange.lowerBound == next, "section \(index) must start where the previous ended")
            #expect(!section.photoRange.isEmpty)
            next = section.photoRange.upperBound
            let first = section.firstDay.daysSince2001
            let last = section.lastDay.daysSince2001
            #expect(last == first || last == first + 1, "a fine section spans one or two days")
            #expect(floorDiv(first, span) == floorDiv(last, span), "a fine section never crosses a coarse window")
            for photo in section.photoRange {
                #expect(days[photo] == first || days[photo] == last)
            }
            if last != first {
                #expect(days[section.photoRange.lowerBound] == first && days[section.photoRange.upperBound - 1] == last)
                #expect(section.count <= settings.fine.mergeLimit)
            } else if let nextCount = photosPerDay[first + 1], floorDiv(first, span) == floorDiv(first + 1, span) {
                // Walking in order, a lone day stays alone beside a same-window next day only when together
                // they hold too many photos.
                #expect(photosPerDay[first]! + nextCount > settings.fine.mergeLimit)
            }
        }
        #expect(next == timeline.photos.count, "fine sections cover every photo")
    }

    @Test("coarse sections: aligned windows, exact runs of fine sections, every photo once", arguments: propertySeeds)
    func coarseSections(seed: UInt64) throws {
        var rng = SplitMix64(seed: seed)
        let settings = randomSettings(using: &rng)
        let timeline = try PhotoTimeline(photos: randomLibrary(using: &rng), settings: settings)
        let span = settings.coarse.spanDays
        var nextFine = 0
        var nextPhoto = 0
        var previousWindow: Int?
        for (index, section) in timeline.coarseSections.enumerated() {
            let start = section.windowStart.daysSince2001
            #expect(floorMod(start, span) == 0, "windows are aligned on 2001-01-01")
            #expect(section.windowEnd.daysSince2001 == start + span - 1)
            if let previousWindow { #expect(start > previousWindow) }
            previousWindow = start
            #expect(section.firstDay >= section.windowStart && section.lastDay <= section.windowEnd)
            #expect(section.firstDay <= section.lastDay)

            #expect(section.fineSections.lowerBound == nextFine)
            #expect(!section.fineSections.isEmpty, "empty windows are omitted")
            nextFine = section.fineSections.upperBound
            let fine = timeline.fineSections[section.fineSections]
            #expect(fine.first!.photoRange.lowerBound == section.photoRange.lowerBound)
            #expect(fine.last!.photoRange.upperBound == section.photoRange.upperBound)
            #expect(fine.first!.firstDay == section.firstDay && fine.last!.lastDay == section.lastDay)
            for f in fine {
                #expect(f.coarseSection == index)
                #expect(f.firstDay >= section.windowStart && f.lastDay <= section.windowEnd)
            }
            #expect(section.photoRange.lowerBound == nextPhoto)
            nextPhoto = section.photoRange.upperBound
        }
        #expect(nextFine == timeline.fineSections.count)
        #expect(nextPhoto == timeline.photos.count)
    }

    @Test("shown counts are 1–10, 20, 30, 40 or 50, in capture order, the k smallest hashes", arguments: propertySeeds)
    func sampleShape(seed: UInt64) throws {
        var rng = SplitMix64(seed: seed)
        let settings = TimelineSettings(coarse: CoarseSettings(seed: rng.next()))
        let timeline = try PhotoTimeline(photos: randomLibrary(using: &rng, maxPhotos: 3000), settings: settings)
        for section in timeline.coarseSections {
            let n = section.count
            let k = section.shown.count
            #expect(k == (n <= 10 ? n : min(50, 10 * (n / 10))))
            #expect((1...10).contains(k) || [20, 30, 40, 50].contains(k))
            #expect(zip(section.shown, section.shown.dropFirst()).allSatisfy { $0 < $1 }, "capture order")
            #expect(section.shown.allSatisfy(section.photoRange.contains))
            // Reference: a full sort by (hash, path).
            let all = timeline.photos[section.photoRange].map(\.path)
            let expected = Set(all.sorted(by: sampleOrder(seed: settings.coarse.seed)).prefix(k))
            #expect(Set(shownPaths(timeline, section)) == expected)
        }
    }

    @Test("input order does not matter", arguments: propertySeeds.prefix(10))
    func inputOrder(seed: UInt64) throws {
        var rng = SplitMix64(seed: seed)
        let settings = randomSettings(using: &rng)
        let input = randomLibrary(using: &rng)
        let a = try PhotoTimeline(photos: input, settings: settings)
        let b = try PhotoTimeline(photos: input.shuffled(using: &rng), settings: settings)
        let c = try PhotoTimeline(photos: a.photos, settings: settings)
        #expect(c.inputWasSorted)
        for other in [b, c] {
            #expect(other.photos == a.photos)
            #expect(other.fineSections == a.fineSections)
            #expect(other.coarseSections == a.coarseSections)
        }
    }
}

func floorDiv(_ a: Int, _ b: Int) -> Int {
    (a - floorMod(a, b)) / b
}
