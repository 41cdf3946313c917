import WallClock
import PhotoFixtures
import PhotoMetadata
import Testing

/// The EXIF part of the capture-date chain, read back from fixtures.
@Suite struct DateChainTests {
    func date(_ exif: ExifFields) throws -> CaptureDate? {
        try TemporaryFile.read(PhotoFixtures.jpeg(width: 8, height: 8, exif: exif)).exifDate
    }

    @Test func dateTimeOriginalWinsWithItsSubSecondsAndOffset() throws {
        let found = try #require(try date(ExifFields(
            dateTimeOriginal: "2021:04:11 15:47:53", subSecTimeOriginal: "054", offsetTimeOriginal: "-05:00",
            dateTimeDigitized: "2021:04:12 00:00:00", dateTime: "2021:04:13 00:00:00", offsetTime: "+01:00")))
        #expect(found.source == .dateTimeOriginal)
        #expect(found.local == LocalDateTime(year: 2021, month: 4, day: 11, hour: 15, minute: 47, second: 53, millisecond: 54))
        #expect(found.offset == UTCOffset(seconds: -5 * 3600))
    }

    @Test func eachLinkUsesOnlyItsOwnOffset() throws {
        let found = try #require(try date(ExifFields(dateTimeOriginal: "2021:04:11 15:47:53", offsetTime: "+01:00")))
        #expect(found.offset == nil)
        #expect(found.local.millisecond == nil)
    }

    @Test func digitizedIsUsedWhenOriginalIsMissing() throws {
        let found = try #require(try date(ExifFields(
            dateTimeDigitized: "2001:01:11 03:28:39", subSecTimeDigitized: "5", offsetTimeDigitized: "+09:30",
            dateTime: "2002:02:02 02:02:02")))
        #expect(found.source == .dateTimeDigitized)
        #expect(found.local.iso8601 == "2001-01-11T03:28:39.500")
        #expect(found.offset?.iso8601 == "+09:30")
    }

    @Test func dateTimeIsTheLastExifLink() throws {
        let found = try #require(try date(ExifFields(dateTime: "2013:07:04 17:24:41", subSecTime: "12", offsetTime: "-03:00")))
        #expect(found.source == .dateTime)
        #expect(found.local.iso8601 == "2013-07-04T17:24:41.120")
        #expect(found.offset?.iso8601 == "-03:00")
    }

    @Test(arguments: [
        "0000:00:00 00:00:00", "    :  :     :  :  ", "", "2021:02:30 10:00:00", "2021:13:01 10:00:00",
        "2005:0?:03 15:31:45", "2021:02:03 24:00:00", "2021:02:03 10:60:00", "not a date", "2021:02:03 1",
        "1700:01:01 00:00:00",
    ])
    func invalidOriginalFallsThroughToDigitized(_ invalid: String) throws {
        let found = try #require(try date(ExifFields(dateTimeOriginal: invalid, dateTimeDigitized: "2003:09:10 20:59:18")))
        #expect(found.source == .dateTimeDigitized)
        #expect(found.local.iso8601 == "2003-09-10T20:59:18")
    }

    @Test func noValidValueGivesNoDate() throws {
        #expect(try date(ExifFields(dateTimeOriginal: "0000:00:00 00:00:00", dateTimeDigitized: "0000:00:00 00:00:00",
                                    dateTime: "0000:00:00 00:00:00", make: "Nikon")) == nil)
        #expect(try date(ExifFields(make: "Nikon")) == nil)
    }

    @Test(arguments: [
        ("2023-09-27T14:30:13+02:00", "2023-09-27T14:30:13", "+02:00"),
        ("2023:09:27 14:30:13Z", "2023-09-27T14:30:13", "+00:00"),
        ("2023:09:27 14:30:13   ", "2023-09-27T14:30:13", nil),
        ("2023:09:27 14:30:13\0\0", "2023-09-27T14:30:13", nil),
        ("2023:09:27 14:30", "2023-09-27T14:30:00", nil),
        ("2023/09/27 14:30:13", "2023-09-27T14:30:13", nil),
        ("2023:09:27 14:30:13.250", "2023-09-27T14:30:13.250", nil),
        ("2024:02:29 23:59:59", "2024-02-29T23:59:59", nil),
        ("2019:01:01", "2019-01-01T00:00:00", nil),
        ("2019:01:01   :  :  ", "2019-01-01T00:00:00", nil),
        ("2019:01:01 10:11:12 AM", "2019-01-01T10:11:12", nil),
        ("2019:01:01 10:11:12+25:00", "2019-01-01T10:11:12", nil),
    ] as [(String, String, String?)])
    func lenientFormsAreAccepted(_ text: String, _ local: String, _ offset: String?) throws {
        let found = try #require(try date(ExifFields(dateTimeOriginal: text)))
        #expect(found.local.iso8601 == local)
        #expect(found.offset?.iso8601 == offset)
    }

    @Test func offsetTagOverridesAnOffsetInTheDate() throws {
        let found = try #require(try date(ExifFields(dateTimeOriginal: "2023-09-27T14:30:13+02:00", offsetTimeOriginal: "+05:30")))
        #expect(found.offset?.iso8601 == "+05:30")
    }

    @Test(arguments: [
        ("813", 813), ("21", 210), ("054", 54), ("0532", 53), ("860627", 860), ("0", 0), ("00", 0), ("7 ", 700),
    ])
    func subSecondsBecomeMilliseconds(_ subSeconds: String, _ millisecond: Int) throws {
        let found = try #require(try date(ExifFields(dateTimeOriginal: "2016:09:28 18:18:05", subSecTimeOriginal: subSeconds)))
        #expect(found.local.millisecond == millisecond)
    }

    @Test(arguments: ["", "  ", "ab", "-1"])
    func unreadableSubSecondsAreIgnored(_ subSeconds: String) throws {
        let found = try #require(try date(ExifFields(dateTimeOriginal: "2016:09:28 18:18:05", subSecTimeOriginal: subSeconds)))
        #expect(found.local.millisecond == nil)
    }

    @Test(arguments: ["   :  ", "+25:00", "0200", "+02:61", "junk"])
    func unreadableOffsetsAreIgnored(_ offset: String) throws {
        let found = try #require(try date(ExifFields(dateTimeOriginal: "2016:09:28 18:18:05", offsetTimeOriginal: offset)))
        #expect(found.offset == nil)
    }
}
