import WallClock
import Foundation
import GRDB
import LibraryIndex
import PhotoFixtures
import PhotoMetadata
import Testing

/// Videos in the index: stored with their media type and duration, in the timeline, and Live
/// Photos paired.
@Suite("Video index")
struct VideoIndexTests {
    static func movie(seconds: Double, created: Int64 = 1_714_979_289, quickTime: Bool = true) -> [UInt8] {
        var movie = MovieFixture(width: 1920, height: 1080)
        movie.rotation = 90
        movie.duration = seconds
        movie.mediaCreated = created
        movie.quickTime = quickTime
        return movie.bytes
    }

    static func moments(_ store: LibraryStore) throws -> [String] {
        var paths: [String] = []
        try store.forEachMoment { paths.append($0.path) }
        return paths
    }

    @Test("Videos are rows with their media type, duration, display size and container date")
    func videosAreIndexed() async throws {
        let tree = try TemporaryDirectory()
        try tree.write("root/clip.mp4", Self.movie(seconds: 12.5, quickTime: false))
        try tree.write("root/old.avi", PhotoFixtures.avi(width: 320, height: 240, frames: 300, framesPerSecond: 30, date: "2003:03:10 15:04:43"))
        try tree.write("root/film.mkv", PhotoFixtures.matroska(width: 704, height: 576, durationMilliseconds: 1500))
        try tree.write("root/photo.jpg", PhotoFixtures.jpeg(width: 8, height: 6))
        let store = try LibraryStore(path: tree.path + "/index.sqlite", mode: .readWrite)
        let progress = try await index(tree.path + "/root", into: store)
        #expect(progress.added == 4)
        #expect(progress.skipped == 0)

        let rows = try photosByPath(store)
        let clip = try #require(rows["clip.mp4"])
        #expect(clip.mediaType == .video)
        #expect(clip.format == .mp4)
        #expect(clip.duration == 12.5)
        #expect(clip.displaySize == PixelSize(width: 1080, height: 1920))
        #expect(clip.captureDate.source == .mediaCreateDate)
        let avi = try #require(rows["old.avi"])
        #expect(avi.captureDate.local.iso8601 == "2003-03-10T15:04:43")
        #expect(avi.captureDate.source == .dateTimeOriginal)
        #expect(avi.duration == 10)
        #expect(rows["film.mkv"]?.duration == 1.5)
        #expect(rows["film.mkv"]?.captureDate.source == .fileModified)
        #expect(rows["photo.jpg"]?.mediaType == .photo)
        #expect(rows["photo.jpg"]?.duration == nil)
        #expect(Set(try Self.moments(store)) == Set(rows.keys))
    }

    @Test("A short MOV beside a HEIC or JPEG of the same name is a Live Photo: paired, and out of the timeline")
    func livePhotosArePaired() async throws {
        let tree = try TemporaryDirectory()
        try tree.write("root/IMG_0001.HEIC", PhotoFixtures.heif(width: 40, height: 30))
        try tree.write("root/IMG_0001.MOV", Self.movie(seconds: 2.9))
        try tree.write("root/trip/IMG_0002.JPG", PhotoFixtures.jpeg(width: 40, height: 30))
        try tree.write("root/trip/IMG_0002.MOV", Self.movie(seconds: 3.0))
        // Too long to be a Live Photo, and a MOV with no still: both stay in the timeline.
        try tree.write("root/IMG_0003.JPG", PhotoFixtures.jpeg(width: 40, height: 30))
        try tree.write("root/IMG_0003.MOV", Self.movie(seconds: 14))
        try tree.write("root/IMG_0004.MOV", Self.movie(seconds: 2))
        // Same stem but a second extension: not the same base name.
        try tree.write("root/IMG_0005.edit.jpg", PhotoFixtures.jpeg(width: 40, height: 30))
        try tree.write("root/IMG_0005.MOV", Self.movie(seconds: 2))
        let store = try LibraryStore(path: tree.path + "/index.sqlite", mode: .readWrite)
        try await index(tree.path + "/root", into: store)

        let rows = try photosByPath(store)
        #expect(rows["IMG_0001.MOV"]?.pairedWith?.string == "IMG_0001.HEIC")
        #expect(rows["IMG_0001.HEIC"]?.pairedWith?.string == "IMG_0001.MOV")
        #expect(rows["trip/IMG_0002.MOV"]?.pairedWith?.string == "trip/IMG_0002.JPG")
        for unpaired in ["IMG_0003.JPG", "IMG_0003.MOV", "IMG_0004.MOV", "IMG_0005.MOV", "IMG_0005.edit.jpg"] {
            #expect(rows[unpaired]?.pairedWith == nil, "\(unpaired)")
        }
        let shown = Set(try Self.moments(store))
        #expect(!shown.contains("IMG_0001.MOV"))
        #expect(!shown.contains("trip/IMG_0002.MOV"))
        #expect(shown.isSuperset(of: ["IMG_0001.HEIC", "trip/IMG_0002.JPG", "IMG_0003.MOV", "IMG_0004.MOV", "IMG_0005.MOV"]))
        #expect(shown.count == rows.count - 2)

        // The still goes away: the MOV is an ordinary video again on the next run.
        try FileManager.default.removeItem(atPath: tree.path + "/root/IMG_0001.HEIC")
        try await index(tree.path + "/root", into: store)
        #expect(try photosByPath(store)["IMG_0001.MOV"]?.pairedWith == nil)
        #expect(try Self.moments(store).contains("IMG_0001.MOV"))
    }

    @Test("A database written before videos were indexed re-reads the videos it had ignored")
    func migrationReReadsIgnoredVideos() async throws {
        let tree = try TemporaryDirectory()
        try tree.write("root/clip.mp4", Self.movie(seconds: 5, quickTime: false))
        try tree.write("root/photo.jpg", PhotoFixtures.jpeg(width: 8, height: 6))
        let path = tree.path + "/index.sqlite"
        do {
            let store = try LibraryStore(path: path, mode: .readWrite)
            try await index(tree.path + "/root", into: store)
        }
        // Turn it into a v1 database as the previous Shoebox left it: the video an ignored file
        // with its exact stamp, no video columns, no v2 migration.
        let queue = try DatabaseQueue(path: path)
        try await queue.write { db in
            try db.execute(sql: """
                -- and before the map (whose index covers these columns)
                DROP INDEX photo_on_map;
                DROP TABLE mapCell;
                DROP TABLE mapCellState;
                ALTER TABLE photo DROP COLUMN mapX;
                ALTER TABLE photo DROP COLUMN mapY;
                DELETE FROM grdb_migrations WHERE identifier = 'v10-map';
                INSERT INTO ignoredFile (path, fileSize, modified) SELECT path, fileSize, modified FROM photo WHERE mediaType = 'video';
                DELETE FROM photo WHERE mediaType = 'video';
                ALTER TABLE photo DROP COLUMN mediaType;
                ALTER TABLE photo DROP COLUMN duration;
                ALTER TABLE photo DROP COLUMN pairedWith;
                DELETE FROM grdb_migrations WHERE identifier = 'v2-videos';
                """)
        }
        try queue.close()

        // Read-only, before the migration: still readable.
        let old = try LibraryStore(path: path, mode: .readOnly)
        #expect(try old.photos().map(\.path.string) == ["photo.jpg"])
        #expect(try Self.moments(old) == ["photo.jpg"])

        let store = try LibraryStore(path: path, mode: .readWrite)
        let progress = try await index(tree.path + "/root", into: store)
        #expect(progress.added == 1)
        #expect(progress.unchanged == 1)
        let rows = try photosByPath(store)
        #expect(rows["clip.mp4"]?.mediaType == .video)
        #expect(rows["clip.mp4"]?.duration == 5)
        #expect(rows["photo.jpg"]?.mediaType == .photo)
    }
}
