import WallClock
import PhotoMetadata
import Testing

/// The file-name and modification-time links of the date chain.
@Suite struct FallbackDateTests {
    @Test(arguments: [
        ("IMG_20190101_120000.jpg", "2019-01-01T12:00:00"),
        ("PXL_20210305_101112345.MP.jpg", "2021-03-05T10:11:12.345"),
        ("IMG-20190101-WA0001.jpg", "2019-01-01T00:00:00"),
        ("2020-01-30 09.57.18.jpg", "2020-01-30T09:57:18"),
        ("Screenshot 2021-02-03 at 10.11.12.png", "2021-02-03T10:11:12"),
        ("Screen Shot 2021-02-03 at 10.11.12 PM.png", "2021-02-03T22:11:12"),
        ("Screen Shot 2021-02-03 at 12.01.02 AM.png", "2021-02-03T00:01:02"),
        ("VID_20190101_120000.mp4", "2019-01-01T12:00:00"),
        ("20190101_120000.jpg", "2019-01-01T12:00:00"),
        ("signal-2021-02-03-101112.jpg", "2021-02-03T10:11:12"),
        ("signal-2021-02-03-10-11-12-123.jpg", "2021-02-03T10:11:12.123"),
        ("photo_2021-02-03_10-11-12.jpg", "2021-02-03T10:11:12"),
        ("WhatsApp Image 2021-02-03 at 10.11.12 (1).jpeg", "2021-02-03T10:11:12"),
        ("Screenshot_20210203-101112.png", "2021-02-03T10:11:12"),
        ("20190101120000.jpg", "2019-01-01T12:00:00"),
        ("IMG_20190101_120000_1.jpg", "2019-01-01T12:00:00"),
        ("2019-01-01.jpg", "2019-01-01T00:00:00"),
        ("holiday/DSC_0001 2019_07_14.jpg", "2019-07-14T00:00:00"),
        ("/photos/2018/IMG_20180704_235959.jpg", "2018-07-04T23:59:59"),
        ("IMG_20190101_250000.jpg", "2019-01-01T00:00:00"),
    ])
    func fileNameDates(_ name: String, _ expected: String) throws {
        let found = try #require(CaptureDate.fromFileName(name))
        #expect(found.local.iso8601 == expected)
        #expect(found.source == .filename)
        #expect(found.offset == nil)
    }

    @Test(arguments: [
        "IMG_1234.JPG", "DSC01234.jpg", "P1010001.JPG", "12345678.jpg", "IMG_20191301_120000.jpg",
        "IMG_20190230_120000.jpg", "18991231_120000.jpg", "21010101.jpg", "photo.jpg", "2019.jpg",
        "123420190101.jpg", "1612345678901.jpg", "2019-1-1.jpg", "scan 2019-01 .jpg", "",
        "2019/IMG_0001.jpg",
    ])
    func namesWithoutDates(_ name: String) {
        #expect(CaptureDate.fromFileName(name) == nil)
    }

    @Test func modificationTimeIsLocalWallClockWithItsOffset() {
        let utc = CaptureDate.fromModificationTime(secondsSince1970: 0, utcOffsetSeconds: 0)
        #expect(utc.local.iso8601 == "1970-01-01T00:00:00.000")
        #expect(utc.offset == UTCOffset(seconds: 0))
        #expect(utc.source == .fileModified)

        let paris = CaptureDate.fromModificationTime(secondsSince1970: 1_700_000_000, nanoseconds: 987_654_321, utcOffsetSeconds: 3600)
        #expect(paris.local.iso8601 == "2023-11-14T23:13:20.987")
        #expect(paris.offset?.iso8601 == "+01:00")

        let newYork = CaptureDate.fromModificationTime(secondsSince1970: 1_700_000_000, utcOffsetSeconds: -5 * 3600)
        #expect(newYork.local.iso8601 == "2023-11-14T17:13:20.000")
    }

    @Test func modificationTimesBefore1970AndLeapDays() {
        #expect(CaptureDate.fromModificationTime(secondsSince1970: -1, utcOffsetSeconds: 0).local.iso8601 == "1969-12-31T23:59:59.000")
        #expect(CaptureDate.fromModificationTime(secondsSince1970: 951_782_400, utcOffsetSeconds: 0).local.iso8601 == "2000-02-29T00:00:00.000")
        #expect(CaptureDate.fromModificationTime(secondsSince1970: 4_107_542_400, utcOffsetSeconds: 0).local.iso8601 == "2100-03-01T00:00:00.000")
        #expect(CaptureDate.fromModificationTime(secondsSince1970: .max, utcOffsetSeconds: 0).local.year == 9999)
        #expect(CaptureDate.fromModificationTime(secondsSince1970: .min, utcOffsetSeconds: 0).local.year == 1)
    }
}
