import WallClock
import SeededRandom
import Testing
@testable import Timeline

@Suite("Stable sampling")
struct SamplingStabilityTests {
    @Test("the same seed gives identical output", arguments: propertySeeds.prefix(10))
    func sameSeed(seed: UInt64) throws {
        var rng = SplitMix64(seed: seed)
        let settings = randomSettings(using: &rng)
        let input = randomLibrary(using: &rng)
        let a = try PhotoTimeline(photos: input, settings: settings)
        let b = try PhotoTimeline(photos: input, settings: settings)
        #expect(a.coarseSections == b.coarseSections)
        #expect(a.fineSections == b.fineSections)
    }

    @Test("different seeds give different samples for large sections", arguments: propertySeeds.prefix(10))
    func differentSeeds(seed: UInt64) throws {
        var rng = SplitMix64(seed: seed)
        let photos = (0..<400).map { i in
            TimelinePhoto(path: "trip/IMG_\(i).JPG", captured: dateTime(day: 9000, millisecondOfDay: i * 1000))
        }
        let seedA = rng.next()
        let seedB = seedA &+ 1
        let a = try PhotoTimeline(photos: photos, settings: TimelineSettings(coarse: CoarseSettings(seed: seedA)))
        let b = try PhotoTimeline(photos: photos, settings: TimelineSettings(coarse: CoarseSettings(seed: seedB)))
        #expect(a.coarseSections[0].shown.count == 50)
        #expect(a.coarseSections[0].shown != b.coarseSections[0].shown)
    }

    /// Adds one photo inside a random coarse section of a random library.
    private func addingOnePhoto(
        seed: UInt64
    ) throws -> (before: PhotoTimeline, after: PhotoTimeline, section: Int, added: String)? {
        var rng = SplitMix64(seed: seed)
        let settings = TimelineSettings(coarse: CoarseSettings(seed: rng.next()))
        let input = randomLibrary(using: &rng, maxPhotos: 2500)
        let before = try PhotoTimeline(photos: input, settings: settings)
        guard let section = before.coarseSections.indices.randomElement(using: &rng) else { return nil }
        let s = before.coarseSections[section]
        let day = Int.random(in: s.firstDay.daysSince2001...s.lastDay.daysSince2001, using: &rng)
        let added = "added/IMG_\(rng.next()).JPG"
        let photo = TimelinePhoto(
            path: added, captured: dateTime(day: day, millisecondOfDay: Int.random(in: 0..<86_400_000, using: &rng)))
        let after = try PhotoTimeline(photos: input + [photo], settings: settings)
        return (before, after, section, added)
    }

    @Test("adding one photo changes at most one shown photo while k stays", arguments: Array(propertySeeds))
    func addOnePhotoSameK(seed: UInt64) throws {
        guard let (before, after, index, added) = try addingOnePhoto(seed: seed) else { return }
        let old = before.coarseSections[index]
        let new = try #require(after.coarseSections.first { $0.windowStart == old.windowStart })
        #expect(new.count == old.count + 1)
        let oldPaths = Set(shownPaths(before, old))
        let newPaths = Set(shownPaths(after, new))
        if new.shown.count == old.shown.count {
            #expect(oldPaths.subtracting(newPaths).count <= 1)
            #expect(newPaths.subtracting(oldPaths).count <= 1)
            #expect(newPaths.subtracting(oldPaths).allSatisfy { $0 == added })
        } else {
            #expect(new.shown.count > old.shown.count)
            #expect(oldPaths.isSubset(of: newPaths), "when k grows the old sample stays inside the new one")
        }
        // Every other coarse section is untouched.
        let others = after.coarseSections.filter { $0.windowStart != old.windowStart }
        #expect(others.map { shownPaths(after, $0) }
            == before.coarseSections.filter { $0.windowStart != old.windowStart }.map { shownPaths(before, $0) })
    }

    @Test("when k grows, the old sample is a subset of the new", arguments: [11, 19, 29, 39, 49, 55])
    func growingK(start: Int) throws {
        var rng = SplitMix64(seed: UInt64(start))
        let settings = TimelineSettings(coarse: CoarseSettings(seed: rng.next()))
        var photos: [TimelinePhoto] = []
        var previous: Set<String> = []
        var previousK = 0
        for i in 0..<(start + 25) {
            photos.append(TimelinePhoto(
                path: "p/\(rng.next()).jpg",
                captured: dateTime(day: 100, millisecondOfDay: Int.random(in: 0..<86_400_000, using: &rng))))
            guard i + 1 >= start else { continue }
            let timeline = try PhotoTimeline(photos: photos, settings: settings)
            let section = timeline.coarseSections[0]
            let shown = Set(shownPaths(timeline, section))
            if section.shown.count > previousK {
                #expect(previous.isSubset(of: shown))
            } else {
                #expect(previous.subtracting(shown).count <= 1)
            }
            previous = shown
            previousK = section.shown.count
        }
    }

    @Test("golden: hash values are pinned")
    func goldenHashes() {
        // Computed independently (Python) from the documented definition.
        #expect(SampleHash.value(seed: 0, path: "") == 0x813f_0174_a236_7c13)
        #expect(SampleHash.value(seed: 20_010_101, path: "IMG_0001.JPG") == 0x7437_8684_6be1_6d2b)
        #expect(SampleHash.value(seed: 20_010_101, path: "2025/03/IMG_0002.HEIC") == 0x6a25_7c7a_9e58_9d2c)
        #expect(SampleHash.value(seed: 42, path: "été/photo.jpg") == 0x4756_53eb_7454_8383)
        #expect(SampleHash.value(seed: .max, path: "a") == 0x77f5_e5a7_2d77_836c)
        #expect(CoarseSettings.defaultSeed == 20_010_101)
    }

    @Test("golden: a fixed input gives an exact sample")
    func goldenSample() throws {
        let photos = (0..<37).map { i in
            TimelinePhoto(
                path: "2025/03/IMG_\(String(repeating: "0", count: 4 - String(i).count))\(i).JPG",
                captured: LocalDateTime(year: 2025, month: 3, day: 8, hour: 10, minute: i))
        }
        let timeline = try PhotoTimeline(photos: photos.reversed(), settings: TimelineSettings(coarse: CoarseSettings(seed: 7)))
        let section = try #require(timeline.coarseSections.first)
        #expect(section.shown.count == 30)
        let hidden = Set(timeline.photos.map(\.path)).subtracting(shownPaths(timeline, section))
        #expect(hidden == Set([8, 12, 18, 19, 22, 25, 32].map { "2025/03/IMG_00\($0 < 10 ? "0" : "")\($0).JPG" }))
        #expect(shownPaths(timeline, section).prefix(9) == [
            "2025/03/IMG_0000.JPG", "2025/03/IMG_0001.JPG", "2025/03/IMG_0002.JPG", "2025/03/IMG_0003.JPG",
            "2025/03/IMG_0004.JPG", "2025/03/IMG_0005.JPG", "2025/03/IMG_0006.JPG", "2025/03/IMG_0007.JPG",
            "2025/03/IMG_0009.JPG",
        ])
    }

    @Test("hash ties are broken by path, then position")
    func tieBreak() {
        // Equal 64-bit hashes cannot be found on purpose, so feed the selection heap equal hashes directly.
        let photos = ["b.jpg", "a.jpg", "c.jpg", "a.jpg"].map {
            TimelinePhoto(path: $0, captured: LocalDateTime(year: 2020, month: 1, day: 1))
        }
        photos.withUnsafeBufferPointer { buffer in
            var heap = SampleHeap(capacity: 2)
            for index in buffer.indices {
                heap.offer(SampleCandidate(hash: 5, index: index), photos: buffer)
            }
            #expect(heap.elements.map(\.index).sorted() == [1, 3], "both a.jpg win over b.jpg and c.jpg")
            var single = SampleHeap(capacity: 1)
            for index in buffer.indices.reversed() {
                single.offer(SampleCandidate(hash: 5, index: index), photos: buffer)
            }
            #expect(single.elements.map(\.index) == [1], "equal paths: the earlier position wins")
            #expect(SampleCandidate(hash: 4, index: 2).precedes(SampleCandidate(hash: 5, index: 1), photos: buffer))
        }
    }
}
