import WallClock
import Foundation
import GRDB
import LibraryIndex
import PhotoFixtures
import PhotoMetadata
import Places
import Synchronization
import Testing

/// A few places whose names and zones the tests below know.
enum TestPlaces {
    static func entry(
        _ name: String, _ latitude: Double, _ longitude: Double, region: String?, country: String, countryName: String,
        zone: String, population: Int = 100_000
    ) -> PlaceTable.Entry {
        PlaceTable.Entry(
            name: name, latitude: latitude, longitude: longitude, population: population, region: region,
            countryCode: country, countryName: countryName, timeZone: zone)
    }

    static let entries: [PlaceTable.Entry] = [
        entry("Lisbon", 38.7223, -9.1393, region: "Lisbon", country: "PT", countryName: "Portugal", zone: "Europe/Lisbon"),
        entry("Sintra", 38.8029, -9.3817, region: "Lisbon", country: "PT", countryName: "Portugal", zone: "Europe/Lisbon"),
        entry("São Paulo", -23.5475, -46.6361, region: "São Paulo", country: "BR", countryName: "Brazil", zone: "America/Sao_Paulo"),
        // A half-hour zone with daylight saving in the southern summer.
        entry("Adelaide", -34.9287, 138.5986, region: "South Australia", country: "AU", countryName: "Australia", zone: "Australia/Adelaide"),
        entry("Kolkata", 22.5626, 88.3630, region: "West Bengal", country: "IN", countryName: "India", zone: "Asia/Kolkata"),
    ]

    static let table = PlaceTable(entries: entries, credit: "test")

    static let lisbon = (38.7139, -9.1394)
    static let sintra = (38.7990, -9.3880)
    static let saoPaulo = (-23.55, -46.63)
    static let adelaide = (-34.93, 138.60)

    static func jpeg(_ position: (Double, Double)?, local: String, offset: String? = nil, make: String? = nil, model: String? = nil) -> [UInt8] {
        var fields = ExifFields(dateTimeOriginal: local, offsetTimeOriginal: offset, make: make, model: model)
        if let position { fields.setPosition(latitude: position.0, longitude: position.1) }
        return PhotoFixtures.jpeg(width: 8, height: 8, exif: fields)
    }
}

@Suite("Places in the index")
struct PlaceIndexTests {
    @Test("A looked-up place is stored and written with the contract's four keys, absent ones as null")
    func encodesTheContractsFourKeysWithNulls() throws {
        let place = Place(city: nil, region: nil, country: "Brazil", countryCode: "BR",
                          timeZoneIdentifier: "America/Bahia", distanceKilometres: 40)
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let json = String(decoding: try encoder.encode(PhotoPlace(place)), as: UTF8.self)
        #expect(json == #"{"city":null,"country":"Brazil","countryCode":"BR","region":null}"#)
    }

    @Test("Each photo with a position gets the nearest place's names; one without gets none")
    func placesStored() async throws {
        let tree = try TemporaryDirectory()
        try tree.write("root/lisbon.jpg", TestPlaces.jpeg(TestPlaces.lisbon, local: "2025:03:08 10:00:00", offset: "+00:00"))
        try tree.write("root/sp.jpg", TestPlaces.jpeg(TestPlaces.saoPaulo, local: "2025:03:09 10:00:00", offset: "-03:00"))
        try tree.write("root/nowhere.jpg", TestPlaces.jpeg(nil, local: "2025:03:10 10:00:00"))
        // Far out at sea: no place at all.
        try tree.write("root/sea.jpg", TestPlaces.jpeg((0.5, -30.0), local: "2025:03:10 11:00:00"))
        let store = try LibraryStore(path: tree.path + "/index.sqlite", mode: .readWrite)
        try await index(tree.path + "/root", into: store, places: TestPlaces.table)
        let rows = try photosByPath(store)
        #expect(rows["lisbon.jpg"]?.place == PhotoPlace(city: "Lisbon", region: "Lisbon", country: "Portugal", countryCode: "PT"))
        #expect(rows["sp.jpg"]?.place?.city == "São Paulo")
        #expect(rows["sp.jpg"]?.place?.countryCode == "BR")
        #expect(rows["nowhere.jpg"]?.place == nil)
        #expect(rows["sea.jpg"]?.position != nil)
        #expect(rows["sea.jpg"]?.place == nil)
    }

    @Test("Without a table, positions are stored and no place or place offset is made up")
    func noTable() async throws {
        let tree = try TemporaryDirectory()
        try tree.write("root/lisbon.jpg", TestPlaces.jpeg(TestPlaces.lisbon, local: "2025:07:08 10:00:00"))
        let store = try LibraryStore(path: tree.path + "/index.sqlite", mode: .readWrite)
        try await index(tree.path + "/root", into: store, places: nil)
        let row = try #require(try photosByPath(store)["lisbon.jpg"])
        #expect(row.position != nil)
        #expect(row.place == nil)
        #expect(row.captureDate.offset == nil)
        #expect(row.captureDate.offsetSource == nil)
    }

    @Test("A date without an offset takes its place's zone at that date, daylight saving and half hours included",
          arguments: [
            // Lisbon: WET in winter, WEST in summer.
            ("lisbon-winter.jpg", TestPlaces.lisbon, "2025:01:15 12:00:00", 0),
            ("lisbon-summer.jpg", TestPlaces.lisbon, "2025:07:15 12:00:00", 3600),
            // Adelaide: +09:30 in the southern winter, +10:30 in its summer.
            ("adelaide-july.jpg", TestPlaces.adelaide, "2024:07:01 09:00:00", 9 * 3600 + 1800),
            ("adelaide-january.jpg", TestPlaces.adelaide, "2024:01:10 09:00:00", 10 * 3600 + 1800),
            // São Paulo: no daylight saving since 2019, -02:00 in the summer of 2018.
            ("sp-2024.jpg", TestPlaces.saoPaulo, "2024:01:10 09:00:00", -3 * 3600),
            ("sp-2018.jpg", TestPlaces.saoPaulo, "2018:01:10 09:00:00", -2 * 3600),
          ])
    func offsetFromPlace(name: String, position: (Double, Double), local: String, seconds: Int) async throws {
        let tree = try TemporaryDirectory()
        try tree.write("root/" + name, TestPlaces.jpeg(position, local: local))
        let store = try LibraryStore(path: tree.path + "/index.sqlite", mode: .readWrite)
        try await index(tree.path + "/root", into: store, places: TestPlaces.table)
        let row = try #require(try photosByPath(store)[name])
        #expect(row.captureDate.offset == UTCOffset(seconds: seconds))
        #expect(row.captureDate.offsetSource == .place)
    }

    @Test("An offset in the file wins, then the GPS time stamp, then the place")
    func offsetPrecedence() async throws {
        let tree = try TemporaryDirectory()
        try tree.write("root/exif.jpg", TestPlaces.jpeg(TestPlaces.lisbon, local: "2025:07:15 12:00:00", offset: "+05:00"))
        var fields = ExifFields(dateTimeOriginal: "2025:07:15 12:00:00")
        fields.setPosition(latitude: TestPlaces.lisbon.0, longitude: TestPlaces.lisbon.1)
        fields.gpsDateStamp = "2025:07:15"
        fields.gpsTimeStamp = [9, 0, 0]
        try tree.write("root/gps.jpg", PhotoFixtures.jpeg(width: 8, height: 8, exif: fields))
        let store = try LibraryStore(path: tree.path + "/index.sqlite", mode: .readWrite)
        try await index(tree.path + "/root", into: store, places: TestPlaces.table)
        let rows = try photosByPath(store)
        #expect(rows["exif.jpg"]?.captureDate.offset == UTCOffset(seconds: 5 * 3600))
        #expect(rows["exif.jpg"]?.captureDate.offsetSource == .exif)
        #expect(rows["gps.jpg"]?.captureDate.offset == UTCOffset(seconds: 3 * 3600))
        #expect(rows["gps.jpg"]?.captureDate.offsetSource == .gpsTime)
        #expect(rows["gps.jpg"]?.place?.city == "Lisbon")
    }
}

@Suite("Places table loaded when needed")
struct LazyPlaceTableTests {
    static func index(_ root: String, into store: LibraryStore, places: LazyPlaceTable) async throws {
        for try await _ in try Indexer(root: root, store: store, places: places).run() {}
    }

    @Test("An index of photos without positions never loads the table; the first photo with one loads it, once")
    func loadedOnDemand() async throws {
        let tree = try TemporaryDirectory()
        for day in 1...9 { try tree.write("root/plain-\(day).jpg", TestPlaces.jpeg(nil, local: "2025:03:0\(day) 10:00:00")) }
        let store = try LibraryStore(path: tree.path + "/index.sqlite", mode: .readWrite)
        let places = LazyPlaceTable(loading: { TestPlaces.table })
        try await Self.index(tree.path + "/root", into: store, places: places)
        #expect(places.loadAttempts == 0)
        // Many photos with a position, read on several threads: one load.
        for day in 1...9 { try tree.write("root/lisbon-\(day).jpg", TestPlaces.jpeg(TestPlaces.lisbon, local: "2025:04:0\(day) 10:00:00")) }
        try await Self.index(tree.path + "/root", into: store, places: places)
        #expect(places.loadAttempts == 1)
        #expect(try photosByPath(store)["lisbon-5.jpg"]?.place?.city == "Lisbon")
    }

    @Test("A table loaded ahead of need keeps a failure to itself until it is asked for, then reports it once")
    func preloadHoldsItsFailure() {
        let reports = Mutex<[String]>([])
        let failing = LazyPlaceTable(
            loading: { () throws(PlaceTableError) -> PlaceTable in throw PlaceTableError(.missing, "no table here") },
            onFailure: { error in reports.withLock { $0.append(error.message) } })
        failing.preloadInBackground()
        #expect(failing.waitUntilSettled(timeout: 20))
        #expect(reports.withLock { $0 }.isEmpty, "nothing said before a photo needs the table")
        #expect(failing.table == nil)
        #expect(failing.table == nil)
        #expect(reports.withLock { $0 } == ["no table here"])
        #expect(failing.loadAttempts == 1)

        let loading = LazyPlaceTable(loading: { TestPlaces.table })
        loading.preloadInBackground()
        #expect(loading.table?.nearest(latitude: TestPlaces.lisbon.0, longitude: TestPlaces.lisbon.1)?.city == "Lisbon")
        #expect(loading.loadAttempts == 1)
    }

    @Test("Readers read on while the table loads on a thread of its own, then name every photo that waited")
    func readersReadOnWhileTheTableLoads() async throws {
        let tree = try TemporaryDirectory()
        // Each folder mixes photos with and without a position: a reader that waited for the table
        // at its first photo with one would leave the others of its folder unread.
        for day in 1...9 {
            try tree.write("root/d\(day)/lisbon.jpg", TestPlaces.jpeg(TestPlaces.lisbon, local: "2025:07:0\(day) 12:00:00"))
            try tree.write("root/d\(day)/adelaide.jpg", TestPlaces.jpeg(TestPlaces.adelaide, local: "2024:07:0\(day) 09:00:00"))
            for n in 1...3 { try tree.write("root/d\(day)/plain-\(n).jpg", TestPlaces.jpeg(nil, local: "2025:03:0\(day) 10:00:00")) }
        }
        let total = 45, plain = 27
        let database = tree.path + "/index.sqlite"
        let store = try LibraryStore(path: database, mode: .readWrite)
        // The load ends only once every photo without a position is in the database (looked at
        // from this loader, not from the run's progress, which a busy machine may deliver late).
        let sawEveryPlainPhotoWritten = Atomic<Bool>(false)
        let places = LazyPlaceTable(loading: {
            var configuration = Configuration()
            configuration.readonly = true
            let deadline = ContinuousClock.now + .seconds(60)
            var written = 0
            while written < plain && ContinuousClock.now < deadline {
                Thread.sleep(forTimeInterval: 0.01)
                written = (try? DatabaseQueue(path: database, configuration: configuration).read { db in
                    try Int.fetchOne(db, sql: "SELECT count(*) FROM photo WHERE latitude IS NULL")
                }) ?? 0
            }
            sawEveryPlainPhotoWritten.store(written >= plain, ordering: .relaxed)
            return TestPlaces.table
        })
        var last = IndexProgress()
        for try await progress in try Indexer(root: tree.path + "/root", store: store, places: places).run() { last = progress }
        let loadWaitedForReaders = sawEveryPlainPhotoWritten.load(ordering: .relaxed)
        #expect(loadWaitedForReaders, "every photo without a position was read and written while the table loaded")
        #expect(last.added == total && places.loadAttempts == 1)
        let rows = try photosByPath(store)
        #expect(rows.count == total)
        for day in 1...9 {
            #expect(rows["d\(day)/lisbon.jpg"]?.place?.city == "Lisbon")
            #expect(rows["d\(day)/lisbon.jpg"]?.captureDate.offset == UTCOffset(seconds: 3600))
            #expect(rows["d\(day)/adelaide.jpg"]?.place?.country == "Australia")
            #expect(rows["d\(day)/adelaide.jpg"]?.captureDate.offsetSource == .place)
            #expect(rows["d\(day)/plain-1.jpg"]?.place == nil)
        }
        let pending = try await DatabaseQueue(path: database).read { db in
            try Int.fetchOne(db, sql: "SELECT count(*) FROM photo WHERE placePending = 1")
        }
        #expect(pending == 0)
        #expect(try store.photoIDs(matching: SearchQuery("australia")).count == 9)
    }

    @Test("A run stopped while the table loads does not wait for it: its photos are named by the next run")
    func stoppedWhileTheTableLoads() async throws {
        let tree = try TemporaryDirectory()
        for day in 1...9 { try tree.write("root/lisbon-\(day).jpg", TestPlaces.jpeg(TestPlaces.lisbon, local: "2025:07:0\(day) 12:00:00")) }
        let store = try LibraryStore(path: tree.path + "/index.sqlite", mode: .readWrite)
        // The load stops the run as it starts (the first photo with a position asked for the
        // table), then lasts until the test is done with the run (at most 120 s). Whether the run
        // waited is told by the table itself, not by a clock: a busy machine may resume this test
        // late, but it cannot settle a table still loading.
        let released = Atomic<Bool>(false)
        let run = Mutex<IndexRun?>(nil)
        let places = LazyPlaceTable(loading: {
            run.withLock { $0?.stop() }
            let deadline = ContinuousClock.now + .seconds(120)
            while !released.load(ordering: .relaxed) && ContinuousClock.now < deadline { Thread.sleep(forTimeInterval: 0.01) }
            return TestPlaces.table
        })
        let indexRun = try Indexer(root: tree.path + "/root", store: store, places: places).run()
        run.withLock { $0 = indexRun }
        var last = IndexProgress()
        for try await progress in indexRun { last = progress }
        let settledBeforeTheRunEnded = places.isSettled
        released.store(true, ordering: .relaxed)
        #expect(!settledBeforeTheRunEnded, "the stopped run ended while the table was still loading")
        #expect(places.loadAttempts == 1)
        #expect(last.phase == .stopped)
        let stored = try photosByPath(store)
        #expect(!stored.isEmpty, "the photos read before the stop were stored")
        #expect(stored.values.allSatisfy { $0.place == nil && $0.position != nil })

        try await Self.index(tree.path + "/root", into: store, places: LazyPlaceTable(loading: { TestPlaces.table }))
        let named = try photosByPath(store)
        #expect(named.count == 9)
        #expect(named.values.allSatisfy { $0.place?.city == "Lisbon" && $0.captureDate.offsetSource == .place })
    }

    @Test("A missing table is reported once, when a photo needs a place, and not looked for again")
    func missingReportedOnce() async throws {
        let tree = try TemporaryDirectory()
        for day in 1...9 { try tree.write("root/lisbon-\(day).jpg", TestPlaces.jpeg(TestPlaces.lisbon, local: "2025:04:0\(day) 10:00:00")) }
        let store = try LibraryStore(path: tree.path + "/index.sqlite", mode: .readWrite)
        let reports = Mutex<[String]>([])
        let places = LazyPlaceTable(
            loading: { () throws(PlaceTableError) -> PlaceTable in throw PlaceTableError(.missing, "No places table here.") },
            onFailure: { error in reports.withLock { $0.append(error.message) } })
        try await Self.index(tree.path + "/root", into: store, places: places)
        #expect(places.loadAttempts == 1)
        #expect(reports.withLock { $0 } == ["No places table here."])
        #expect(try photosByPath(store)["lisbon-1.jpg"]?.place == nil)
    }
}

@Suite("Places named later")
struct PendingPlacesTests {
    @Test("After a first index killed before its search index, a run with a table names the waiting photos and builds the whole search index")
    func namedAfterAKilledFirstIndex() async throws {
        let tree = try TemporaryDirectory()
        try tree.write("root/lisbon.jpg", TestPlaces.jpeg(TestPlaces.lisbon, local: "2025:07:15 12:00:00"))
        try tree.write("root/plain.jpg", TestPlaces.jpeg(nil, local: "2025:07:17 12:00:00", make: "Canon"))
        let database = tree.path + "/index.sqlite"
        let store = try LibraryStore(path: database, mode: .readWrite)
        try await index(tree.path + "/root", into: store, places: nil)
        // What a first index killed after its rows and before its end leaves: the search index
        // waiting for its rebuild, and the photo read without a table waiting for its place.
        try await DatabaseQueue(path: database).write { db in
            try db.execute(sql: """
                INSERT INTO searchDeferred (id) VALUES (1);
                INSERT INTO photoSearch (photoSearch) VALUES ('delete-all');
                """)
        }
        let places = LazyPlaceTable(loading: { TestPlaces.table })
        for try await _ in try Indexer(root: tree.path + "/root", store: store, places: places).run() {}
        #expect(try photosByPath(store)["lisbon.jpg"]?.place?.city == "Lisbon")
        #expect(try store.photoIDs(matching: SearchQuery("portugal")).count == 1)
        #expect(try store.photoIDs(matching: SearchQuery("canon")).count == 1)
        #expect(try store.photoIDs(matching: SearchQuery("2025")).count == 2)
    }

    @Test("Photos indexed without a table get their places and place offsets from the next run that has one, without reading the files again")
    func namedWhenTheTableArrives() async throws {
        let tree = try TemporaryDirectory()
        try tree.write("root/lisbon-summer.jpg", TestPlaces.jpeg(TestPlaces.lisbon, local: "2025:07:15 12:00:00"))
        try tree.write("root/adelaide.jpg", TestPlaces.jpeg(TestPlaces.adelaide, local: "2024:07:01 09:00:00"))
        try tree.write("root/exif-offset.jpg", TestPlaces.jpeg(TestPlaces.saoPaulo, local: "2025:07:15 12:00:00", offset: "+05:00"))
        try tree.write("root/sea.jpg", TestPlaces.jpeg((0.5, -30.0), local: "2025:07:16 12:00:00"))
        try tree.write("root/plain.jpg", TestPlaces.jpeg(nil, local: "2025:07:17 12:00:00"))
        let store = try LibraryStore(path: tree.path + "/index.sqlite", mode: .readWrite)
        try await index(tree.path + "/root", into: store, places: nil)
        var rows = try photosByPath(store)
        #expect(rows.values.allSatisfy { $0.place == nil })
        #expect(rows["lisbon-summer.jpg"]?.captureDate.offset == nil)
        #expect(try store.photoIDs(matching: SearchQuery("portugal")).isEmpty)

        let places = LazyPlaceTable(loading: { TestPlaces.table })
        var last = IndexProgress()
        for try await progress in try Indexer(root: tree.path + "/root", store: store, places: places).run() { last = progress }
        #expect(last.opened == 0, "no file is read again")
        #expect(last.updated == 0)
        #expect(places.loadAttempts == 1)
        rows = try photosByPath(store)
        #expect(rows["lisbon-summer.jpg"]?.place == PhotoPlace(city: "Lisbon", region: "Lisbon", country: "Portugal", countryCode: "PT"))
        #expect(rows["lisbon-summer.jpg"]?.captureDate.offset == UTCOffset(seconds: 3600))
        #expect(rows["lisbon-summer.jpg"]?.captureDate.offsetSource == .place)
        #expect(rows["adelaide.jpg"]?.captureDate.offset == UTCOffset(seconds: 9 * 3600 + 1800))
        // The file's own offset still wins.
        #expect(rows["exif-offset.jpg"]?.place?.city == "São Paulo")
        #expect(rows["exif-offset.jpg"]?.captureDate.offset == UTCOffset(seconds: 5 * 3600))
        #expect(rows["exif-offset.jpg"]?.captureDate.offsetSource == .exif)
        #expect(rows["sea.jpg"]?.place == nil)
        #expect(rows["plain.jpg"]?.place == nil)
        // The search index follows.
        #expect(try store.photoIDs(matching: SearchQuery("portugal")).count == 1)

        // Nothing is pending any more (the photo at sea was looked up): the next run loads no table.
        let later = LazyPlaceTable(loading: { TestPlaces.table })
        for try await _ in try Indexer(root: tree.path + "/root", store: store, places: later).run() {}
        #expect(later.loadAttempts == 0)
    }
}
