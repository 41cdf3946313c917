import WallClock
import Foundation
import PhotoFixtures
import PhotoMetadata
import Testing

/// Each reader on fixtures made by `PhotoFixtures`: format, sizes, orientation and EXIF.
@Suite struct ReaderTests {
    static let exif = ExifFields(
        dateTimeOriginal: "2021:02:03 10:11:12", subSecTimeOriginal: "45", offsetTimeOriginal: "+02:00",
        make: "Shoebox", model: "Fixture 1")

    static func withOrientation(_ orientation: Int?) -> ExifFields {
        var fields = exif
        fields.orientation = orientation
        return fields
    }

    func expectExif(_ metadata: PhotoMetadata) {
        #expect(metadata.exifDate?.local.iso8601 == "2021-02-03T10:11:12.450")
        #expect(metadata.exifDate?.source == .dateTimeOriginal)
        #expect(metadata.exifDate?.offset?.iso8601 == "+02:00")
        #expect(metadata.cameraMake == "Shoebox")
        #expect(metadata.cameraModel == "Fixture 1")
    }

    @Test func jpeg() throws {
        let metadata = try TemporaryFile.read(PhotoFixtures.jpeg(width: 640, height: 480, exif: Self.exif))
        #expect(metadata.format == .jpeg)
        #expect(metadata.pixelSize == PixelSize(width: 640, height: 480))
        #expect(metadata.displaySize == PixelSize(width: 640, height: 480))
        #expect(metadata.orientation == nil)
        expectExif(metadata)
    }

    @Test func jpegWithoutExif() throws {
        let metadata = try TemporaryFile.read(PhotoFixtures.jpeg(width: 31, height: 17))
        #expect(metadata.pixelSize == PixelSize(width: 31, height: 17))
        #expect(metadata.exifDate == nil)
        #expect(metadata.cameraMake == nil)
    }

    @Test(arguments: 1...8)
    func orientationTurnsTheDisplaySizeForJPEGPNGTIFFAndWebP(_ orientation: Int) throws {
        let fields = Self.withOrientation(orientation)
        let files = [
            PhotoFixtures.jpeg(width: 40, height: 30, exif: fields),
            PhotoFixtures.png(width: 40, height: 30, exif: fields),
            PhotoFixtures.tiff(width: 40, height: 30, exif: fields),
            PhotoFixtures.webp(width: 40, height: 30, exif: fields),
        ]
        let expected = orientation >= 5 ? PixelSize(width: 30, height: 40) : PixelSize(width: 40, height: 30)
        for file in files {
            let metadata = try TemporaryFile.read(file)
            #expect(metadata.orientation == orientation)
            #expect(metadata.pixelSize == PixelSize(width: 40, height: 30))
            #expect(metadata.displaySize == expected, "\(metadata.format)")
        }
    }

    @Test(arguments: [0, 9, 300])
    func outOfRangeOrientationIsIgnored(_ orientation: Int) throws {
        let metadata = try TemporaryFile.read(PhotoFixtures.jpeg(width: 40, height: 30, exif: Self.withOrientation(orientation)))
        #expect(metadata.orientation == nil)
        #expect(metadata.displaySize == PixelSize(width: 40, height: 30))
    }

    @Test func png() throws {
        let metadata = try TemporaryFile.read(PhotoFixtures.png(width: 33, height: 12, exif: Self.exif))
        #expect(metadata.format == .png)
        #expect(metadata.pixelSize == PixelSize(width: 33, height: 12))
        expectExif(metadata)
    }

    @Test("A PNG's EXIF is read wherever its writer put it, past 64 KiB of IDAT chunks", arguments: PhotoFixtures.PNGExifStyle.allCases)
    func pngExifInEveryStyle(_ style: PhotoFixtures.PNGExifStyle) throws {
        let fields = ExifFields(dateTimeOriginal: "2021:06:30 18:45:00", orientation: 6)
        let bytes = PhotoFixtures.png(width: 400, height: 300, exif: fields, exifStyle: style)
        #expect(bytes.count > 64 * 1024)
        let metadata = try TemporaryFile.read(bytes)
        #expect(metadata.problem == nil)
        #expect(metadata.exifDate?.local == LocalDateTime(year: 2021, month: 6, day: 30, hour: 18, minute: 45))
        #expect(metadata.displaySize == PixelSize(width: 300, height: 400))
    }

    @Test("A damaged raw EXIF profile in a PNG loses the EXIF, not the size")
    func pngDamagedRawProfile() throws {
        let fields = ExifFields(dateTimeOriginal: "2021:06:30 18:45:00")
        var bytes = PhotoFixtures.png(width: 40, height: 30, exif: fields, exifStyle: .rawProfile)
        let digits = try #require(bytes.firstRange(of: Array("45786966".utf8)))  // "Exif" in hex
        bytes.replaceSubrange(digits, with: Array("45xx6966".utf8))
        let metadata = try TemporaryFile.read(bytes)
        #expect(metadata.exifDate == nil)
        #expect(metadata.pixelSize == PixelSize(width: 40, height: 30))
    }

    @Test("The letters eXIf inside PNG image data are not taken for a chunk")
    func pngImageDataSpellingExif() throws {
        var bytes = PhotoFixtures.png(width: 400, height: 300)
        // Plant a plausible chunk header inside the last IDAT's data, 40 bytes before its end.
        let planted = bytes.count - 12 - 4 - 40
        bytes.replaceSubrange(planted..<planted + 8, with: [0, 0, 0, 8] + Array("eXIf".utf8))
        let metadata = try TemporaryFile.read(bytes)
        #expect(metadata.exifDate == nil)
        #expect(metadata.pixelSize == PixelSize(width: 400, height: 300))
    }

    @Test(arguments: [false, true])
    func tiff(bigEndian: Bool) throws {
        let metadata = try TemporaryFile.read(PhotoFixtures.tiff(width: 21, height: 13, exif: Self.exif, bigEndian: bigEndian))
        #expect(metadata.format == .tiff)
        #expect(metadata.pixelSize == PixelSize(width: 21, height: 13))
        expectExif(metadata)
    }

    @Test(arguments: [false, true])
    func extendedWebP(exifMarker: Bool) throws {
        let metadata = try TemporaryFile.read(PhotoFixtures.webp(width: 300, height: 225, exif: Self.exif, exifMarker: exifMarker))
        #expect(metadata.format == .webp)
        #expect(metadata.pixelSize == PixelSize(width: 300, height: 225))
        expectExif(metadata)
    }

    @Test func simpleLosslessWebP() throws {
        let metadata = try TemporaryFile.read(PhotoFixtures.webp(width: 16_384, height: 1))
        #expect(metadata.pixelSize == PixelSize(width: 16_384, height: 1))
        #expect(metadata.exifDate == nil)
    }

    @Test(arguments: [false, true])
    func heif(exifInItemData: Bool) throws {
        let metadata = try TemporaryFile.read(PhotoFixtures.heif(width: 4032, height: 3024, exif: Self.exif, exifInItemData: exifInItemData))
        #expect(metadata.format == .heic)
        #expect(metadata.pixelSize == PixelSize(width: 4032, height: 3024))
        #expect(metadata.displaySize == PixelSize(width: 4032, height: 3024))
        expectExif(metadata)
    }

    @Test(arguments: [(0, false), (1, true), (2, false), (3, true)])
    func heifRotationDecidesTheDisplaySize(_ rotation: Int, _ turned: Bool) throws {
        let metadata = try TemporaryFile.read(PhotoFixtures.heif(width: 4032, height: 3024, rotation: rotation))
        #expect(metadata.pixelSize == PixelSize(width: 4032, height: 3024))
        #expect(metadata.displaySize == (turned ? PixelSize(width: 3024, height: 4032) : PixelSize(width: 4032, height: 3024)))
    }

    @Test func heifIgnoresExifOrientationButReportsIt() throws {
        let metadata = try TemporaryFile.read(PhotoFixtures.heif(width: 4000, height: 3000, exif: Self.withOrientation(6)))
        #expect(metadata.orientation == 6)
        #expect(metadata.displaySize == PixelSize(width: 4000, height: 3000))
    }

    @Test func avif() throws {
        let metadata = try TemporaryFile.read(PhotoFixtures.heif(width: 512, height: 256, rotation: 3, exif: Self.exif, brand: .avif))
        #expect(metadata.format == .avif)
        #expect(metadata.displaySize == PixelSize(width: 256, height: 512))
        expectExif(metadata)
    }

    @Test func formatComesFromContentNotName() throws {
        let jpeg = PhotoFixtures.jpeg(width: 8, height: 8)
        #expect(try TemporaryFile.read(jpeg, name: "photo.heic").format == .jpeg)
        #expect(try TemporaryFile.read(PhotoFixtures.tiff(width: 2, height: 2), name: "photo.jpg").format == .tiff)
    }

    @Test func readingByDescriptorLeavesTheOffsetAlone() throws {
        let path = TemporaryFile.write(PhotoFixtures.jpeg(width: 8, height: 8, exif: Self.exif))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let descriptor = open(path, O_RDONLY)
        defer { close(descriptor) }
        _ = lseek(descriptor, 3, SEEK_SET)
        let metadata = try MetadataReader().read(fileDescriptor: descriptor)
        #expect(metadata.pixelSize == PixelSize(width: 8, height: 8))
        #expect(lseek(descriptor, 0, SEEK_CUR) == 3)
    }

    @Test func largeJPEGSegmentsBeyondTheFirstReadAreWalked() throws {
        // A 200 KB APP2 segment chain pushes the frame header far past the first 64 KiB.
        var file = PhotoFixtures.jpeg(width: 123, height: 45, exif: Self.exif)
        let filler = [UInt8](repeating: 0x41, count: 65_000)
        var segments: [UInt8] = []
        for _ in 0..<3 { segments += [0xFF, 0xE2, 0xFD, 0xEA] + filler }
        file.insert(contentsOf: segments, at: 2)
        let metadata = try TemporaryFile.read(file)
        #expect(metadata.pixelSize == PixelSize(width: 123, height: 45))
        expectExif(metadata)
    }
}

/// EXIF blocks libexif cannot take as they are, read through the compact block.
@Suite struct ExifEdgeCaseTests {
    static let exif = ExifFields(dateTimeOriginal: "2021:02:03 10:11:12", dateTime: "2022:03:04 05:06:07", orientation: 8, make: "Shoebox")

    /// The index of the first occurrence of `pattern` in `bytes`.
    func index(of pattern: [UInt8], in bytes: [UInt8]) throws -> Int {
        try #require((0...(bytes.count - pattern.count)).first { Array(bytes[$0..<$0 + pattern.count]) == pattern })
    }

    @Test func tiffWhoseDirectoriesLieBeyondTheFirstRead() throws {
        let metadata = try TemporaryFile.read(PhotoFixtures.tiff(width: 400, height: 300, exif: Self.exif))
        #expect(metadata.pixelSize == PixelSize(width: 400, height: 300))
        #expect(metadata.displaySize == PixelSize(width: 300, height: 400))
        #expect(metadata.exifDate?.local.iso8601 == "2021-02-03T10:11:12")
        #expect(metadata.cameraMake == "Shoebox")
    }

    @Test(arguments: [100_000, 400_000])
    func exifChunkLargerThanLibexifReads(_ padding: Int) throws {
        var file = PhotoFixtures.webp(width: 20, height: 10, exif: Self.exif)
        let chunk = try index(of: Array("EXIF".utf8), in: file)
        let length = Int(file[chunk + 4]) | Int(file[chunk + 5]) << 8 | Int(file[chunk + 6]) << 16
        let newLength = length + padding
        file.insert(contentsOf: [UInt8](repeating: 0, count: padding), at: chunk + 8 + length)
        file.replaceSubrange(chunk + 4..<chunk + 8, with: [UInt8(newLength & 0xFF), UInt8(newLength >> 8 & 0xFF), UInt8(newLength >> 16 & 0xFF), 0])
        let riff = file.count - 8
        file.replaceSubrange(4..<8, with: [UInt8(riff & 0xFF), UInt8(riff >> 8 & 0xFF), UInt8(riff >> 16 & 0xFF), UInt8(riff >> 24 & 0xFF)])
        let metadata = try TemporaryFile.read(file)
        #expect(metadata.exifDate?.local.iso8601 == "2021-02-03T10:11:12")
        #expect(metadata.orientation == 8)
        #expect(metadata.displaySize == PixelSize(width: 10, height: 20))
    }

    @Test func nonstandardTIFFMagicNumberInJPEG() throws {
        var file = PhotoFixtures.jpeg(width: 20, height: 10, exif: Self.exif)
        let header = try index(of: [0x49, 0x49, 0x2A, 0x00], in: file)
        file[header + 2] = 0x13
        let metadata = try TemporaryFile.read(file)
        #expect(metadata.exifDate?.local.iso8601 == "2021-02-03T10:11:12")
        #expect(metadata.cameraMake == "Shoebox")
    }

    @Test func exifPointerStoredAsTextIsNotFollowed() throws {
        var file = PhotoFixtures.jpeg(width: 20, height: 10, exif: Self.exif)
        let entry = try index(of: [0x69, 0x87, 0x04, 0x00], in: file)
        file[entry + 2] = 0x02
        let metadata = try TemporaryFile.read(file)
        #expect(metadata.exifDate?.source == .dateTime)
        #expect(metadata.exifDate?.local.iso8601 == "2022-03-04T05:06:07")
    }
}
