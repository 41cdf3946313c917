import Foundation
import PhotoFixtures
import Testing
import Thumbnails

/// Sizes and orientation on photos the project makes itself.
@Suite struct RenditionSizeTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var name: String
        var bytes: [UInt8]
        /// Display size, orientation applied.
        var width: Int
        var height: Int
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(name: "landscape.jpg", bytes: PhotoFixtures.jpeg(width: 4000, height: 3000), width: 4000, height: 3000),
        Case(name: "portrait.jpg", bytes: PhotoFixtures.jpeg(width: 3000, height: 4000), width: 3000, height: 4000),
        Case(name: "rotated-6.jpg", bytes: PhotoFixtures.jpeg(width: 4000, height: 3000, exif: ExifFields(orientation: 6)), width: 3000, height: 4000),
        Case(name: "rotated-8.jpg", bytes: PhotoFixtures.jpeg(width: 2400, height: 1000, exif: ExifFields(orientation: 8)), width: 1000, height: 2400),
        Case(name: "mirrored-5.jpg", bytes: PhotoFixtures.jpeg(width: 2000, height: 1200, exif: ExifFields(orientation: 5)), width: 1200, height: 2000),
        Case(name: "small.jpg", bytes: PhotoFixtures.jpeg(width: 200, height: 120), width: 200, height: 120),
        Case(name: "wide.png", bytes: PhotoFixtures.png(width: 2000, height: 1000), width: 2000, height: 1000),
        Case(name: "rotated-6.png", bytes: PhotoFixtures.png(width: 1000, height: 400, exif: ExifFields(orientation: 6)), width: 400, height: 1000),
        Case(name: "tall.tif", bytes: PhotoFixtures.tiff(width: 500, height: 2500), width: 500, height: 2500),
        Case(name: "square.webp", bytes: PhotoFixtures.webp(width: 900, height: 900), width: 900, height: 900),
    ]

    @Test(arguments: cases, ThumbnailSize.allCases)
    func renditionHasTheDisplayAspectAndTheRightEdge(_ photo: Case, size: ThumbnailSize) throws {
        let scratch = try Scratch()
        let source = try scratch.photo(photo.name, photo.bytes, id: 1)
        let result = scratch.cache.image(for: source, size: size)
        #expect(result.error == nil)
        #expect(!result.isPlaceholder)
        #expect(result.contentType == "image/jpeg")
        let found = try #require(jpegSize(result.bytes))
        let expected = expectedSize(width: photo.width, height: photo.height, size)
        #expect(isClose(found, expected), "\(photo.name) \(size): \(found.width)×\(found.height), expected \(expected.width)×\(expected.height)")
    }

    @Test func aSmallImageIsNeverUpscaled() throws {
        let scratch = try Scratch()
        let source = try scratch.photo("tiny.png", PhotoFixtures.png(width: 50, height: 30), id: 2)
        for size in ThumbnailSize.allCases {
            let found = try #require(jpegSize(scratch.cache.image(for: source, size: size).bytes))
            #expect(found.width == 50 && found.height == 30)
        }
    }

    @Test func shortEdgeAndLongEdgeAreExact() throws {
        let scratch = try Scratch()
        let source = try scratch.photo("photo.jpg", PhotoFixtures.jpeg(width: 4000, height: 3000), id: 3)
        let thumbnail = try #require(jpegSize(scratch.cache.image(for: source, size: .thumbnail).bytes))
        let large = try #require(jpegSize(scratch.cache.image(for: source, size: .large).bytes))
        let preview = try #require(jpegSize(scratch.cache.image(for: source, size: .preview).bytes))
        #expect(thumbnail.height == 320)
        #expect(large.width == 1067 && large.height == 800)
        #expect(preview.width == 1600 && preview.height == 1200)
    }

    @Test func theOutputCarriesNoOrientationTag() throws {
        // Orientation is applied to the pixels; an EXIF tag left in would make browsers turn it again.
        let scratch = try Scratch()
        let source = try scratch.photo("r.jpg", PhotoFixtures.jpeg(width: 800, height: 600, exif: ExifFields(orientation: 6)), id: 4)
        let bytes = scratch.cache.image(for: source, size: .thumbnail).bytes
        let exifMarker: [UInt8] = Array("Exif".utf8) + [0, 0]
        let hasExif = bytes.indices.dropLast(6).contains { Array(bytes[$0..<$0 + 6]) == exifMarker }
        #expect(!hasExif)
    }
}
