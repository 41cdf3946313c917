import Foundation
import SeededRandom
import WallClock

/// A generated photo tree: `YYYY/YYYY-MM-DD/IMG_NNNNN.jpg` JPEGs with varied EXIF dates, sizes
/// and orientations, deterministic for a seed.
public struct SampleLibrary: Sendable {
    public var count: Int
    public var seed: UInt64

    public init(count: Int, seed: UInt64 = 1) {
        self.count = count
        self.seed = seed
    }

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
        var day = 0  // days since 2021-01-01
        var index = 0
        while index < count {
            day += Int(rng.next() % 9)  // gaps of 0–8 days between shooting days
            let perDay = 1 + Int(rng.next() % 40)
            let (year, month, dayOfMonth) = Self.civil(daysSince2021: day)
            var secondOfDay = 8 * 3600 + Int(rng.next() % 3600)
            for _ in 0..<perDay where index < count {
                secondOfDay = min(secondOfDay + 1 + Int(rng.next() % 900), 86_399)
                let date = String(format: "%04d:%02d:%02d %02d:%02d:%02d", year, month, dayOfMonth,
                                  secondOfDay / 3600, secondOfDay / 60 % 60, secondOfDay % 60)
                let landscape = rng.next() % 4 != 0
                let orientation = [1, 1, 1, 6, 8, 3][Int(rng.next() % 6)]
                let width = landscape ? 64 + Int(rng.next() % 64) : 48
                let height = landscape ? 48 : 64 + Int(rng.next() % 64)
                let exif = ExifFields(
                    dateTimeOriginal: date, subSecTimeOriginal: String(rng.next() % 1000),
                    orientation: orientation, make: "Shoebox", model: "Sample \(rng.next() % 5)")
                let folder = String(format: "%04d/%04d-%02d-%02d", year, year, month, dayOfMonth)
                try body(File(
                    path: "\(folder)/IMG_\(String(format: "%05d", index)).jpg",
                    bytes: PhotoFixtures.jpeg(width: width, height: height, exif: exif),
                    captured: date))
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

    /// Year, month and day of `days` after 2021-01-01.
    static func civil(daysSince2021 days: Int) -> (Int, Int, Int) {
        CivilCalendar.date(daysSince1970: CivilCalendar.daysSince1970(year: 2021, month: 1, day: 1) + days)
    }
}

