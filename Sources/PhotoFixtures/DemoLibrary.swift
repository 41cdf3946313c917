import SeededRandom

/// The small photo tree committed as `testdata/photos/`: a few weeks of trips and a garden, with the cases
/// a user meets (no EXIF, a date only in the name, a broken file, a note that is not a photo).
///
/// The trips have GPS positions in three countries (``places``): Lisbon and Sintra with the
/// camera's own offset, Kyoto from a camera that writes no offset (Shoebox takes it from the place's
/// zone), New York from one that writes GPS time stamps but no offset (the offset is local − GPS time).
///
/// `swift run make-testdata` writes it; a test checks that `testdata/photos/` is exactly this.
public enum DemoLibrary {
    /// Where the trips were, as GeoNames names them (cities500, population ≥ 500).
    public static let places: [DemoPlace] = [lisbon, sintra, kyoto, newYork]

    static let lisbon = DemoPlace(
        city: "Lisbon", region: "Lisbon", countryCode: "PT", country: "Portugal", timeZone: "Europe/Lisbon",
        latitude: 38.72509, longitude: -9.1498, population: 517_802)
    static let sintra = DemoPlace(
        city: "Sintra", region: "Lisbon", countryCode: "PT", country: "Portugal", timeZone: "Europe/Lisbon",
        latitude: 38.80097, longitude: -9.37826, population: 26_193)
    static let kyoto = DemoPlace(
        city: "Kyoto", region: "Kyoto", countryCode: "JP", country: "Japan", timeZone: "Asia/Tokyo",
        latitude: 35.02107, longitude: 135.75385, population: 1_463_723)
    static let newYork = DemoPlace(
        city: "New York City", region: "New York", countryCode: "US", country: "United States",
        timeZone: "America/New_York", latitude: 40.71427, longitude: -74.00597, population: 8_804_190)

    public static func files() -> [SampleLibrary.File] {
        var files: [SampleLibrary.File] = []
        func add(_ path: String, _ bytes: [UInt8], _ captured: String = "") {
            files.append(SampleLibrary.File(path: path, bytes: bytes, captured: captured))
        }
        var rng = SplitMix64(seed: 2025)

        // A week in Lisbon, 8–14 March 2025: a busy Saturday, quiet days, a busy last day in Sintra.
        let week: [(day: Int, count: Int)] = [(8, 14), (9, 3), (10, 2), (12, 5), (14, 11)]
        var number = 4101
        for (day, count) in week {
            var minute = 9 * 60
            for _ in 0..<count {
                minute += 3 + Int(rng.next() % 40)
                let date = "2025:03:\(pad(day)) \(pad(minute / 60)):\(pad(minute % 60)):\(pad(Int(rng.next() % 60)))"
                let portrait = rng.next() % 3 == 0
                var exif = ExifFields(
                    dateTimeOriginal: date, subSecTimeOriginal: String(rng.next() % 100),
                    offsetTimeOriginal: "+00:00", orientation: portrait ? 6 : 1,
                    make: "Shoebox", model: "Demo Camera")
                exif.setPosition(near: day == 14 ? sintra : lisbon, number)
                let hue = Double(number * 47 % 360)  // not from `rng`: the dates stay as they were
                add("2025/03 Lisbon/DSC_\(number).jpg", PhotoFixtures.scene(width: 96, height: 64, hue: hue, exif: exif), date)
                number += 1
            }
        }

        // A weekend in Kyoto, 3–4 May 2025, with an older camera that writes no offset: Shoebox
        // takes +09:00 from the place's zone (Asia/Tokyo).
        number = 4201
        for (date, hue) in [("2025:05:03 10:12:40", 20.0), ("2025:05:03 11:47:05", 340), ("2025:05:03 16:30:22", 10),
                            ("2025:05:04 09:05:51", 110), ("2025:05:04 13:26:09", 90)] {
            var exif = ExifFields(dateTimeOriginal: date, orientation: 1, make: "Shoebox", model: "Old Camera")
            exif.setPosition(near: kyoto, number)
            add("2025/05 Kyoto/DSC_\(number).jpg", PhotoFixtures.scene(width: 96, height: 64, hue: hue, exif: exif), date)
            number += 1
        }

        // An evening in New York, 14 June 2025, with an action camera that writes no offset but
        // GPS time stamps (UTC): local time − GPS time gives −04:00, the last one past midnight UTC.
        number = 301
        for (local, utc, hue) in [("2025:06:14 18:40:12", ("2025:06:14", 22.0, 40.0, 12.0), 220.0),
                                  ("2025:06:14 19:55:48", ("2025:06:14", 23.0, 55.0, 48.0), 250),
                                  ("2025:06:14 21:03:30", ("2025:06:15", 1.0, 3.0, 30.0), 280)] {
            var exif = ExifFields(dateTimeOriginal: local, orientation: 1, make: "Shoebox", model: "Action Cam")
            exif.setPosition(near: newYork, number)
            exif.gpsDateStamp = utc.0
            exif.gpsTimeStamp = [utc.1, utc.2, utc.3]
            add("2025/06 New York/GOPR0\(number).jpg", PhotoFixtures.scene(width: 96, height: 64, hue: hue, exif: exif), local)
            number += 1
        }

        // Spring in the garden, over three weekends of April 2025, from a phone that saves HEIC,
        // and some edits exported as PNG (by different programs, which keep EXIF in different
        // places), WebP and TIFF.
        var pngStyles = PhotoFixtures.PNGExifStyle.allCases.makeIterator()
        for (day, count) in [(5, 4), (6, 2), (19, 6), (27, 3)] {
            for i in 0..<count {
                let date = "2025:04:\(pad(day)) \(pad(10 + i)):\(pad(Int(rng.next() % 60))):\(pad(Int(rng.next() % 60)))"
                let exif = ExifFields(dateTimeOriginal: date, offsetTimeOriginal: "+01:00", orientation: 1, make: "Shoebox", model: "Demo Phone")
                let name = "2025/04 Garden/IMG_\(pad(day))\(i)"
                let hue = Double((day * 7 + i) * 53 % 360)
                switch i % 4 {
                case 0: add(name + ".heic", PhotoFixtures.heif(width: 64, height: 48, rotation: day == 19 ? 1 : 0, exif: exif), date)
                case 1: add(name + ".png", PhotoFixtures.png(width: 64, height: 48, exif: exif, exifStyle: pngStyles.next() ?? .exifChunk, scene: hue), date)
                case 2: add(name + ".webp", PhotoFixtures.webp(width: 64, height: 48, exif: exif, scene: hue), date)
                default: add(name + ".tif", PhotoFixtures.tiff(width: 64, height: 48, exif: exif, scene: hue), date)
                }
            }
        }
        // A scanned print whose scanner wrote only the digitizing date.
        add("2025/04 Garden/scan-0001.jpg", PhotoFixtures.scene(width: 56, height: 80, hue: 30, exif: ExifFields(dateTimeDigitized: "2025:04:20 18:30:00")))

        // A messaging-app copy: no EXIF, the date is only in the file name.
        add("phone/IMG_20250412_093015.jpg", PhotoFixtures.scene(width: 48, height: 64, hue: 200))
        add("phone/IMG-20250413-WA0002.jpg", PhotoFixtures.scene(width: 64, height: 48, hue: 320))
        // A scan: no date anywhere, so the file's modification time is used.
        add("scans/grandma.jpg", PhotoFixtures.scene(width: 80, height: 56, hue: 40))
        // A file cut short: indexed as a row with its error.
        add("broken/cut-short.jpg", Array(PhotoFixtures.jpeg(width: 64, height: 48, exif: ExifFields(dateTimeOriginal: "2025:03:09 12:00:00")).prefix(40)))
        // Not a photo: counted and skipped.
        add("notes.txt", Array("Photos for the Shoebox demo, made by `swift run make-testdata`.\n".utf8))
        return files
    }

    private static func pad(_ value: Int) -> String {
        value < 10 ? "0\(value)" : String(value)
    }
}

extension ExifFields {
    /// A position within about 250 m of `place`, the same for the same `number`.
    mutating func setPosition(near place: DemoPlace, _ number: Int) {
        let north = Double(number * 37 % 21 - 10) * 0.0002
        let east = Double(number * 53 % 21 - 10) * 0.0002
        setPosition(latitude: place.latitude + north, longitude: place.longitude + east)
    }
}
