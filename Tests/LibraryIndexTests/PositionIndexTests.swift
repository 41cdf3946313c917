import WallClock
import Foundation
import GRDB
@testable import LibraryIndex
import PhotoFixtures
import PhotoMetadata
import Testing

/// Positions and offset sources in the index: from the file, else from its sidecars; stored,
/// read back, and filled in for databases written before them.
@Suite("Position index")
struct PositionIndexTests {
    static func gpsFields(latitude: Double, longitude: Double, local: String = "2021:07:14 14:30:00") -> ExifFields {
        var fields = ExifFields(dateTimeOriginal: local)
        fields.setPosition(latitude: latitude, longitude: longitude)
        return fields
    }

    static func expectClose(_ position: GeoPosition?, _ latitude: Double, _ longitude: Double, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(position != nil, sourceLocation: sourceLocation)
        guard let position else { return }
        #expect(abs(position.latitude - latitude) < 1e-6, sourceLocation: sourceLocation)
        #expect(abs(position.longitude - longitude) < 1e-6, sourceLocation: sourceLocation)
    }

    static func writeTree(_ tree: TemporaryDirectory) throws {
        var timed = gpsFields(latitude: -33.856784, longitude: 151.215297)
        timed.gpsDateStamp = "2021:07:14"
        timed.gpsTimeStamp = [4, 30, 0]
        try tree.write("root/gps.jpg", PhotoFixtures.jpeg(width: 8, height: 8, exif: timed))
        // EXIF date with its own offset, no GPS: the XMP sidecar gives the position only.
        try tree.write("root/dated.jpg", PhotoFixtures.jpeg(width: 8, height: 8, exif: ExifFields(dateTimeOriginal: "2020:01:02 03:04:05", offsetTimeOriginal: "-05:00")))
        try tree.write("root/dated.jpg.xmp", Array(#"<x:xmpmeta><rdf:Description exif:DateTimeOriginal="2019-01-01T00:00:00" exif:GPSLatitude="41,24.5N" exif:GPSLongitude="2,10.25E"/></x:xmpmeta>"#.utf8))
        // No EXIF at all: date and position from Takeout.
        try tree.write("root/takeout.jpg", PhotoFixtures.jpeg(width: 8, height: 8))
        try tree.write("root/takeout.jpg.json", Array(#"{"photoTakenTime": {"timestamp": "1626273000"}, "geoData": {"latitude": 37.4219983, "longitude": -122.084, "altitude": 0.0}}"#.utf8))
        // The file's own GPS wins over its sidecar's.
        try tree.write("root/both.jpg", PhotoFixtures.jpeg(width: 8, height: 8, exif: gpsFields(latitude: 10, longitude: 20)))
        try tree.write("root/both.jpg.json", Array(#"{"geoData": {"latitude": 37.0, "longitude": -122.0}}"#.utf8))
        // A date from the file name and a GPS time stamp, no EXIF date.
        var stampOnly = ExifFields(make: "Shoebox")
        stampOnly.gpsDateStamp = "2019:01:01"
        stampOnly.gpsTimeStamp = [6, 30, 0]
        try tree.write("root/IMG_20190101_120000.jpg", PhotoFixtures.jpeg(width: 8, height: 8, exif: stampOnly))
        var movie = MovieFixture(width: 16, height: 8)
        movie.quickTime = true
        movie.userDataLocation = "+37.3349-122.0090+010.000/"
        try tree.write("root/clip.mov", movie.bytes)
        // 0/0 is no position.
        try tree.write("root/null-island.jpg", PhotoFixtures.jpeg(width: 8, height: 8, exif: gpsFields(latitude: 0, longitude: 0)))
    }

    @Test("On the map, a Takeout or XMP sidecar's position and a video's count like a photo's own")
    func sidecarAndVideoPositionsAreOnTheMap() async throws {
        let tree = try TemporaryDirectory()
        try Self.writeTree(tree)
        let store = try LibraryStore(path: tree.path + "/index.sqlite", mode: .readWrite)
        _ = try await index(tree.path + "/root", into: store)
        let rows = try photosByPath(store)
        let located = rows.values.filter { $0.position != nil }.count
        let world = try store.mapClusters(in: MapBox(west: -180, south: -85, east: 180, north: 85), zoom: 12)
        #expect(world.located == located && world.clusters.map(\.count).reduce(0, +) == located)
        /// The photos of the cluster nearest to a position, at zoom 12 (cells of about 10 km).
        func count(near latitude: Double, _ longitude: Double) throws -> Int {
            let box = MapBox(west: longitude - 0.02, south: latitude - 0.02, east: longitude + 0.02, north: latitude + 0.02)
            return try store.mapClusters(in: box, zoom: 12).clusters.map(\.count).reduce(0, +)
        }
        #expect(try count(near: 37.4219983, -122.084) == 1)  // takeout.jpg: Takeout JSON only
        #expect(try count(near: 41 + 24.5 / 60, 2 + 10.25 / 60) == 1)  // dated.jpg: XMP sidecar
        #expect(try count(near: 37.3349, -122.0090) == 1)  // clip.mov: a video's own position
        #expect(try count(near: 37.0, -122.0) == 0)  // both.jpg: its own GPS wins over its sidecar's
    }

    @Test("Positions from files and sidecars, offset sources, all stored and read back")
    func positionsAndOffsetSources() async throws {
        let tree = try TemporaryDirectory()
        try Self.writeTree(tree)
        let store = try LibraryStore(path: tree.path + "/index.sqlite", mode: .readWrite)
        let progress = try await index(tree.path + "/root", into: store)
        #expect(progress.failed == 0)
        let rows = try photosByPath(store)

        Self.expectClose(rows["gps.jpg"]?.position, -33.856784, 151.215297)
        #expect(rows["gps.jpg"]?.captureDate.offset == UTCOffset(seconds: 10 * 3600))
        #expect(rows["gps.jpg"]?.captureDate.offsetSource == .gpsTime)

        Self.expectClose(rows["dated.jpg"]?.position, 41 + 24.5 / 60, 2 + 10.25 / 60)
        // The sidecar wins (an editor's word): its date, which states no offset, so none is kept
        // from the file's other clock.
        #expect(rows["dated.jpg"]?.captureDate.source == .xmpSidecar)
        #expect(rows["dated.jpg"]?.captureDate.local.iso8601.prefix(19) == "2019-01-01T00:00:00")
        #expect(rows["dated.jpg"]?.captureDate.offsetSource == nil)

        Self.expectClose(rows["takeout.jpg"]?.position, 37.4219983, -122.084)
        #expect(rows["takeout.jpg"]?.captureDate.source == .takeoutJSON)
        #expect(rows["takeout.jpg"]?.captureDate.offsetSource == nil)

        Self.expectClose(rows["both.jpg"]?.position, 10, 20)
        #expect(rows["both.jpg"]?.captureDate.offsetSource == nil)

        #expect(rows["IMG_20190101_120000.jpg"]?.captureDate.source == .filename)
        #expect(rows["IMG_20190101_120000.jpg"]?.captureDate.offset == UTCOffset(seconds: 5 * 3600 + 1800))
        #expect(rows["IMG_20190101_120000.jpg"]?.captureDate.offsetSource == .gpsTime)
        #expect(rows["IMG_20190101_120000.jpg"]?.position == nil)

        Self.expectClose(rows["clip.mov"]?.position, 37.3349, -122.0090)
        #expect(rows["null-island.jpg"]?.position == nil)

        // Stored as the columns say.
        let queue = try DatabaseQueue(path: tree.path + "/index.sqlite")
        let stored = try queue.read { db in
            try Row.fetchOne(db, sql: "SELECT latitude, longitude, offsetSource FROM photo WHERE path = ?", arguments: [Data("gps.jpg".utf8)])
        }
        #expect((stored?["latitude"] as Double?).map { abs($0 + 33.856784) < 1e-6 } == true)
        #expect(stored?["offsetSource"] as String? == "gps-time")
        try queue.close()
    }

    @Test("A database written before positions migrates, stays readable read-only, and reads every file again")
    func migrationReReadsFiles() async throws {
        let tree = try TemporaryDirectory()
        try Self.writeTree(tree)
        let path = tree.path + "/index.sqlite"
        let count: Int
        do {
            let store = try LibraryStore(path: path, mode: .readWrite)
            try await index(tree.path + "/root", into: store)
            count = try store.photoCount()
        }
        // Turn it into a v3 database: no position columns, no v4 migration.
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
                ALTER TABLE photo DROP COLUMN latitude;
                ALTER TABLE photo DROP COLUMN longitude;
                ALTER TABLE photo DROP COLUMN offsetSource;
                DELETE FROM grdb_migrations WHERE identifier = 'v4-positions';
                """)
        }
        try queue.close()

        let old = try LibraryStore(path: path, mode: .readOnly)
        let before = try photosByPath(old)
        #expect(before.count == count)
        #expect(before.values.allSatisfy { $0.position == nil && $0.captureDate.offsetSource == nil })

        let store = try LibraryStore(path: path, mode: .readWrite)
        let progress = try await index(tree.path + "/root", into: store)
        #expect(progress.updated == count)
        #expect(progress.unchanged == 0)
        let rows = try photosByPath(store)
        Self.expectClose(rows["gps.jpg"]?.position, -33.856784, 151.215297)
        #expect(rows["gps.jpg"]?.captureDate.offsetSource == .gpsTime)

        // The run after is incremental again.
        let again = try await index(tree.path + "/root", into: store)
        #expect(again.unchanged == count)
        #expect(again.updated == 0)
    }

    @Test("A first index writes its rows without the map's index and builds it at its end, as the migrations define it; a later run keeps it")
    func firstIndexBuildsTheMapIndex() async throws {
        let tree = try TemporaryDirectory()
        try Self.writeTree(tree)
        let path = tree.path + "/index.sqlite"
        let store = try LibraryStore(path: path, mode: .readWrite)
        let definition = { () throws -> String? in
            try DatabaseQueue(path: path).read { db in
                try String.fetchOne(db, sql: "SELECT sql FROM sqlite_master WHERE name = 'photo_on_map'")
            }
        }
        let migrated = try #require(try definition())
        for _ in 0..<2 {
            for try await _ in try Indexer(root: tree.path + "/root", store: store, settings: .default).run() {}
            #expect(try definition() == migrated)
        }
        let plan = try await DatabaseQueue(path: path).read { db in
            try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN SELECT id FROM photo WHERE mapY IS NOT NULL AND mapY >= 0 AND mapY < 10")
                .map { $0["detail"] as String }
        }
        #expect(plan.contains { $0.contains("photo_on_map") }, "\(plan)")
    }

}
