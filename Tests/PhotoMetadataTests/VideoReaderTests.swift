import WallClock
import Foundation
import PhotoFixtures
import PhotoMetadata
import Testing

/// The video readers on fixtures made by `PhotoFixtures`: format, size and rotation, duration,
/// the date chain, and what reading costs.
@Suite struct VideoReaderTests {
    static let plusTwo = LocalTimeZone.fixed(UTCOffset(seconds: 7200))
    /// 2024-05-06T07:08:09Z.
    static let instant: Int64 = 1_714_979_289

    static func read(_ bytes: [UInt8], zone: LocalTimeZone = plusTwo) throws(MetadataError) -> PhotoMetadata {
        let path = TemporaryFile.write(bytes)
        defer { try? FileManager.default.removeItem(atPath: path) }
        return try MetadataReader(timeZone: zone).read(atPath: path)
    }

    @Test(arguments: [(0, 1920, 1080), (90, 1080, 1920), (180, 1920, 1080), (270, 1080, 1920)])
    func mp4SizeRotationDurationAndMediaCreateDate(rotation: Int, displayWidth: Int, displayHeight: Int) throws {
        var movie = MovieFixture(width: 1920, height: 1080)
        movie.rotation = rotation
        movie.duration = 3.25
        movie.mediaCreated = Self.instant
        let metadata = try Self.read(movie.bytes)
        #expect(metadata.format == .mp4)
        #expect(metadata.mediaType == .video)
        #expect(metadata.pixelSize == PixelSize(width: 1920, height: 1080))
        #expect(metadata.displaySize == PixelSize(width: displayWidth, height: displayHeight))
        #expect(abs((metadata.duration ?? 0) - 3.25) < 0.001)
        // UTC 07:08:09 shown in the indexing machine's zone (+02:00 here), offset kept.
        #expect(metadata.exifDate?.local.iso8601 == "2024-05-06T09:08:09")
        #expect(metadata.exifDate?.offset?.iso8601 == "+02:00")
        #expect(metadata.exifDate?.source == .mediaCreateDate)
    }

    @Test func quickTimeCreationDateWinsOverTheMovieHeader() throws {
        var movie = MovieFixture(width: 720, height: 1280)
        movie.quickTime = true
        movie.mediaCreated = Self.instant
        movie.creationDate = "2023-09-22T18:34:05+0200"
        let metadata = try Self.read(movie.bytes, zone: .fixed(UTCOffset(seconds: -5 * 3600)))
        #expect(metadata.format == .mov)
        #expect(metadata.exifDate?.local.iso8601 == "2023-09-22T18:34:05")
        #expect(metadata.exifDate?.offset?.iso8601 == "+02:00")
        #expect(metadata.exifDate?.source == .creationDate)
    }

    @Test func zeroMovieHeaderDateMeansNone() throws {
        let metadata = try Self.read(MovieFixture(width: 64, height: 48).bytes)
        #expect(metadata.exifDate == nil)
        #expect(metadata.displaySize == PixelSize(width: 64, height: 48))
    }

    @Test("A movie whose moov sits after a 4 GB mdat costs a few small reads", arguments: [false, true])
    func sparseHugeMovieReadsOnlyBoxHeaders(movieFirst: Bool) throws {
        var movie = MovieFixture(width: 3840, height: 2160)
        movie.mediaDataSize = 4 << 30
        movie.movieFirst = movieFirst
        movie.mediaCreated = Self.instant
        let path = TemporaryFile.write([], name: "huge.mp4")
        defer { try? FileManager.default.removeItem(atPath: path) }
        try movie.write(to: path)
        let size = try #require(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
        #expect(size > 4 << 30)

        let (result, cost) = MetadataReader(timeZone: Self.plusTwo).readMeasuringCost(atPath: path)
        let metadata = try result.get()
        #expect(metadata.displaySize == PixelSize(width: 3840, height: 2160))
        #expect(metadata.exifDate?.source == .mediaCreateDate)
        print("4 GB sparse movie (moov \(movieFirst ? "first" : "last")): \(cost.reads) reads, \(cost.bytes) bytes")
        #expect(cost.reads <= 2, "\(cost.reads) reads")
        #expect(cost.bytes <= 128 * 1024, "\(cost.bytes) bytes")
    }

    @Test("A moov larger than 1 MiB is walked box by box, its filler never read")
    func largeMovieBoxIsWalkedByHeaders() throws {
        var movie = MovieFixture(width: 1280, height: 720)
        movie.rotation = 270
        movie.mediaDataSize = 100 << 20
        movie.movieFiller = 8 << 20
        movie.creationDate = "2022-01-02T03:04:05-0800"
        let path = TemporaryFile.write([], name: "long.mov")
        defer { try? FileManager.default.removeItem(atPath: path) }
        try movie.write(to: path)
        let (result, cost) = MetadataReader(timeZone: Self.plusTwo).readMeasuringCost(atPath: path)
        let metadata = try result.get()
        #expect(metadata.displaySize == PixelSize(width: 720, height: 1280))
        #expect(metadata.exifDate?.source == .creationDate)
        #expect(metadata.exifDate?.offset?.iso8601 == "-08:00")
        print("moov of 8 MiB after 100 MB of mdat: \(cost.reads) reads, \(cost.bytes) bytes")
        #expect(cost.reads <= 6, "\(cost.reads) reads")
        #expect(cost.bytes <= 256 * 1024, "\(cost.bytes) bytes")
    }

    @Test func aviSizeDurationAndDate() throws {
        let bytes = PhotoFixtures.avi(width: 320, height: 240, frames: 466, framesPerSecond: 30, date: "MON MAR 10 15:04:43 2003")
        let metadata = try Self.read(bytes)
        #expect(metadata.format == .avi)
        #expect(metadata.displaySize == PixelSize(width: 320, height: 240))
        #expect(abs((metadata.duration ?? 0) - 466.0 / 30) < 0.001)
        #expect(metadata.exifDate == CaptureDate(local: LocalDateTime(year: 2003, month: 3, day: 10, hour: 15, minute: 4, second: 43), source: .dateTimeOriginal))
    }

    @Test(arguments: ["2005:08:17 11:42:43", "WED AUG 17 11:42:43 2005"])
    func aviDateForms(_ text: String) throws {
        let metadata = try Self.read(PhotoFixtures.avi(width: 8, height: 8, frames: 1, framesPerSecond: 1, date: text))
        #expect(metadata.exifDate?.local.iso8601 == "2005-08-17T11:42:43")
    }

    @Test(arguments: [false, true])
    func matroskaSizeDurationAndDateUTC(webm: Bool) throws {
        let bytes = PhotoFixtures.matroska(width: 704, height: 576, durationMilliseconds: 148_608, dateUTC: Self.instant, webm: webm, clusterSize: 200_000)
        let metadata = try Self.read(bytes)
        #expect(metadata.format == (webm ? .webm : .mkv))
        #expect(metadata.displaySize == PixelSize(width: 704, height: 576))
        #expect(abs((metadata.duration ?? 0) - 148.608) < 0.001)
        #expect(metadata.exifDate?.local.iso8601 == "2024-05-06T09:08:09")
        #expect(metadata.exifDate?.offset?.iso8601 == "+02:00")
        #expect(metadata.exifDate?.source == .dateTimeOriginal)
    }

    @Test(arguments: [(1920, 1080, false), (1440, 1080, true), (720, 576, true), (1280, 720, false), (854, 480, false)])
    func transportStreamSizeFromTheSequenceParameterSet(width: Int, height: Int, m2ts: Bool) throws {
        let metadata = try Self.read(PhotoFixtures.transportStream(width: width, height: height, m2ts: m2ts))
        #expect(metadata.format == (m2ts ? .m2ts : .mpegTS))
        #expect(metadata.mediaType == .video)
        #expect(metadata.displaySize == PixelSize(width: width, height: height))
        #expect(metadata.duration == nil)
        #expect(metadata.exifDate == nil)
    }

    @Test func audioOnlyMPEG4IsNotAVideo() {
        var bytes = MovieFixture(width: 0, height: 0).bytes
        bytes.replaceSubrange(8..<12, with: Array("M4A ".utf8))
        let result = TemporaryFile.result(bytes)
        #expect(throws: MetadataError.self) { try result.get() }
        if case .failure(let error) = result { #expect(error.code == .notAnImage) }
    }

    @Test("Truncating a movie anywhere never crashes, and a file cut inside mdat says why")
    func truncatedMovies() throws {
        var movie = MovieFixture(width: 32, height: 16)
        movie.mediaDataSize = 1000
        let bytes = movie.bytes
        for length in stride(from: 0, to: bytes.count, by: 7) {
            _ = TemporaryFile.result(Array(bytes.prefix(length)))
        }
        let cut = TemporaryFile.result(Array(bytes.prefix(600)))
        if case .failure(let error) = cut { #expect(error.format == .mp4) } else { Issue.record("a movie without moov was read") }
    }
}
