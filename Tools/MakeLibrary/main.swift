import WallClock
import Foundation
import LibraryIndex
import PhotoLibrary
import PhotoFixtures
import PhotoMetadata
import SeededRandom
import Timeline

// make-library: writes a synthetic library of N photos straight into a Shoebox database, for
// server benchmarks and viewer tests at scale. The rows' files do not exist (thumbnails are
// placeholders); dates, sizes and paths look like a real camera roll: bursts of days over the
// years, a few hundred photos on a holiday, one or two on most days.
//
//   swift run -c release make-library --photos 1000000 --db /tmp/million.sqlite [--years 14] [--seed 1]
//   swift run make-library --archive --db /tmp/archive.sqlite [--seed 1]
//
// `--archive` writes a family archive instead (the viewer's packed-timeline tests): 25 years,
// 2001–2025, about 1,900 photos: ten early years of 4–9 lone days of 1–2 photos, then fifteen years
// growing denser (10 shooting days a year rising to 38; most days 1–5 photos, one in five 6–20).

var count = 1_000_000
var database: String?
var seed: UInt64 = 1
var years: Int?
var archive = false
var arguments = CommandLine.arguments.dropFirst()
while let flag = arguments.popFirst() {
    switch flag {
    case "--photos": count = arguments.popFirst().flatMap(Int.init) ?? count
    case "--db": database = arguments.popFirst()
    case "--seed": seed = arguments.popFirst().flatMap(UInt64.init) ?? seed
    case "--years": years = arguments.popFirst().flatMap(Int.init).map { max(1, $0) }
    case "--archive": archive = true
    default:
        FileHandle.standardError.write(Data("usage: make-library (--photos N | --archive) --db FILE [--years Y] [--seed S]\n".utf8))
        exit(2)
    }
}
guard let database, count >= 0 else {
    FileHandle.standardError.write(Data("usage: make-library (--photos N | --archive) --db FILE [--years Y] [--seed S]\n".utf8))
    exit(2)
}
if FileManager.default.fileExists(atPath: database) {
    FileHandle.standardError.write(Data("\(database) exists; give a new file.\n".utf8))
    exit(1)
}

struct Photos: Sequence, IteratorProtocol {
    var remaining: Int
    var rng: SplitMix64
    var day = 3650  // 2011
    var leftToday = 0
    var secondOfDay = 0
    var serial = 0
    /// Where and with what the current shooting day's photos are taken.
    var place = 0
    var camera = 0
    /// Scales the photos per shooting day so the library spans about `years`.
    var density: Double

    init(count: Int, years: Int, seed: UInt64) {
        remaining = count
        rng = SplitMix64(seed: seed)
        // About 41 photos per shooting day at density 1, a shooting day every second day.
        density = Double(count) / (Double(years) * 365 / 2 * 41)
    }

    mutating func next() -> IndexedPhoto? {
        guard remaining > 0 else { return nil }
        remaining -= 1
        while leftToday == 0 {
            day += 1 + Int(rng.next() % 3)
            let roll = rng.next() % 100
            let typical = roll < 60 ? 1 + Int(rng.next() % 6) : roll < 95 ? 10 + Int(rng.next() % 60) : 200 + Int(rng.next() % 600)
            leftToday = Swift.max(1, Int(Double(typical) * density))
            secondOfDay = 7 * 3600 + Int(rng.next() % 7200)
            // Most days at home, some travelling; a camera per day.
            place = rng.next() % 3 == 0 ? 1 + Int(rng.next() % UInt64(Self.places.count - 1)) : 0
            camera = Int(rng.next() % UInt64(Self.cameras.count))
        }
        leftToday -= 1
        secondOfDay = Swift.min(secondOfDay + 1 + Int(rng.next() % 120), 86_399)
        serial += 1
        let (y, m, d) = TimelineDay(daysSince2001: day).components
        let local = LocalDateTime(year: y, month: m, day: d, hour: secondOfDay / 3600, minute: secondOfDay / 60 % 60, second: secondOfDay % 60)
        let portrait = rng.next() % 4 == 0
        let size = portrait ? PixelSize(width: 3024, height: 4032) : PixelSize(width: 4032, height: 3024)
        let path = String(format: "%04d/%04d-%02d-%02d/IMG_%07d.jpg", y, y, m, d, serial)
        return IndexedPhoto(
            path: RelativePath(path), fileSize: 2_000_000 + Int64(rng.next() % 3_000_000), modificationTime: 0,
            format: .jpeg, captureDate: CaptureDate(local: local, offset: nil, source: .dateTimeOriginal),
            pixelSize: size, orientation: 1, displaySize: size, cameraMake: Self.cameras[camera].make,
            cameraModel: Self.cameras[camera].model, position: GeoPosition(latitude: Self.places[place].latitude, longitude: Self.places[place].longitude),
            place: Self.places[place].place)
    }

    /// A few places (names as a places table gives them), the first one home.
    static let places: [(latitude: Double, longitude: Double, place: PhotoPlace)] = [
        (52.52, 13.405, PhotoPlace(city: "Berlin", region: "Land Berlin", country: "Germany", countryCode: "DE")),
        (38.7223, -9.1393, PhotoPlace(city: "Lisbon", region: "Lisbon", country: "Portugal", countryCode: "PT")),
        (38.8029, -9.3817, PhotoPlace(city: "Sintra", region: "Lisbon", country: "Portugal", countryCode: "PT")),
        (-23.5475, -46.6361, PhotoPlace(city: "São Paulo", region: "São Paulo", country: "Brazil", countryCode: "BR")),
        (35.6895, 139.6917, PhotoPlace(city: "Tokyo", region: "Tokyo", country: "Japan", countryCode: "JP")),
        (48.8534, 2.3488, PhotoPlace(city: "Paris", region: "Île-de-France", country: "France", countryCode: "FR")),
    ]

    static let cameras: [(make: String, model: String)] = [
        ("Apple", "iPhone 12"), ("Apple", "iPhone 15 Pro"), ("Canon", "Canon EOS R6"), ("FUJIFILM", "X100V"), ("SONY", "ILCE-7M3"),
    ]
}

let start = ContinuousClock.now
let store = try LibraryStore(path: database, mode: .readWrite)
// As `shoebox index` does: the run ends by persisting the sections (default settings), so that
// `sections` and `zoom` on this library are measured as on an indexed one.
store.persistTimeline(with: SectionTablePersister(settings: ShoeboxConfiguration.default.sections))
if archive {
    let photos = familyArchive(seed: seed)
    try store.insertSynthetic(photos, root: "/synthetic/archive")
    print("Wrote a 25-year archive of \(photos.count) photos to \(database) in \(ContinuousClock.now - start)")
} else {
    try store.insertSynthetic(Photos(count: count, years: years ?? max(1, count / 70_000), seed: seed), root: "/synthetic/photos")
    print("Wrote \(count) photos to \(database) in \(ContinuousClock.now - start)")
}

/// The family archive of `--archive` (``FamilyArchive``) as index rows, in date order.
func familyArchive(seed: UInt64) -> [IndexedPhoto] {
    let size = PixelSize(width: 4032, height: 3024)
    return FamilyArchive.captures(seed: seed).enumerated().map { n, local in
        IndexedPhoto(
            path: RelativePath(String(format: "%04d/%04d-%02d-%02d/IMG_%05d.jpg", local.year, local.year, local.month, local.day, n)),
            fileSize: 2_000_000, modificationTime: 0, format: .jpeg,
            captureDate: CaptureDate(local: local, offset: nil, source: .dateTimeOriginal),
            pixelSize: size, orientation: 1, displaySize: size)
    }
}
