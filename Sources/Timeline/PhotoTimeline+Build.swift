extension PhotoTimeline {
    /// Consecutive photos sharing one (day-start-shifted) day.
    package struct DayRun {
        var day: Int
        var start: Int
        var end: Int
    }

    /// `photos` in capture order with their keys; the input array itself when already ordered.
    ///
    /// Works in place on the array it is given (no per-photo retain) when the caller gives it up.
    package static func captureOrdered(
        _ photos: consuming [TimelinePhoto]
    ) throws(TimelineError) -> (photos: [TimelinePhoto], keys: [Int64], wasSorted: Bool) {
        var invalid: Int?
        let keys = photos.withUnsafeBufferPointer { photos in
            [Int64](unsafeUninitializedCapacity: photos.count) { keys, initialized in
                for i in photos.indices {
                    if let key = photos[i].captured.millisecondsSince2001 {
                        keys[i] = key
                    } else {
                        keys[i] = 0
                        if invalid == nil { invalid = i }
                    }
                }
                initialized = photos.count
            }
        }
        if let invalid {
            let photo = photos[invalid]
            throw TimelineError(
                code: .invalidDateTime, subject: photo.path,
                message: "photo \(photo.path) has an invalid capture date-time: \(photo.captured)")
        }

        let sorted = photos.withUnsafeBufferPointer { photos in
            keys.withUnsafeBufferPointer { keys in
                for i in keys.indices.dropFirst() {
                    let (a, b) = (keys[i - 1], keys[i])
                    if a > b || (a == b && pathPrecedes(photos[i].path, photos[i - 1].path)) { return false }
                }
                return true
            }
        }
        if sorted { return (photos, keys, true) }

        struct Entry {
            var key: Int64
            var index: Int
        }
        var entries = keys.enumerated().map { Entry(key: $1, index: $0) }
        photos.withUnsafeBufferPointer { photos in
            entries.sort { a, b in
                if a.key != b.key { return a.key < b.key }
                let (pa, pb) = (photos[a.index].path, photos[b.index].path)
                if pathPrecedes(pa, pb) { return true }
                if pathPrecedes(pb, pa) { return false }
                return a.index < b.index
            }
        }
        // Position p takes the photo at entries[p].index: follow each cycle, moving photos
        // bitwise (no retain or release), marking visited positions with -1.
        var source = entries.map(\.index)
        photos.withUnsafeMutableBufferPointer { photos in
            guard let base = photos.baseAddress else { return }
            for start in source.indices where source[start] >= 0 {
                guard source[start] != start else {
                    source[start] = -1
                    continue
                }
                let first = (base + start).move()
                var current = start
                while true {
                    let next = source[current]
                    source[current] = -1
                    if next == start {
                        (base + current).initialize(to: first)
                        break
                    }
                    (base + current).moveInitialize(from: base + next, count: 1)
                    current = next
                }
            }
        }
        return (photos, entries.map(\.key), false)
    }

    /// Runs of photos per day, in order. With `dayStartHour` h, a day runs from h:00 to h:00 next day.
    package static func dayRuns(keys: [Int64], dayStartHour: Int) -> [DayRun] {
        var runs: [DayRun] = []
        let shift = Int64(dayStartHour) * 3_600_000
        keys.withUnsafeBufferPointer { keys in
            for i in keys.indices {
                let day = floorDivide(keys[i] - shift, 86_400_000)
                if let last = runs.last, last.day == day {
                    runs[runs.count - 1].end = i + 1
                } else {
                    runs.append(DayRun(day: day, start: i, end: i + 1))
                }
            }
        }
        return runs
    }

    /// Fine sections by greedy pairing of consecutive days, then coarse windows over them.
    package static func sections(
        days: [DayRun], photos: [TimelinePhoto], settings: TimelineSettings
    ) -> (fine: [FineSection], coarse: [CoarseSection]) {
        let span = settings.coarse.spanDays
        let mergeLimit = settings.fine.mergeLimit
        func window(_ day: Int) -> Int { Int(floorDivide(Int64(day), Int64(span))) }

        var fine: [FineSection] = []
        var coarse: [CoarseSection] = []
        var coarseStartFine = 0
        var i = 0
        while i < days.count {
            let first = days[i]
            var last = first
            if i + 1 < days.count {
                let next = days[i + 1]
                if next.day == first.day + 1, window(next.day) == window(first.day), next.end - first.start <= mergeLimit {
                    last = next
                }
            }
            i += last.day == first.day ? 1 : 2

            if let previous = fine.last, window(previous.firstDay.daysSince2001) != window(first.day) {
                coarse.append(coarseSection(fine: fine, from: coarseStartFine, photos: photos, settings: settings))
                coarseStartFine = fine.count
            }
            fine.append(FineSection(
                firstDay: TimelineDay(daysSince2001: first.day),
                lastDay: TimelineDay(daysSince2001: last.day),
                photoRange: first.start..<last.end,
                coarseSection: coarse.count))
        }
        if !fine.isEmpty {
            coarse.append(coarseSection(fine: fine, from: coarseStartFine, photos: photos, settings: settings))
        }
        return (fine, coarse)
    }

    /// The coarse section made of `fine[from...]` (all in one window).
    static func coarseSection(
        fine: [FineSection], from start: Int, photos: [TimelinePhoto], settings: TimelineSettings
    ) -> CoarseSection {
        let span = settings.coarse.spanDays
        let firstFine = fine[start]
        let lastFine = fine[fine.count - 1]
        let windowStart = Int(floorDivide(Int64(firstFine.firstDay.daysSince2001), Int64(span))) * span
        let range = firstFine.photoRange.lowerBound..<lastFine.photoRange.upperBound
        let k = settings.coarse.shownCount(forSectionOf: range.count)
        let shown: [Int]
        if k == range.count {
            shown = Array(range)
        } else {
            switch settings.coarse.sampling {
            case .stable:
                shown = stableSample(of: range, photos: photos, seed: settings.coarse.seed, count: k)
            case .stride:
                shown = StrideSampling.indices(count: range.count, target: k).map { range.lowerBound + $0 }
            }
        }
        return CoarseSection(
            windowStart: TimelineDay(daysSince2001: windowStart),
            windowEnd: TimelineDay(daysSince2001: windowStart + span - 1),
            firstDay: firstFine.firstDay,
            lastDay: lastFine.lastDay,
            photoRange: range,
            fineSections: start..<fine.count,
            shown: shown)
    }

    /// Positions (ascending) of the `count` photos of `range` with the smallest (hash, path).
    ///
    /// - Complexity: O(n log count) with a bounded max-heap; no full sort.
    static func stableSample(of range: Range<Int>, photos: [TimelinePhoto], seed: UInt64, count: Int) -> [Int] {
        guard count > 0 else { return [] }
        var heap = SampleHeap(capacity: count)
        photos.withUnsafeBufferPointer { photos in
            for index in range {
                let hash = SampleHash.value(seed: seed, path: photos[index].path)
                heap.offer(SampleCandidate(hash: hash, index: index), photos: photos)
            }
        }
        return heap.elements.map(\.index).sorted()
    }
}

struct SampleCandidate {
    var hash: UInt64
    var index: Int

    /// Order of the stable sample: hash, then path bytes, then position (duplicate paths).
    @inline(__always)
    func precedes(_ other: SampleCandidate, photos: UnsafeBufferPointer<TimelinePhoto>) -> Bool {
        if hash != other.hash { return hash < other.hash }
        let (a, b) = (photos[index].path, photos[other.index].path)
        if pathPrecedes(a, b) { return true }
        if pathPrecedes(b, a) { return false }
        return index < other.index
    }
}

/// A max-heap keeping the `capacity` smallest candidates offered.
struct SampleHeap {
    let capacity: Int
    private(set) var elements: [SampleCandidate] = []

    init(capacity: Int) {
        self.capacity = capacity
        elements.reserveCapacity(capacity)
    }

    mutating func offer(_ candidate: SampleCandidate, photos: UnsafeBufferPointer<TimelinePhoto>) {
        if elements.count < capacity {
            elements.append(candidate)
            var child = elements.count - 1
            while child > 0 {
                let parent = (child - 1) / 2
                guard elements[parent].precedes(elements[child], photos: photos) else { break }
                elements.swapAt(parent, child)
                child = parent
            }
        } else if candidate.precedes(elements[0], photos: photos) {
            elements[0] = candidate
            var parent = 0
            while true {
                let left = 2 * parent + 1
                let right = left + 1
                var largest = parent
                if left < elements.count, elements[largest].precedes(elements[left], photos: photos) { largest = left }
                if right < elements.count, elements[largest].precedes(elements[right], photos: photos) { largest = right }
                if largest == parent { break }
                elements.swapAt(parent, largest)
                parent = largest
            }
        }
    }
}

/// ⌊a / b⌋ for b > 0.
@inline(__always)
func floorDivide(_ a: Int64, _ b: Int64) -> Int {
    let q = a / b
    return Int(a % b < 0 ? q - 1 : q)
}
