import WallClock
import PhotoFixtures
import PhotoMetadata
import Testing

/// Positions from EXIF's GPS IFD, and the UTC offset derived from its time stamp.
@Suite struct PositionTests {
    static func fields(latitude: Double, longitude: Double) -> ExifFields {
        var fields = ExifFields(dateTimeOriginal: "2021:07:14 14:30:00")
        fields.setPosition(latitude: latitude, longitude: longitude)
        return fields
    }

    static func expectClose(_ position: GeoPosition?, _ latitude: Double, _ longitude: Double, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(position != nil, sourceLocation: sourceLocation)
        guard let position else { return }
        #expect(abs(position.latitude - latitude) < 1e-6, "\(position.latitude)", sourceLocation: sourceLocation)
        #expect(abs(position.longitude - longitude) < 1e-6, "\(position.longitude)", sourceLocation: sourceLocation)
    }

    static let hemisphereExamples: [(Double, Double)] = [
        (48.858222, 2.2945),       // north, east
        (-33.856784, 151.215297),  // south, east
        (40.689247, -74.044502),   // north, west
        (-22.951916, -43.210487),  // south, west
    ]

    @Test("Each hemisphere's sign comes from its reference letter", arguments: hemisphereExamples)
    func hemispheres(_ latitude: Double, _ longitude: Double) throws {
        let fields = Self.fields(latitude: latitude, longitude: longitude)
        for file in [
            PhotoFixtures.jpeg(width: 8, height: 8, exif: fields),
            PhotoFixtures.tiff(width: 8, height: 8, exif: fields, bigEndian: true),
            PhotoFixtures.png(width: 8, height: 8, exif: fields),
            PhotoFixtures.webp(width: 8, height: 8, exif: fields),
        ] {
            let metadata = try TemporaryFile.read(file)
            Self.expectClose(metadata.position, latitude, longitude)
            // The GPS IFD does not disturb the other fields.
            #expect(metadata.exifDate?.local.iso8601 == "2021-07-14T14:30:00")
        }
    }

    @Test("Degrees and decimal minutes, seconds left zero")
    func decimalMinutes() throws {
        var fields = ExifFields()
        fields.gpsLatitudeRef = "N"
        fields.gpsLatitude = [41, 24.5, 0]
        fields.gpsLongitudeRef = "W"
        fields.gpsLongitude = [2, 10.25]
        let metadata = try TemporaryFile.read(PhotoFixtures.jpeg(width: 8, height: 8, exif: fields))
        Self.expectClose(metadata.position, 41 + 24.5 / 60, -(2 + 10.25 / 60))
    }

    @Test("0/0, out of range and missing references are no position")
    func implausiblePositions() throws {
        var zero = ExifFields(dateTimeOriginal: "2021:07:14 14:30:00")
        zero.setPosition(latitude: 0, longitude: 0)
        var tooFarNorth = ExifFields()
        tooFarNorth.gpsLatitudeRef = "N"
        tooFarNorth.gpsLatitude = [91, 0, 0]
        tooFarNorth.gpsLongitudeRef = "E"
        tooFarNorth.gpsLongitude = [10, 0, 0]
        var tooFarEast = ExifFields()
        tooFarEast.gpsLatitudeRef = "N"
        tooFarEast.gpsLatitude = [10, 0, 0]
        tooFarEast.gpsLongitudeRef = "E"
        tooFarEast.gpsLongitude = [180, 30, 0]
        var noLatitudeRef = Self.fields(latitude: 48.8, longitude: 2.3)
        noLatitudeRef.gpsLatitudeRef = nil
        var noLongitudeRef = Self.fields(latitude: 48.8, longitude: 2.3)
        noLongitudeRef.gpsLongitudeRef = nil
        var blankRef = Self.fields(latitude: 48.8, longitude: 2.3)
        blankRef.gpsLatitudeRef = " "
        var onlyLatitude = Self.fields(latitude: 48.8, longitude: 2.3)
        onlyLatitude.gpsLongitude = nil
        for (name, fields) in [("0/0", zero), ("lat 91", tooFarNorth), ("lon 180.5", tooFarEast), ("no lat ref", noLatitudeRef),
                               ("no lon ref", noLongitudeRef), ("blank ref", blankRef), ("no longitude", onlyLatitude)] {
            let metadata = try TemporaryFile.read(PhotoFixtures.jpeg(width: 8, height: 8, exif: fields))
            #expect(metadata.position == nil, "\(name)")
            #expect(metadata.pixelSize == PixelSize(width: 8, height: 8), "\(name)")
        }
    }

    @Test func noGPSNoPosition() throws {
        let metadata = try TemporaryFile.read(PhotoFixtures.jpeg(width: 8, height: 8, exif: ExifFields(dateTimeOriginal: "2021:07:14 14:30:00")))
        #expect(metadata.position == nil)
        #expect(metadata.gpsTimestamp == nil)
        #expect(metadata.exifDate?.offset == nil)
        #expect(metadata.exifDate?.offsetSource == nil)
    }

    @Test("GeoPosition refuses NaN, infinities, out-of-range values and 0/0")
    func geoPositionValidation() {
        #expect(GeoPosition(latitude: .nan, longitude: 1) == nil)
        #expect(GeoPosition(latitude: 1, longitude: .infinity) == nil)
        #expect(GeoPosition(latitude: -90.0001, longitude: 1) == nil)
        #expect(GeoPosition(latitude: 1, longitude: 180.0001) == nil)
        #expect(GeoPosition(latitude: 0, longitude: 0) == nil)
        #expect(GeoPosition(latitude: 0, longitude: 1)?.longitude == 1)
        #expect(GeoPosition(latitude: -90, longitude: -180) != nil)
    }

    // MARK: - GPS time

    static func timed(local: String, offset: String? = nil, gpsDate: String?, gpsTime: [Double]?) -> ExifFields {
        var fields = ExifFields(dateTimeOriginal: local, offsetTimeOriginal: offset)
        fields.gpsDateStamp = gpsDate
        fields.gpsTimeStamp = gpsTime
        return fields
    }

    /// A local capture time, a GPS date and time stamp, and the offset expected (`nil`: none).
    struct GPSCase: Sendable, CustomTestStringConvertible {
        var local: String
        var gpsDate: String?
        var gpsTime: [Double]?
        var expected: String?

        var testDescription: String { "\(local) GPS \(gpsDate ?? "-") \(gpsTime.map { "\($0)" } ?? "-") → \(expected ?? "none")" }
    }

    static let derivable: [GPSCase] = [
        GPSCase(local: "2021:07:14 14:30:00", gpsDate: "2021:07:14", gpsTime: [12, 30, 0], expected: "+02:00"),
        GPSCase(local: "2021:07:14 14:30:00", gpsDate: "2021:07:14", gpsTime: [9, 0, 7], expected: "+05:30"),
        GPSCase(local: "2021:07:14 14:30:00", gpsDate: "2021:07:14", gpsTime: [8, 44, 10], expected: "+05:45"),
        // A camera clock a minute off.
        GPSCase(local: "2021:07:14 14:29:40", gpsDate: "2021:07:14", gpsTime: [12, 31, 5.5], expected: "+02:00"),
        // UTC still the day before, or already the day after.
        GPSCase(local: "2021:07:14 01:10:00", gpsDate: "2021:07:13", gpsTime: [23, 10, 0], expected: "+02:00"),
        GPSCase(local: "2021:07:13 20:05:00", gpsDate: "2021:07:14", gpsTime: [1, 5, 0], expected: "-05:00"),
        GPSCase(local: "2021:07:14 12:30:00", gpsDate: "2021:07:14", gpsTime: [12, 30, 0], expected: "+00:00"),
        // The widest zones in use.
        GPSCase(local: "2021:07:15 02:30:00", gpsDate: "2021:07:14", gpsTime: [12, 30, 0], expected: "+14:00"),
        GPSCase(local: "2021:07:14 00:30:00", gpsDate: "2021:07:14", gpsTime: [12, 30, 0], expected: "-12:00"),
    ]

    @Test("Local time minus GPS time, rounded to 15 minutes", arguments: derivable)
    func offsetFromGPSTime(_ example: GPSCase) throws {
        let fields = Self.timed(local: example.local, gpsDate: example.gpsDate, gpsTime: example.gpsTime)
        let metadata = try TemporaryFile.read(PhotoFixtures.jpeg(width: 8, height: 8, exif: fields))
        #expect(metadata.exifDate?.offset?.iso8601 == example.expected)
        #expect(metadata.exifDate?.offsetSource == .gpsTime)
        #expect(metadata.exifDate?.source == .dateTimeOriginal)
        #expect(metadata.gpsTimestamp != nil)
    }

    static let underivable: [GPSCase] = [
        GPSCase(local: "2021:07:14 14:30:00", gpsDate: "2021:07:13", gpsTime: [18, 30, 0]),   // +20 h
        GPSCase(local: "2021:07:14 14:30:00", gpsDate: "2021:07:15", gpsTime: [4, 45, 0]),    // −14 h 15
        GPSCase(local: "2021:07:14 14:30:00", gpsDate: nil, gpsTime: [12, 30, 0]),            // no date stamp
        GPSCase(local: "2021:07:14 14:30:00", gpsDate: "2021:07:14", gpsTime: nil),           // no time stamp
        GPSCase(local: "2021:07:14 14:30:00", gpsDate: "2021:07:14", gpsTime: [25, 0, 0]),    // no such hour
        GPSCase(local: "2021:07:14 14:30:00", gpsDate: "0000:00:00", gpsTime: [12, 30, 0]),   // blank date
        GPSCase(local: "2021:07:14 14:30:00", gpsDate: "2021:07:14", gpsTime: [12, 30]),      // two numbers
    ]

    @Test("No offset from a GPS time 20 hours away, nor from a missing or impossible stamp", arguments: underivable)
    func noOffset(_ example: GPSCase) throws {
        let fields = Self.timed(local: example.local, gpsDate: example.gpsDate, gpsTime: example.gpsTime)
        let metadata = try TemporaryFile.read(PhotoFixtures.jpeg(width: 8, height: 8, exif: fields))
        #expect(metadata.exifDate?.local != nil)
        #expect(metadata.exifDate?.offset == nil)
        #expect(metadata.exifDate?.offsetSource == nil)
    }

    @Test("An offset written in the file wins over the GPS time")
    func writtenOffsetWins() throws {
        let fields = Self.timed(local: "2021:07:14 14:30:00", offset: "+01:00", gpsDate: "2021:07:14", gpsTime: [12, 30, 0])
        let metadata = try TemporaryFile.read(PhotoFixtures.jpeg(width: 8, height: 8, exif: fields))
        #expect(metadata.exifDate?.offset?.iso8601 == "+01:00")
        #expect(metadata.exifDate?.offsetSource == .exif)
    }

    @Test("A date found elsewhere gets the GPS offset too; one with an offset keeps it")
    func withOffsetFromGPSTime() throws {
        let stamp = GPSTimestamp(utc: LocalDateTime(year: 2019, month: 1, day: 1, hour: 10))
        let fromName = try #require(CaptureDate.fromFileName("IMG_20190101_120000.jpg"))
        let derived = fromName.withOffset(fromGPSTime: stamp)
        #expect(derived.offset?.iso8601 == "+02:00")
        #expect(derived.offsetSource == .gpsTime)
        #expect(derived.source == .filename)
        var known = fromName
        known.offset = UTCOffset(seconds: -3600)
        #expect(known.withOffset(fromGPSTime: stamp) == known)
        #expect(fromName.withOffset(fromGPSTime: nil) == fromName)
    }

    // MARK: - Text forms

    static let xmpExamples: [(String, String, Double, Double)] = [
        ("41,24.5N", "2,10.25W", 41 + 24.5 / 60, -(2 + 10.25 / 60)),
        ("33,51,24.42S", "151,12,55.07E", -(33 + 51 / 60.0 + 24.42 / 3600), 151 + 12 / 60.0 + 55.07 / 3600),
        ("48.8582", "-2.2945", 48.8582, -2.2945),
    ]

    @Test("XMP coordinates", arguments: xmpExamples)
    func xmpCoordinates(_ latitude: String, _ longitude: String, _ expectedLatitude: Double, _ expectedLongitude: Double) throws {
        let text = "<x:xmpmeta><rdf:Description exif:GPSLatitude=\"\(latitude)\" exif:GPSLongitude=\"\(longitude)\"/></x:xmpmeta>"
        let contents = try SidecarReader().contents(in: Array(text.utf8), kind: .xmp)
        Self.expectClose(contents.position, expectedLatitude, expectedLongitude)
    }

    static let iso6709Examples: [(String, Double, Double)] = [
        ("+37.3349-122.0090/", 37.3349, -122.0090),
        ("+37.3349-122.0090+010.000/", 37.3349, -122.0090),
        ("-33.8568+151.2153+025.123/", -33.8568, 151.2153),
        ("+4851.49+00217.67/", 48 + 51.49 / 60, 2 + 17.67 / 60),
    ]

    @Test("XMP minutes or seconds of 60 or more are no position, like other out-of-range parts",
          arguments: ["45,61.0N", "45,60N", "45,60.0,0N", "45,59,60N", "45,59,75.5N", "45,-1.0N"])
    func xmpPartsOutOfRange(_ latitude: String) throws {
        #expect(GeoPosition.xmpCoordinate(latitude, positive: "N", negative: "S") == nil)
        let text = "<x:xmpmeta><rdf:Description exif:GPSLatitude=\"\(latitude)\" exif:GPSLongitude=\"2,10.25E\"/></x:xmpmeta>"
        #expect(try SidecarReader().contents(in: Array(text.utf8), kind: .xmp).position == nil)
        // Just below the limit is still a position.
        Self.expectClose(GeoPosition(xmpLatitude: "45,59.999N", longitude: "2,59,59.99E"), 45 + 59.999 / 60, 2 + 59 / 60.0 + 59.99 / 3600)
    }

    @Test("ISO 6709 texts", arguments: iso6709Examples)
    func iso6709(_ text: String, _ latitude: Double, _ longitude: Double) {
        Self.expectClose(GeoPosition(iso6709: text), latitude, longitude)
    }

    @Test func iso6709Refusals() {
        for text in ["", "/", "+00.0000+000.0000/", "+91.0000+010.0000/", "37.3349-122.0090/", "+37.3349/", "+37.3349-12.0090/"] {
            #expect(GeoPosition(iso6709: text) == nil, "\(text)")
        }
    }
}

/// Positions outside EXIF: movies, embedded XMP, sidecars.
@Suite struct OtherPositionTests {
    @Test("A movie's ©xyz user-data atom and its ISO 6709 location key")
    func moviePositions() throws {
        var atom = MovieFixture(width: 64, height: 48)
        atom.quickTime = true
        atom.userDataLocation = "+37.3349-122.0090+010.000/"
        PositionTests.expectClose(try TemporaryFile.read(atom.bytes).position, 37.3349, -122.0090)

        var key = MovieFixture(width: 64, height: 48)
        key.creationDate = "2023-09-22T18:34:05+0200"
        key.locationKey = "-33.8568+151.2153+025.123/"
        let metadata = try TemporaryFile.read(key.bytes)
        PositionTests.expectClose(metadata.position, -33.8568, 151.2153)
        // The creation date beside it is still read.
        #expect(metadata.exifDate?.local.iso8601 == "2023-09-22T18:34:05")
        #expect(metadata.exifDate?.offsetSource == .exif)

        // A key at 0/0 is no position; a good ©xyz beside it is.
        var both = key
        both.locationKey = "+00.0000+000.0000/"
        both.userDataLocation = "+48.8582+002.2945/"
        PositionTests.expectClose(try TemporaryFile.read(both.bytes).position, 48.8582, 2.2945)

        #expect(try TemporaryFile.read(MovieFixture(width: 64, height: 48).bytes).position == nil)
    }

    @Test("A JPEG's embedded XMP gives a position when its EXIF has none; EXIF GPS wins")
    func embeddedXMP() throws {
        let xmp = #"<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF><rdf:Description exif:GPSLatitude="41,24.5N" exif:GPSLongitude="2,10.25E"/></rdf:RDF></x:xmpmeta>"#
        let fromXMP = try TemporaryFile.read(PhotoFixtures.jpeg(width: 8, height: 8, exif: ExifFields(dateTimeOriginal: "2021:07:14 14:30:00"), xmp: xmp))
        PositionTests.expectClose(fromXMP.position, 41 + 24.5 / 60, 2 + 10.25 / 60)
        #expect(fromXMP.exifDate?.local.iso8601 == "2021-07-14T14:30:00")

        let both = try TemporaryFile.read(PhotoFixtures.jpeg(width: 8, height: 8, exif: PositionTests.fields(latitude: -10, longitude: -20), xmp: xmp))
        PositionTests.expectClose(both.position, -10, -20)
    }

    @Test("An XMP sidecar's position, in attribute and element form")
    func xmpSidecar() throws {
        let attribute = #"<x:xmpmeta><rdf:Description exif:DateTimeOriginal="2021-07-14T14:30:00" exif:GPSLatitude="33,51,24.42S" exif:GPSLongitude="151,12,55.07E"/></x:xmpmeta>"#
        let contents = try SidecarReader().contents(in: Array(attribute.utf8), kind: .xmp)
        PositionTests.expectClose(contents.position, -(33 + 51 / 60.0 + 24.42 / 3600), 151 + 12 / 60.0 + 55.07 / 3600)
        #expect(contents.date?.local.iso8601 == "2021-07-14T14:30:00")

        let element = "<x:xmpmeta><rdf:Description><exif:GPSLatitude>48,51.49N</exif:GPSLatitude><exif:GPSLongitude>2,17.67E</exif:GPSLongitude></rdf:Description></x:xmpmeta>"
        PositionTests.expectClose(try SidecarReader().contents(in: Array(element.utf8), kind: .xmp).position, 48 + 51.49 / 60, 2 + 17.67 / 60)

        for bad in [#"exif:GPSLatitude="" exif:GPSLongitude="2,10E""#, #"exif:GPSLatitude="91,0N" exif:GPSLongitude="2,10E""#,
                    #"exif:GPSLatitude="0,0N" exif:GPSLongitude="0,0E""#, #"exif:GPSLatitude="41,24.5N""#,
                    #"exif:GPSLatitude="north" exif:GPSLongitude="2,10E""#] {
            let text = "<x:xmpmeta><rdf:Description \(bad)/></x:xmpmeta>"
            #expect(try SidecarReader().contents(in: Array(text.utf8), kind: .xmp).position == nil, "\(bad)")
        }
    }

    @Test("A Takeout JSON's geoData; 0/0 there falls back to geoDataExif")
    func takeoutGeoData() throws {
        func json(_ geoData: String, _ geoDataExif: String = #"{"latitude": 0.0, "longitude": 0.0}"#) -> [UInt8] {
            Array("""
            {"title": "IMG_1.jpg", "photoTakenTime": {"timestamp": "1626273000", "formatted": "…"},
             "geoData": \(geoData), "geoDataExif": \(geoDataExif)}
            """.utf8)
        }
        let reader = SidecarReader(timeZone: .fixed(UTCOffset(seconds: 0)))
        let contents = try reader.contents(in: json(#"{"latitude": 37.4219983, "longitude": -122.084, "altitude": 12.5, "latitudeSpan": 0.0, "longitudeSpan": 0.0}"#), kind: .takeoutJSON)
        PositionTests.expectClose(contents.position, 37.4219983, -122.084)
        #expect(contents.date?.source == .takeoutJSON)
        #expect(contents.date?.offsetSource == nil)

        let fallback = try reader.contents(in: json(#"{"latitude": 0.0, "longitude": 0.0}"#, #"{"latitude": -1.5e1, "longitude": 30}"#), kind: .takeoutJSON)
        PositionTests.expectClose(fallback.position, -15, 30)

        #expect(try reader.contents(in: json(#"{"latitude": 0.0, "longitude": 0.0}"#), kind: .takeoutJSON).position == nil)
        #expect(try reader.contents(in: json(#"{"latitude": 95.0, "longitude": 10.0}"#), kind: .takeoutJSON).position == nil)
        #expect(try reader.contents(in: json(#"{"latitude": "", "longitude": 10.0}"#), kind: .takeoutJSON).position == nil)
    }
}

/// Canon CR3 keeps its GPS IFD in a box of its own.
@Suite struct CR3PositionTests {
    @Test("A CR3's CMT4 box gives the position and the GPS time; CMT1 and CMT2 still give the rest")
    func cr3() throws {
        var fields = PositionTests.fields(latitude: 35.6586, longitude: 139.7454)
        fields.make = "Canon"
        fields.gpsDateStamp = "2021:07:14"
        fields.gpsTimeStamp = [5, 30, 0]
        let metadata = try TemporaryFile.read(PhotoFixtures.cr3(exif: fields))
        #expect(metadata.format == .cr3)
        #expect(metadata.cameraMake == "Canon")
        #expect(metadata.exifDate?.local.iso8601 == "2021-07-14T14:30:00")
        PositionTests.expectClose(metadata.position, 35.6586, 139.7454)
        #expect(metadata.exifDate?.offset?.iso8601 == "+09:00")
        #expect(metadata.exifDate?.offsetSource == .gpsTime)

        let withoutGPS = try TemporaryFile.read(PhotoFixtures.cr3(exif: ExifFields(dateTimeOriginal: "2021:07:14 14:30:00", make: "Canon")))
        #expect(withoutGPS.position == nil)
        #expect(withoutGPS.exifDate?.local.iso8601 == "2021-07-14T14:30:00")
    }
}
