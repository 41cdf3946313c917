import Foundation
import SeededRandom
import WallClock

/// A generated photo tree: `YYYY/YYYY-MM-DD/IMG_NNNNN.jpg` JPEGs with varied EXIF dates, sizes
/// and orientations, deterministic for a seed.
public struct SampleLibrary: Sendable {
    public var count: Int
    public var seed: UInt64
    /// Whether the photos carry GPS positions, as a phone's do: each shooting day in one of
    /// ``cities``, each photo within about 5 km of its centre. Without, the files are those of
    /// earlier versions byte for byte.
    public var positions: Bool
    /// Whether the files are the size of a camera's: a 4000 × 3000 picture of about 3 MB (the same
    /// picture in every file), and an Exif segment with a Canon-style maker note of 24 KB and a
    /// 160 × 120 thumbnail, as cameras write them. Without, JPEGs of a few hundred bytes.
    public var cameraSized: Bool

    public init(count: Int, seed: UInt64 = 1, positions: Bool = false, cameraSized: Bool = false) {
        self.count = count
        self.seed = seed
        self.positions = positions
        self.cameraSized = cameraSized
    }

    /// What every camera-sized file shares: its picture, maker note and thumbnail.
    private struct CameraParts {
        var picture = PhotoFixtures.cameraPicture(width: 4000, height: 3000)
        var thumbnail = [0xFF, 0xD8] + PhotoFixtures.cameraPicture(width: 160, height: 120, seed: 2)
        /// A little-endian IFD of 60 inline SHORT entries (Canon's maker notes are IFDs without a
        /// header), then the opaque rest of the note.
        var makerNote: [UInt8] = {
            var note: [UInt8] = [60, 0]
            for tag in 1...60 { note += [UInt8(tag), 0, 3, 0, 1, 0, 0, 0, UInt8(tag * 7 & 0xFF), 0, 0, 0] }
            note += [0, 0, 0, 0]
            return note + [UInt8](repeating: 0, count: 24 * 1024 - note.count)
        }()
    }

    /// The cities a library with positions is photographed in: name, latitude, longitude (degrees).
    public static let cities: [(name: String, latitude: Double, longitude: Double)] = [
        ("Lisbon", 38.7223, -9.1393), ("Paris", 48.8566, 2.3522), ("New York City", 40.7128, -74.0060),
        ("Tokyo", 35.6762, 139.6503), ("Sydney", -33.8688, 151.2093), ("Berlin", 52.5200, 13.4050),
    ]

    /// One file of the library: its relative path and bytes.
    public struct File: Sendable {
        public var path: String
        public var bytes: [UInt8]
        public var captured: String
    }

    /// The files, in path order; photos are spread over about three years in bursts of days.
    public func files() -> [File] {
        var files: [File] = []
        files.reserveCapacity(count)
        forEachFile { files.append($0) }
        return files
    }

    /// Calls `body` with each file of `files()`, in the same order, one at a time: a library of
    /// millions of files never has to sit in memory at once.
    public func forEachFile<E: Error>(_ body: (File) throws(E) -> Void) throws(E) {
        var rng = SplitMix64(seed: seed)
        // Positions draw from a generator of their own, so that the dates, sizes and names stay
        // those of a library without positions.
        var places = SplitMix64(seed: seed ^ 0x5048_4F54_4F53_4750)
        var city = Self.cities[0]
        var day = 0  // days since 2021-01-01
        var index = 0
        let camera = cameraSized ? CameraParts() : nil
        while index < count {
            day += Int(rng.next() % 9)  // gaps of 0–8 days between shooting days
            let perDay = 1 + Int(rng.next() % 40)
            let (year, month, dayOfMonth) = Self.civil(daysSince2021: day)
            var secondOfDay = 8 * 3600 + Int(rng.next() % 3600)
            if positions { city = Self.cities[Int(places.next() % UInt64(Self.cities.count))] }
            for _ in 0..<perDay where index < count {
                secondOfDay = min(secondOfDay + 1 + Int(rng.next() % 900), 86_399)
                let date = String(format: "%04d:%02d:%02d %02d:%02d:%02d", year, month, dayOfMonth,
                                  secondOfDay / 3600, secondOfDay / 60 % 60, secondOfDay % 60)
                let landscape = rng.next() % 4 != 0
                let orientation = [1, 1, 1, 6, 8, 3][Int(rng.next() % 6)]
                let width = landscape ? 64 + Int(rng.next() % 64) : 48
                let height = landscape ? 48 : 64 + Int(rng.next() % 64)
                var exif = ExifFields(
                    dateTimeOriginal: date, subSecTimeOriginal: String(rng.next() % 1000),
                    orientation: orientation, make: "Shoebox", model: "Sample \(rng.next() % 5)")
                if positions {
                    // Up to ±0.045° (about 5 km) from the centre, in steps of 0.001°.
                    let latitude = city.latitude + Double(Int(places.next() % 91) - 45) / 1000
                    let longitude = city.longitude + Double(Int(places.next() % 91) - 45) / 1000
                    exif.gpsLatitudeRef = latitude < 0 ? "S" : "N"
                    exif.gpsLatitude = Self.degreesMinutesSeconds(abs(latitude))
                    exif.gpsLongitudeRef = longitude < 0 ? "W" : "E"
                    exif.gpsLongitude = Self.degreesMinutesSeconds(abs(longitude))
                }
                let folder = String(format: "%04d/%04d-%02d-%02d", year, year, month, dayOfMonth)
                let bytes: [UInt8]
                if let camera {
                    exif.make = "Canon"
                    exif.model = "Canon EOS R6"
                    exif.makerNote = camera.makerNote
                    exif.pixelWidth = 4000
                    exif.pixelHeight = 3000
                    exif.thumbnail = camera.thumbnail
                    bytes = PhotoFixtures.cameraJPEG(exif: exif, picture: camera.picture)
                } else {
                    bytes = PhotoFixtures.jpeg(width: width, height: height, exif: exif)
                }
                try body(File(path: "\(folder)/IMG_\(String(format: "%05d", index)).jpg", bytes: bytes, captured: date))
                index += 1
            }
        }
    }

    /// Writes the library under `root`, creating folders as needed.
    public func write(to root: String) throws {
        let fileManager = FileManager.default
        for file in files() {
            let url = URL(fileURLWithPath: root).appendingPathComponent(file.path)
            try fileManager.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(file.bytes).write(to: url)
        }
    }

    /// `degrees` as whole degrees, whole minutes and seconds (to the thousandth, as written).
    static func degreesMinutesSeconds(_ degrees: Double) -> [Double] {
        let whole = degrees.rounded(.down)
        let minutes = ((degrees - whole) * 60).rounded(.down)
        let seconds = (((degrees - whole) * 60 - minutes) * 60 * 1000).rounded() / 1000
        return [whole, minutes, seconds]
    }

    /// Year, month and day of `days` after 2021-01-01.
    static func civil(daysSince2021 days: Int) -> (Int, Int, Int) {
        CivilCalendar.date(daysSince1970: CivilCalendar.daysSince1970(year: 2021, month: 1, day: 1) + days)
    }
}

