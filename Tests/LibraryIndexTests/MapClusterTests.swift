import Foundation
import GRDB
@testable import LibraryIndex
import PhotoFixtures
import PhotoMetadata
import Testing
import WallClock

/// The map's cells and clusters: the stored Web-Mercator cell of each position, the counts kept per
/// cell at a few zooms, and the clusters of a box, at the poles, across the antimeridian, for one
/// photo and for twelve thousand at one spot.
@Suite("Map cells and clusters")
struct MapClusterTests {
    /// A store of `positions` (nil: a photo without one), one photo each, written as one completed run.
    static func store(_ positions: [(Double, Double)?], videos: Set<Int> = [], in folder: TemporaryDirectory) throws -> LibraryStore {
        let store = try LibraryStore(path: folder.path + "/index.sqlite", mode: .readWrite)
        let photos = positions.enumerated().map { n, position in
            IndexedPhoto(
                path: RelativePath(String(format: "p/%06d.%@", n, videos.contains(n) ? "mp4" : "jpg")), fileSize: 1000, modificationTime: 0,
                format: videos.contains(n) ? .mp4 : .jpeg,
                captureDate: CaptureDate(local: LocalDateTime(year: 2024, month: 1 + n % 12, day: 1 + n % 28, hour: 12, minute: 0, second: n % 60), offset: nil, source: .dateTimeOriginal),
                mediaType: videos.contains(n) ? .video : .photo, duration: videos.contains(n) ? 3 : nil,
                position: position.flatMap { GeoPosition(latitude: $0.0, longitude: $0.1) })
        }
        try store.insertSynthetic(photos, root: "/synthetic/map")
        return store
    }

    /// The clusters from the stored counts and straight from the photos, which must agree.
    static func both(_ store: LibraryStore, _ box: MapBox, zoom: Int) throws -> [MapCluster] {
        let stored = try store.mapClusters(in: box, zoom: zoom).clusters
        let direct = try store.read { db in try LibraryStore.clusters(db, box: box, zoom: zoom, level: nil) }
        #expect(stored.map(\.count) == direct.map(\.count), "zoom \(zoom)")
        #expect(stored.map { [$0.x, $0.y] } == direct.map { [$0.x, $0.y] }, "zoom \(zoom)")
        for (a, b) in zip(stored, direct) {
            #expect(abs(a.latitude - b.latitude) < 1e-9 && abs(a.longitude - b.longitude) < 1e-9)
            #expect(a.cover == b.cover)
        }
        return stored
    }

    static let world = MapBox(west: -180, south: -90, east: 180, north: 90)

    @Test("Cells: the edges of the world, the poles and the antimeridian land in the first and last cells")
    func cells() {
        #expect(MapGrid.x(longitude: -180) == 0)
        #expect(MapGrid.x(longitude: 180) == (1 << 20) - 1)
        #expect(MapGrid.x(longitude: 0) == 1 << 19)
        #expect(MapGrid.y(latitude: 90) == 0 && MapGrid.y(latitude: 89.9) == 0)
        #expect(MapGrid.y(latitude: -90) == (1 << 20) - 1)
        #expect(MapGrid.y(latitude: 0) == 1 << 19)
        #expect(MapGrid.y(latitude: 0, zoom: 0) == 0 && MapGrid.x(longitude: 179.99, zoom: 0) == 0)
        // A cell's box, printed and read back, holds that cell's own positions and no other's.
        for (x, y, zoom) in [(0, 0, 3), (7, 7, 3), (1234, 4321, 13), (5, 2, 4)] {
            let box = MapGrid.box(x: x, y: y, zoom: zoom)
            let read = try? MapBox.parse(box.text).get()
            #expect(read == box)
            #expect(box.storedColumns == [x << (20 - zoom)..<(x + 1) << (20 - zoom)])
            #expect(box.storedRows == y << (20 - zoom)..<(y + 1) << (20 - zoom))
        }
    }

    @Test("Bad boxes are refused with a sentence naming what is wrong")
    func badBoxes() {
        for (text, words) in [("10,50,5,40", "reversed"), ("-181,0,0,1", "-180 to 180"), ("0,-91,1,1", "-90 to 90"),
                              ("a,b,c,d", "four decimal"), ("1,2,3", "four decimal"), ("", "four decimal"),
                              ("nan,0,1,1", "four decimal"), ("1e3,0,1,1", "four decimal"), ("0x10,0,1,1", "four decimal"),
                              (" 10,35,15,44", "four decimal"), ("+10,35,15,44", "four decimal"), ("10,035,15,44", "four decimal")] {
            switch MapBox.parse(text) {
            case .success(let box): Issue.record("\(text) was read as \(box)")
            case .failure(let error): #expect(error.message.contains(words), "\(text): \(error.message)")
            }
        }
        #expect((try? MapBox.parse("170,-10,-170,10").get())?.crossesAntimeridian == true)
    }

    @Test("One photo: one cluster at every zoom, at its position, whose cell's box holds exactly it")
    func onePhoto() throws {
        let folder = try TemporaryDirectory()
        let store = try Self.store([(38.7223, -9.1393), nil], in: folder)
        for zoom in MapGrid.zooms {
            let clusters = try Self.both(store, Self.world.cellCount(zoom: zoom) <= 4096 ? Self.world
                : MapBox(west: -9.2, south: 38.7, east: -9.1, north: 38.8), zoom: zoom)
            #expect(clusters.count == 1, "zoom \(zoom)")
            #expect(clusters.first?.count == 1)
            #expect(abs((clusters.first?.latitude ?? 0) - 38.7223) < 1e-9)
            let cell = MapGrid.box(x: clusters[0].x, y: clusters[0].y, zoom: zoom)
            #expect(try store.photoIDs(in: cell) == [1], "zoom \(zoom)")
        }
        let all = try store.mapClusters(in: Self.world, zoom: 2)
        #expect(all.located == 1 && all.unlocated == 1)
    }

    @Test("12,000 photos at one spot: one cluster of 12,000 at every zoom, from the counts as from the photos")
    func oneSpot() throws {
        let folder = try TemporaryDirectory()
        let store = try Self.store(Array(repeating: (35.0211, 135.7538), count: 12_000), in: folder)
        let near = MapBox(west: 135.7, south: 35.0, east: 135.8, north: 35.1)
        for zoom in MapGrid.zooms {
            let clusters = try Self.both(store, near, zoom: zoom)
            #expect(clusters.map(\.count) == [12_000], "zoom \(zoom)")
            #expect(abs(clusters[0].longitude - 135.7538) < 1e-9)
            #expect(clusters[0].cover == 1)
        }
        #expect(try store.photoIDs(in: near).count == 12_000)
    }

    @Test("The poles and the antimeridian: a box across it holds both sides, the clusters add up to every photo")
    func polesAndAntimeridian() throws {
        let folder = try TemporaryDirectory()
        // Fiji on both sides of 180°, the poles, Null Island's neighbour, a video and a photo without a position.
        let positions: [(Double, Double)?] = [(-17.8, 178.4), (-16.5, -179.9), (-16.6, 179.99), (90, 0), (-90, 45),
                                              (89.99, -120), (-85.2, 179.5), (0.001, 0.001), (51.5, -0.12), nil]
        let store = try Self.store(positions, videos: [8], in: folder)
        let fiji = try MapBox.parse("175,-20,-175,-10").get()
        for zoom in 0...12 {
            let clusters = try Self.both(store, fiji, zoom: zoom)
            #expect(clusters.reduce(0) { $0 + $1.count } >= 3, "zoom \(zoom)")
        }
        // At zoom 12 the box's cells hold only Fiji's three, on both sides of the line.
        let close = try store.mapClusters(in: fiji, zoom: 12)
        #expect(close.total == 3)
        #expect(Set(close.clusters.map { $0.longitude > 0 }) == [true, false])
        #expect(try store.photoIDs(in: fiji) == [1, 2, 3])
        // The whole world at every zoom up to 6: every photo with a position, the poles included.
        for zoom in 0...6 {
            let world = try Self.both(store, Self.world, zoom: zoom)
            #expect(world.reduce(0) { $0 + $1.count } == 9, "zoom \(zoom)")
        }
        let north = try store.mapClusters(in: MapBox(west: -180, south: 85, east: 180, north: 90), zoom: 4)
        #expect(north.total == 2)  // the pole itself and 89.99°, in the top row
        let south = try store.mapClusters(in: MapBox(west: -180, south: -90, east: 180, north: -85.1), zoom: 4)
        #expect(south.total == 2)
        let counts = try store.mapClusters(in: Self.world, zoom: 0)
        #expect(counts.located == 9 && counts.unlocated == 1)
        #expect(counts.clusters.map(\.count) == [9])  // the video counts like a photo
    }

    @Test("Every level is stored; a cluster's cover is its first photo that could be read, at every zoom, from the counts as from the photos")
    func coversPreferReadablePhotos() throws {
        let folder = try TemporaryDirectory()
        let store = try LibraryStore(path: folder.path + "/index.sqlite", mode: .readWrite)
        // Inserted in this order: a damaged photo first (the smallest id), in a cell of its own at
        // zooms 12 to 18, then two readable ones a kilometre away, and one damaged photo alone.
        let positions = [(38.7000, -9.1400), (38.7100, -9.1400), (38.7101, -9.1401), (35.0, 135.7)]
        let photos = positions.enumerated().map { n, position in
            IndexedPhoto(
                path: RelativePath("p/\(n).jpg"), fileSize: 1000, modificationTime: 0, format: .jpeg,
                captureDate: CaptureDate(local: LocalDateTime(year: 2024, month: 3, day: 1 + n, hour: 12, minute: 0, second: 0), offset: nil, source: .dateTimeOriginal),
                error: n == 0 || n == 3 ? "The file is damaged." : nil,
                position: GeoPosition(latitude: position.0, longitude: position.1))
        }
        try store.insertSynthetic(photos, root: "/synthetic/map")
        let levels = try store.read { db in try Int.fetchAll(db, sql: "SELECT DISTINCT level FROM mapCell ORDER BY level") }
        #expect(levels == LibraryStore.mapLevels.sorted())
        let ids = try store.read { db in try Int64.fetchAll(db, sql: "SELECT id FROM photo ORDER BY path") }
        let lisbon = MapBox(west: -9.2, south: 38.6, east: -9.0, north: 38.8)
        for zoom in 0...18 {
            let clusters = try Self.both(store, lisbon, zoom: zoom)
            // Wherever the damaged photo shares a cluster with a readable one, the readable one shows.
            for cluster in clusters where cluster.count > 1 { #expect(cluster.cover == ids[1], "zoom \(zoom)") }
            // (At zoom 0 the box's one cell is the world, Kyoto's photo with them.)
            #expect(clusters.map(\.count).reduce(0, +) == (zoom == 0 ? 4 : 3), "zoom \(zoom)")
        }
        // A cluster of damaged photos alone shows the first of them.
        #expect(try Self.both(store, Self.world, zoom: 2).first { $0.longitude > 100 }?.cover == ids[3])
    }

    @Test("The queries read indexes: the stored counts by their key, the photos by photo_on_map")
    func queryPlans() throws {
        let folder = try TemporaryDirectory()
        let store = try Self.store([(38.7, -9.1), (35.0, 135.7)], in: folder)
        let box = try MapBox.parse("-20,30,20,50").get()
        for zoom in [0, 5, 12, 16] {
            let plan = try store.mapQueryPlan(box: box, zoom: zoom, stored: true).joined(separator: "; ")
            #expect(plan.contains("SEARCH mapCell USING PRIMARY KEY"), "\(plan)")
        }
        for zoom in [17, 20] {
            let plan = try store.mapQueryPlan(box: try MapBox.parse("-9.2,38.6,-9.0,38.8").get(), zoom: zoom, stored: false).joined(separator: "; ")
            #expect(plan.contains("USING INDEX photo_on_map") || plan.contains("USING COVERING INDEX photo_on_map"), "\(plan)")
            #expect(!plan.contains("SCAN photo"), "\(plan)")
        }
    }
}
