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

    typealias Atom = PhotoFixtures.LeadingAtom

    /// The fixture movie (640×480, 4 s) as it would be written today, with `ftyp`.
    static var modernMovie: [UInt8] {
        var movie = MovieFixture(width: 640, height: 480)
        movie.duration = 4
        movie.quickTime = true
        return movie.bytes
    }

    /// (leading atoms, 64-bit sizes, `mdat` before `moov`, last atom's size 0).
    static let layouts: [([Atom], Bool, Bool, Bool)] = [
        ([Atom("free", size: 400_000)], false, false, false),
        ([Atom("free", size: 400_000)], true, false, false),
        ([Atom("wide", size: 8), Atom("pnot", size: 20), Atom("PICT", size: 3_000), Atom("free", size: 300_000), Atom("skip", size: 12)], false, false, false),
        ([Atom("free", size: 400_000)], false, false, true),
        ([Atom("free", size: 400_000), Atom("skip", size: 16)], true, true, true),
        ([], false, true, false),
    ]

    @Test("An old movie with large padding and other atoms before moov (64-bit sizes, mdat first, size 0) is a video",
          arguments: layouts)
    func largeLeadingAtoms(leading: [Atom], largeSizes: Bool, mediaDataFirst: Bool, lastRunsToEnd: Bool) throws {
        let bytes = try #require(PhotoFixtures.legacyQuickTime(
            Self.modernMovie, leading: leading, largeSizes: largeSizes, mediaDataFirst: mediaDataFirst, lastRunsToEnd: lastRunsToEnd))
        #expect(bytes.firstRange(of: Array("ftyp".utf8)) == nil)
        let path = TemporaryFile.write(bytes)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let reader = MetadataReader(timeZone: .fixed(UTCOffset(seconds: 0)))
        #expect(try reader.sniffedFormat(atPath: path) == .mov)
        let (result, cost) = reader.readMeasuringCost(atPath: path)
        let metadata = try result.get()
        #expect(metadata.mediaType == .video)
        #expect(metadata.format == .mov)
        #expect(metadata.displaySize == PixelSize(width: 640, height: 480))
        #expect(abs((metadata.duration ?? 0) - 4) < 0.01)
        // The padding is skipped by its size, never read.
        #expect(cost.bytes < 200_000, "\(cost)")
    }

    @Test("Padding before a moov without a video track, before an unknown atom, or more atoms than walked is not a movie",
          arguments: ["sound only", "unknown atom", "too many atoms"])
    func notAnOldMovie(_ case: String) throws {
        var movie = Self.modernMovie
        var leading = [Atom("free", size: 300_000)]
        switch `case` {
        case "sound only":
            let vide = Array("vide".utf8)
            while let at = movie.firstRange(of: vide) { movie.replaceSubrange(at, with: Array("soun".utf8)) }
        case "unknown atom":
            leading.append(Atom("junk", size: 16))
        default:
            // The sniffer walks eight atoms at most.
            leading += (0..<8).map { _ in Atom("skip", size: 8) }
        }
        let bytes = try #require(PhotoFixtures.legacyQuickTime(movie, leading: leading))
        let error = #expect(throws: MetadataError.self) { try Self.read(bytes) }
        #expect(error?.code == .notAnImage)
    }

    @Test("Padding followed by anything but a movie box is not a movie")
    func paddingAloneIsNotAMovie() {
        var bytes: [UInt8] = [0, 0, 0, 16] + Array("free".utf8) + [UInt8](repeating: 0, count: 8)
        bytes += Array("Hello, this is a text file, not a movie.".utf8)
        #expect(throws: MetadataError.self) { try Self.read(bytes) }
    }
}
