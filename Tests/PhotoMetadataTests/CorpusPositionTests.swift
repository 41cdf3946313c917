import PhotoFixtures
import Foundation
import PhotoMetadata
import Testing

/// Checks the positions and GPS-time offsets of `../shared/corpus` against ExifTool 12.57's
/// reading of the same files (`exiftool -n`, composite `GPSLatitude`/`GPSLongitude`).
@Suite struct CorpusPositionTests {
    /// Every photo of the corpus with a position; all others have none (0/0, blank, out of range
    /// or no GPS at all). From `exiftool -n -Composite:GPSLatitude -Composite:GPSLongitude`,
    /// except `Nikon D5000.jpg`, whose EXIF seconds are 0/0 (ExifTool: undefined): its XMP's
    /// `exif:GPSLatitude`/`exif:GPSLongitude`, which the EXIF degrees and minutes agree with.
    static let positions: [String: (latitude: Double, longitude: Double)] = [
        "ianare-exif-samples/heic/IMG_5195.HEIC": (39.0513444444444, -94.2887722222222),
        "ianare-exif-samples/heic/mobile/HMD_Nokia_8.3_5G_hdr.heif": (40.6629935, -3.76374051),
        "ianare-exif-samples/jpg/Kodak_CX7530.jpg": (-0.3713, 36.0564166666667),
        "ianare-exif-samples/jpg/gps/DSCN0010.jpg": (43.4674483333333, 11.8851266666639),
        "ianare-exif-samples/jpg/gps/DSCN0012.jpg": (43.4671566666639, 11.8853949999972),
        "ianare-exif-samples/jpg/gps/DSCN0021.jpg": (43.4670816666639, 11.8845383333306),
        "ianare-exif-samples/jpg/gps/DSCN0025.jpg": (43.468365, 11.8816349999722),
        "ianare-exif-samples/jpg/gps/DSCN0027.jpg": (43.4684416666667, 11.881515),
        "ianare-exif-samples/jpg/gps/DSCN0029.jpg": (43.4682433333306, 11.8801716666389),
        "ianare-exif-samples/jpg/gps/DSCN0038.jpg": (43.4672549999972, 11.8792133333333),
        "ianare-exif-samples/jpg/gps/DSCN0040.jpg": (43.4660116666389, 11.8791116666389),
        "ianare-exif-samples/jpg/gps/DSCN0042.jpg": (43.464455, 11.8814783333333),
        "ianare-exif-samples/jpg/tests/87_OSError.jpg": (43.7855944333333, 11.2346194333333),
        "ianare-exif-samples/jpg/tests/67-0_length_string.jpg": (51.025, 7.59194444444444),
        "ianare-exif-samples/jpg/hdr/iphone_hdr_YES.jpg": (40.4469722222222, -3.72475277777778),
        "ianare-exif-samples/jpg/mobile/HMD_Nokia_8.3_5G.jpg": (60.1467055555556, 24.9067722222222),
        "metadata-extractor-images/heic/exif-at-eof.heic": (47.2071240555639, 106.243105095844),
        "metadata-extractor-images/webp/HTC Desire.webp": (45.5006666666667, 9.11033333333333),
        "metadata-extractor-images/jpg/Apple iPhone 4.jpg": (41.853, 12.4888333333333),
        "metadata-extractor-images/jpg/Nokia Lumia 800.jpg": (53.359465, -6.25823138888889),
        "metadata-extractor-images/jpg/Oppo R7 Plus.jpg": (60.2674636666667, 8.77113244444444),
        "metadata-extractor-images/jpg/FujiFilm FinePixS1Pro (1).jpg": (54.9896666666667, -1.91416666666667),
        "metadata-extractor-images/jpg/Sony DSC-HX5V (2).jpg": (51.778615, 8.36563805555556),
        "metadata-extractor-images/jpg/HTC Desire.jpg": (45.5006666666667, 9.11033333333333),
        "metadata-extractor-images/jpg/Issue 508.jpg": (43.8594694444444, 15.5032833333333),
        "metadata-extractor-images/jpg/Nikon D5000.jpg": (48.8887263666667, 21.0432511666667),
        "immich-test-assets/metadata/gps-position/thompson-springs.jpg": (39.115, -108.400968333333),
        "immich-test-assets/metadata/dates/gps-datetime.jpg": (37.7749, -122.4194),
        "immich-test-assets/metadata/dates/datetimeoriginal-gps.jpg": (39, -108),
        "immich-test-assets/formats/heic/IMG_2682.heic": (41.2203, -96.071625),
        "exiftool-t-images/Apple.jpg": (53.3828472222222, -1.45667777777778),
        "exiftool-t-images/Google.jpg": (40.4000694444444, -3.71464722222222),
        "exiftool-t-images/GoPro.jpg": (40.6584191999722, -73.9933542999722),
        "exiftool-t-images/Ricoh2.jpg": (42.034575, -0.507502777777778),
        "exiftool-t-images/GPS.jpg": (54.9896666666667, -1.91416666666667),
    ]

    /// Offsets derived from the GPS time, in hours: ExifTool's `DateTimeOriginal` minus
    /// `GPSDateStamp` + `GPSTimeStamp`, rounded to 15 minutes, for files without `OffsetTime*`.
    /// `nil`: more than 14 hours apart (the Nikon DSCN files' GPS stamps are a day off).
    static let gpsOffsets: [String: Double?] = [
        "ianare-exif-samples/jpg/hdr/iphone_hdr_YES.jpg": 2,
        "ianare-exif-samples/heic/mobile/HMD_Nokia_8.3_5G_hdr.heif": 0,
        "metadata-extractor-images/webp/HTC Desire.webp": 2,
        "metadata-extractor-images/jpg/HTC Desire.jpg": 2,
        "metadata-extractor-images/jpg/Oppo R7 Plus.jpg": 2,
        "metadata-extractor-images/jpg/Sony DSC-HX5V (2).jpg": 2,
        "immich-test-assets/formats/heic/IMG_2682.heic": -5,
        "exiftool-t-images/Apple.jpg": 1,
        "exiftool-t-images/GoPro.jpg": -4,
        "exiftool-t-images/Ricoh2.jpg": 1,
        "ianare-exif-samples/jpg/gps/DSCN0010.jpg": nil,
        "ianare-exif-samples/jpg/gps/DSCN0029.jpg": nil,
        "ianare-exif-samples/jpg/gps/DSCN0042.jpg": nil,
        "metadata-extractor-images/jpg/Issue 308.jpg": nil,
    ]

    struct Entry: Decodable {
        var path: String
    }

    @Test func everyPositionAndGPSOffsetMatchesExifTool() throws {
        guard let corpus = SharedCorpus.photos else {
            print("CorpusPositionTests: ../shared/corpus not found; skipping the real-photo position check.")
            return
        }
        let entries = try JSONDecoder().decode([Entry].self, from: Data(contentsOf: corpus.appendingPathComponent("truth.json")))
        let reader = MetadataReader()
        var misses: [String] = []
        var found = 0
        for entry in entries {
            let path = corpus.appendingPathComponent("photos").appendingPathComponent(entry.path).path
            let metadata = try? reader.read(atPath: path)
            let position = metadata?.position
            if position != nil { found += 1 }
            if let expected = Self.positions[entry.path] {
                let close = position.map { abs($0.latitude - expected.latitude) < 1e-6 && abs($0.longitude - expected.longitude) < 1e-6 } ?? false
                if !close { misses.append("\(entry.path): position \(position.map { "\($0)" } ?? "none"), expected \(expected)") }
            } else if let position {
                misses.append("\(entry.path): position \(position), expected none")
            }
            if let expected = Self.gpsOffsets[entry.path] {
                let date = metadata?.exifDate
                let want = expected.map { UTCOffset(seconds: Int($0 * 3600)) }
                if date?.offset != want || date?.offsetSource != (want == nil ? nil : .gpsTime) {
                    misses.append("\(entry.path): offset \(date?.offset?.iso8601 ?? "none") from \(date?.offsetSource?.rawValue ?? "-"), expected \(want?.iso8601 ?? "none")")
                }
            }
        }
        #expect(misses.isEmpty, "\(misses.joined(separator: "\n"))")
        #expect(found == Self.positions.count)
        #expect(Set(Self.positions.keys).isSubset(of: Set(entries.map(\.path))))
    }

    @Test("The corpus's one video with a location (©xyz and the ISO 6709 key); no other video has one")
    func videoPositions() throws {
        guard let videos = SharedCorpus.videos else {
            print("CorpusPositionTests: ../shared/corpus/videos not found; skipping the real-video position check.")
            return
        }
        let entries = try JSONDecoder().decode([Entry].self, from: Data(contentsOf: videos.appendingPathComponent("truth.json")))
        for entry in entries {
            let position = try? MetadataReader(timeZone: .fixed(UTCOffset(seconds: 0)))
                .read(atPath: videos.appendingPathComponent("files").appendingPathComponent(entry.path).path).position
            if entry.path == "pp_quicktime-hvc1.mov" {
                // exiftool -n -GPSCoordinates: 52.4597 13.322 51.178
                #expect(position.map { abs($0.latitude - 52.4597) < 1e-9 && abs($0.longitude - 13.322) < 1e-9 } == true, "\(entry.path)")
            } else {
                #expect(position == nil, "\(entry.path)")
            }
        }
    }
}
