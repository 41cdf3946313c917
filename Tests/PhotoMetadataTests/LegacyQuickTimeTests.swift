import WallClock
import Foundation
import PhotoFixtures
import PhotoMetadata
import Testing

/// QuickTime movies older than the `ftyp` box (issue 25, part 8): sniffed by their box
/// structure and read as videos, while a file that merely starts with padding is not.
@Suite struct LegacyQuickTimeTests {
    static func read(_ bytes: [UInt8]) throws(MetadataError) -> PhotoMetadata {
        let path = TemporaryFile.write(bytes)
        defer { try? FileManager.default.removeItem(atPath: path) }
        return try MetadataReader(timeZone: .fixed(UTCOffset(seconds: 0))).read(atPath: path)
    }

    @Test("A movie without ftyp starting with free, skip, wide, mdat or moov is a video",
          arguments: [("free", false), ("skip", false), ("wide", false), ("", false), ("", true), ("free", true)])
    func movieWithoutFileTypeIsAVideo(start: String, movieFirst: Bool) throws {
        var movie = MovieFixture(width: 640, height: 480)
        movie.legacyStart = start
        movie.movieFirst = movieFirst
        movie.duration = 4
        let bytes = movie.bytes
        #expect(!bytes.isEmpty && Array(bytes[4..<8]) != Array("ftyp".utf8))
        let metadata = try Self.read(bytes)
        #expect(metadata.mediaType == .video)
        #expect(metadata.format == .mov)
        #expect(metadata.displaySize == PixelSize(width: 640, height: 480))
        #expect(abs((metadata.duration ?? 0) - 4) < 0.01)
    }

    @Test("Padding followed by anything but a movie box is not a movie")
    func paddingAloneIsNotAMovie() {
        var bytes: [UInt8] = [0, 0, 0, 16] + Array("free".utf8) + [UInt8](repeating: 0, count: 8)
        bytes += Array("Hello, this is a text file, not a movie.".utf8)
        #expect(throws: MetadataError.self) { try Self.read(bytes) }
    }
}
