import WallClock
import PhotoFixtures
import PhotoMetadata
import SeededRandom
import Testing

/// Damaged, truncated and hostile inputs give errors or partial results, never crashes or hangs.
@Suite struct RobustnessTests {
    static let exif = ExifFields(dateTimeOriginal: "2021:02:03 10:11:12", orientation: 6, make: "Shoebox")

    static let fixtures: [(String, [UInt8])] = [
        ("jpeg", PhotoFixtures.jpeg(width: 64, height: 48, exif: exif)),
        ("png", PhotoFixtures.png(width: 16, height: 8, exif: exif)),
        ("tiff", PhotoFixtures.tiff(width: 16, height: 8, exif: exif)),
        ("webp", PhotoFixtures.webp(width: 64, height: 48, exif: exif)),
        ("heif", PhotoFixtures.heif(width: 64, height: 48, rotation: 1, exif: exif)),
        ("avif", PhotoFixtures.heif(width: 64, height: 48, exif: exif, brand: .avif, exifInItemData: true)),
    ]

    @Test(arguments: [
        // An ISO file with an audio brand (an `isom` one is a video now: `VideoReaderTests`).
        [UInt8](), Array("hello, world\n".utf8), [0x00, 0x00, 0x00, 0x18] + Array("ftypM4A ".utf8) + [UInt8](repeating: 0, count: 12),
        Array("GIF89a".utf8) + [1, 0, 1, 0], [0xFF, 0xD8], Array("RIFF\u{0}\u{0}\u{0}\u{0}WAVE".utf8),
    ])
    func nonImagesAreNotAnImage(_ bytes: [UInt8]) {
        let result = TemporaryFile.result(bytes)
        #expect(throws: MetadataError.self) { try result.get() }
        if case .failure(let error) = result { #expect(error.code == .notAnImage) }
    }

    @Test func missingFileIsUnreadable() {
        #expect(throws: MetadataError(.unreadable, "The file cannot be opened: No such file or directory.")) {
            try MetadataReader().read(atPath: "/nonexistent/shoebox/photo.jpg")
        }
    }

    @Test(arguments: fixtures.map(\.0))
    func everyTruncationIsHandled(_ name: String) throws {
        let bytes = try #require(Self.fixtures.first { $0.0 == name }?.1)
        for length in 0..<bytes.count {
            let result = TemporaryFile.result(Array(bytes.prefix(length)))
            if case .failure(let error) = result, length >= 16 {
                #expect(error.code != .notAnImage, "\(name) cut at \(length)")
            }
        }
    }

    @Test(arguments: fixtures.map(\.0))
    func corruptedBytesAreHandled(_ name: String) throws {
        var generator = SplitMix64(seed: 0x5EED)
        let original = try #require(Self.fixtures.first { $0.0 == name }?.1)
        for _ in 0..<300 {
            var bytes = original
            for _ in 0..<Int(generator.next() % 8 + 1) {
                let index = Int(generator.next() % UInt64(bytes.count))
                bytes[index] = [0x00, 0xFF, 0x7F, 0x80, UInt8(truncatingIfNeeded: generator.next())][Int(generator.next() % 5)]
            }
            _ = TemporaryFile.result(bytes)
        }
    }

    @Test func tiffDirectoryLoopsEnd() throws {
        // IFD0 at 8 whose next-IFD and SubIFDs point back at itself, and an Exif IFD pointing to IFD0.
        var tiff: [UInt8] = [0x49, 0x49, 0x2A, 0x00, 8, 0, 0, 0]
        tiff += [5, 0]
        tiff += [0x00, 0x01, 3, 0, 1, 0, 0, 0, 10, 0, 0, 0]  // width 10
        tiff += [0x01, 0x01, 3, 0, 1, 0, 0, 0, 20, 0, 0, 0]  // height 20
        tiff += [0x06, 0x01, 3, 0, 1, 0, 0, 0, 0x03, 0x80, 0, 0]  // CFA
        tiff += [0x4A, 0x01, 4, 0, 1, 0, 0, 0, 8, 0, 0, 0]  // SubIFDs → itself
        tiff += [0x69, 0x87, 4, 0, 1, 0, 0, 0, 8, 0, 0, 0]  // Exif IFD → IFD0
        tiff += [8, 0, 0, 0]  // next → itself
        let metadata = try TemporaryFile.read(tiff)
        #expect(metadata.exifDate == nil)
    }

    @Test func hugeDeclaredLengthsAreRejectedWithoutAllocation() {
        // A PNG whose first chunk claims 2 GB, a HEIF box claiming 2^63 bytes, a JPEG segment of length 1.
        let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x7F, 0xFF, 0xFF, 0xFF] + Array("IHDR".utf8) + [UInt8](repeating: 0, count: 20)
        let heif: [UInt8] = [0, 0, 0, 16] + Array("ftypheic".utf8) + [0, 0, 0, 0] + [0, 0, 0, 1] + Array("meta".utf8) + [0x7F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]
        let jpeg: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE1, 0x00, 0x01, 0xFF, 0xD9]
        for bytes in [png, heif, jpeg] {
            #expect(throws: MetadataError.self) { try TemporaryFile.read(bytes) }
        }
    }

    @Test func partlyReadableFilesKeepWhatWasFound() throws {
        // The EXIF is intact but the file ends before the frame header.
        let full = PhotoFixtures.jpeg(width: 64, height: 48, exif: Self.exif)
        let exifEnd = 2 + 4 + Int(full[4]) * 256 + Int(full[5]) - 2
        let metadata = try TemporaryFile.read(Array(full.prefix(exifEnd + 3)))
        #expect(metadata.exifDate?.local.iso8601 == "2021-02-03T10:11:12")
        #expect(metadata.pixelSize == nil)
    }
}

