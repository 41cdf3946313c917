import Foundation
@testable import Places
import Testing

@Suite("The table file: load, errors, where it is looked for")
struct PlaceTableFileTests {
    /// A fresh temporary folder, removed when `body` returns.
    func withTemporaryFolder(_ body: (String) throws -> Void) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("places-tests-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try body(folder)
    }

    @Test func aWrittenTableLoadsAndAnswersLikeTheOneInMemory() throws {
        try withTemporaryFolder { folder in
            let path = folder + "/places.bin"
            let bytes = PlaceTable.encode(SyntheticPlaces.world, credit: "GeoNames, CC BY 4.0")
            #expect(FileManager.default.createFile(atPath: path, contents: Data(bytes)))
            let loaded = try PlaceTable.load(path: path)
            let memory = PlaceTable(entries: SyntheticPlaces.world)
            #expect(loaded.count == SyntheticPlaces.world.count)
            #expect(loaded.credit == "GeoNames, CC BY 4.0")
            for entry in SyntheticPlaces.world {
                let a = loaded.nearest(latitude: entry.latitude, longitude: entry.longitude)
                let b = memory.nearest(latitude: entry.latitude, longitude: entry.longitude)
                #expect(a?.city == b?.city && a?.region == b?.region && a?.country == b?.country
                        && a?.countryCode == b?.countryCode && a?.timeZoneIdentifier == b?.timeZoneIdentifier)
            }
            let sydney = try #require(loaded.nearest(latitude: -33.8688, longitude: 151.2093))
            #expect(sydney.city == "Harbour City" && sydney.region == "New South Wales" && sydney.country == "Australia")
            #expect(sydney.timeZoneIdentifier == "Australia/Sydney")
            #expect(loaded.nearest(latitude: -16.90, longitude: -179.91)?.region == nil)
            #expect(loaded.nearest(latitude: 42.06, longitude: 2.0)?.city == "Frontière")
        }
    }

    @Test func aMissingTableSaysSo() throws {
        try withTemporaryFolder { folder in
            let error = #expect(throws: PlaceTableError.self) { try PlaceTable.load(path: folder + "/places.bin") }
            #expect(error?.code == .missing)
            #expect(error?.message.contains(folder + "/places.bin") == true)
            // A folder where the file should be is missing too, not a crash.
            #expect((#expect(throws: PlaceTableError.self) { try PlaceTable.load(path: folder) })?.code == .missing)
        }
    }

    static let good = PlaceTable.encode(SyntheticPlaces.world, credit: "credit")

    /// Damaged copies of a good table, each of which must be refused.
    static let damaged: [(String, [UInt8])] = {
        var badMagic = good
        badMagic[7] = UInt8(ascii: "9")
        var badLatitude = good
        // The first place's latitude: the place records end where the axes (one byte each, padded to
        // 4) begin.
        let places = SyntheticPlaces.world.count
        let vectors = good.count - places * 24, axes = vectors - (places + 3) / 4 * 4
        let firstPlace = axes - places * 24
        var badAxis = good
        badAxis[axes + places / 2] = 3
        // The middle place's vector made twice as long: not a unit vector.
        var badVector = good
        let x = vectors + places / 2 * 24
        let doubled = (2 * Double(bitPattern: good[x..<x + 8].reversed().reduce(0) { $0 << 8 | UInt64($1) })).bitPattern.littleEndian
        withUnsafeBytes(of: doubled) { badVector.replaceSubrange(x..<x + 8, with: $0) }
        badLatitude.replaceSubrange(firstPlace..<firstPlace + 4, with: [0x00, 0x00, 0x00, 0x7F])
        var badCountry = good
        badCountry.replaceSubrange(firstPlace + 20..<firstPlace + 22, with: [0xFF, 0x00])
        var badCount = good
        badCount[8] &+= 1
        return [
            ("empty", []),
            ("header only", Array(good.prefix(40))),
            ("cut short", Array(good.dropLast(3))),
            ("one byte too many", good + [0]),
            ("wrong magic", badMagic),
            ("latitude out of range", badLatitude),
            ("country index out of range", badCountry),
            ("place count too large", badCount),
            ("split axis out of range", badAxis),
            ("not a unit vector", badVector),
            ("an older table's magic on a tree-ordered table", Array("SHBXPLC1".utf8) + good.dropFirst(8)),
            ("the table before vectors' magic on a table with them", Array("SHBXPLC2".utf8) + good.dropFirst(8)),
        ]
    }()

    @Test(arguments: damaged)
    func aDamagedTableIsRefused(name: String, bytes: [UInt8]) throws {
        try withTemporaryFolder { folder in
            let path = folder + "/places.bin"
            #expect(FileManager.default.createFile(atPath: path, contents: Data(bytes)))
            let error = #expect(throws: PlaceTableError.self, "\(name)") { try PlaceTable.load(path: path) }
            #expect(error?.code == .malformed)
        }
    }

    /// The set-up writes the places in k-d tree order with each node's axis and unit vector, so a
    /// load reads the index instead of building it; the index read must be a valid tree and answer
    /// as one built from an older set-up's files, with or without the stored vectors.
    @Test func aTreeOrderedTableIsAValidTreeAndOlderTablesStillLoad() throws {
        // 3,000 seeded places (deep enough for many levels of nodes), a few on the same spot.
        var state: UInt64 = 0x5EED
        func unit() -> Double {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Double(state >> 11) / Double(1 << 53)
        }
        let places = (0..<3_000).map { i in
            SyntheticPlaces.entry(
                i % 500 == 0 ? "Same spot" : "P\(i)", i % 500 == 0 ? 10 : asin(2 * unit() - 1) * 180 / .pi, i % 500 == 0 ? 20 : 360 * unit() - 180,
                population: Int(unit() * 100_000))
        }
        try withTemporaryFolder { folder in
            func loaded(_ layout: PlaceTable.FileLayout) throws -> PlaceTable {
                let path = folder + "/\(layout).bin"
                #expect(FileManager.default.createFile(atPath: path, contents: Data(PlaceTable.encode(places, credit: "c", layout: layout))))
                return try PlaceTable.load(path: path)
            }
            let read = try loaded(.treeOrderedWithVectors), computed = try loaded(.treeOrdered), built = try loaded(.unordered)
            #expect(read.tree._checkInvariants())
            #expect(built.tree._checkInvariants())
            #expect(read.count == built.count && computed.count == built.count)
            #expect(read.tree.points == computed.tree.points, "stored vectors are the ones a load would compute")
            var probes = 0
            for latitude in stride(from: -89.5, through: 89.5, by: 7.0) {
                for longitude in stride(from: -179.5, through: 179.5, by: 11.0) {
                    let b = built.nearest(latitude: latitude, longitude: longitude)
                    for a in [read.nearest(latitude: latitude, longitude: longitude), computed.nearest(latitude: latitude, longitude: longitude)] {
                        #expect(a?.city == b?.city && a?.country == b?.country && a?.timeZoneIdentifier == b?.timeZoneIdentifier,
                                "at \(latitude), \(longitude)")
                    }
                    probes += 1
                }
            }
            #expect(probes > 500)
        }
    }

    @Test("A named place's position is the micro-degrees the file stores, exactly, whatever the unit vector rounds to")
    func namedPlacesKeepTheStoredMicroDegrees() throws {
        let entries = [SyntheticPlaces.entry("Alfama", 38.72509, -9.150019), SyntheticPlaces.entry("Sé", -33.868, 151.209)]
        try withTemporaryFolder { folder in
            let path = folder + "/places.bin"
            #expect(FileManager.default.createFile(atPath: path, contents: Data(PlaceTable.encode(entries, credit: "c"))))
            let table = try PlaceTable.load(path: path)
            for entry in entries {
                let place = try #require(table.places(named: entry.name).first)
                #expect(place.latitude == entry.latitude && place.longitude == entry.longitude, "\(place.latitude), \(place.longitude)")
            }
        }
    }

    @Test func theGoodTableItselfLoads() throws {
        try withTemporaryFolder { folder in
            let path = folder + "/places.bin"
            #expect(FileManager.default.createFile(atPath: path, contents: Data(Self.good)))
            let table = try PlaceTable.load(path: path)
            #expect(table.count == SyntheticPlaces.world.count)
        }
    }

    @Test func installedPathsInOrder() {
        #expect(PlaceTable.installedPaths(environment: ["SHOEBOX_PLACES": "/x/p.bin", "HOME": "/home/a"], executableDirectory: "/bin")
                == ["/x/p.bin"])
        #expect(PlaceTable.installedPaths(environment: ["HOME": "/home/a"], executableDirectory: "/opt/shoebox")
                == ["/opt/shoebox/places.bin", "/opt/share/shoebox/places.bin", "/home/a/.local/share/shoebox/places.bin"])
        // scripts/install's layout: PREFIX/bin/shoebox finds PREFIX/share/shoebox/places.bin.
        #expect(PlaceTable.installedPaths(environment: [:], executableDirectory: "/usr/local/bin")
                == ["/usr/local/bin/places.bin", "/usr/local/share/shoebox/places.bin"])
        #expect(PlaceTable.installedPaths(environment: ["HOME": "/home/a", "XDG_DATA_HOME": "/data"], executableDirectory: nil)
                == ["/data/shoebox/places.bin"])
        // A relative XDG_DATA_HOME is ignored, as the XDG specification says.
        #expect(PlaceTable.installedPaths(environment: ["HOME": "/home/a", "XDG_DATA_HOME": "data"], executableDirectory: nil)
                == ["/home/a/.local/share/shoebox/places.bin"])
    }

    @Test func loadInstalledFindsTheFirstTableAndNamesEveryPathWhenThereIsNone() throws {
        try withTemporaryFolder { folder in
            let environment = ["HOME": folder]
            let error = #expect(throws: PlaceTableError.self) {
                try PlaceTable.loadInstalled(environment: environment, executableDirectory: folder + "/bin")
            }
            #expect(error?.code == .missing)
            #expect(error?.message.contains(folder + "/bin/places.bin") == true)
            #expect(error?.message.contains(folder + "/share/shoebox/places.bin") == true)
            #expect(error?.message.contains(folder + "/.local/share/shoebox/places.bin") == true)

            try FileManager.default.createDirectory(atPath: folder + "/.local/share/shoebox", withIntermediateDirectories: true)
            #expect(FileManager.default.createFile(atPath: folder + "/.local/share/shoebox/places.bin", contents: Data(Self.good)))
            let table = try PlaceTable.loadInstalled(environment: environment, executableDirectory: folder + "/bin")
            #expect(table.count == SyntheticPlaces.world.count)

            // The one scripts/install put in PREFIX/share comes before the user's own.
            try FileManager.default.createDirectory(atPath: folder + "/share/shoebox", withIntermediateDirectories: true)
            #expect(FileManager.default.createFile(atPath: folder + "/share/shoebox/places.bin", contents: Data(Self.good)))
            #expect(PlaceTable.installedPath(environment: environment, executableDirectory: folder + "/bin").found
                    == folder + "/share/shoebox/places.bin")
        }
    }
}
