import WallClock
import SeededRandom
import Timeline

/// A date-time on `day` (days since 2001-01-01) at `millisecondOfDay`.
func dateTime(day: Int, millisecondOfDay ms: Int, withMilliseconds: Bool = true) -> LocalDateTime {
    let (y, m, d) = TimelineDay(daysSince2001: day).components
    return LocalDateTime(
        year: y, month: m, day: d,
        hour: ms / 3_600_000, minute: ms / 60_000 % 60, second: ms / 1000 % 60,
        millisecond: withMilliseconds ? ms % 1000 : nil)
}

/// A random library: bursts of active days with gaps, a few photos on most days and many on some,
/// colliding times now and then, shuffled.
func randomLibrary(using rng: inout SplitMix64, maxPhotos: Int = 1500) -> [TimelinePhoto] {
    var photos: [TimelinePhoto] = []
    var day = Int.random(in: -400...9000, using: &rng)
    let target = Int.random(in: 0...maxPhotos, using: &rng)
    while photos.count < target {
        let burst = Int.random(in: 1...12, using: &rng)
        for _ in 0..<burst where photos.count < target {
            let count: Int
            switch Int.random(in: 0..<10, using: &rng) {
            case 0..<5: count = Int.random(in: 1...6, using: &rng)
            case 5..<8: count = Int.random(in: 5...20, using: &rng)
            default: count = Int.random(in: 20...120, using: &rng)
            }
            for _ in 0..<count {
                // Coarse times (whole minutes, no milliseconds) make capture-time ties.
                let coarseTime = Bool.random(using: &rng)
                let ms = coarseTime
                    ? Int.random(in: 0..<1440, using: &rng) * 60_000
                    : Int.random(in: 0..<86_400_000, using: &rng)
                photos.append(TimelinePhoto(
                    path: "lib/\(day)/IMG_\(photos.count).JPG",
                    captured: dateTime(day: day, millisecondOfDay: ms, withMilliseconds: !coarseTime),
                    dateOrigin: Int.random(in: 0..<20, using: &rng) == 0 ? .fileModified : .recorded))
            }
            day += Int.random(in: 1...3, using: &rng)
        }
        day += Int.random(in: 1...60, using: &rng)
    }
    photos.shuffle(using: &rng)
    return photos
}

/// Random settings within valid ranges, often the defaults.
func randomSettings(using rng: inout SplitMix64) -> TimelineSettings {
    guard Bool.random(using: &rng) else { return TimelineSettings() }
    return TimelineSettings(
        dayStartHour: [0, 0, 4, 23].randomElement(using: &rng)!,
        fine: FineSettings(mergeLimit: [1, 5, 12, 40].randomElement(using: &rng)!),
        coarse: CoarseSettings(
            spanDays: [1, 2, 7, 14, 30].randomElement(using: &rng)!,
            seed: rng.next()))
}

/// The day a photo belongs to, computed independently of the library's arithmetic.
func logicalDay(of photo: TimelinePhoto, dayStartHour: Int) -> Int {
    let day = photo.captured.calendarDay!.daysSince2001
    return photo.captured.hour < dayStartHour ? day - 1 : day
}

func floorMod(_ a: Int, _ b: Int) -> Int {
    let r = a % b
    return r < 0 ? r + b : r
}

/// Paths of a coarse section's shown photos.
func shownPaths(_ timeline: PhotoTimeline, _ section: CoarseSection) -> [String] {
    section.shown.map { timeline.photos[$0].path }
}

/// Order of the stable sample: hash, then path bytes.
func sampleOrder(seed: UInt64) -> (String, String) -> Bool {
    { a, b in
        let (ha, hb) = (SampleHash.value(seed: seed, path: a), SampleHash.value(seed: seed, path: b))
        return ha != hb ? ha < hb : a.utf8.lexicographicallyPrecedes(b.utf8)
    }
}

let propertySeeds: [UInt64] = Array(1...40)
