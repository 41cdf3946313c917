import Foundation
import Places
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
        // The first place's latitude: the last record block starts `count * 24` bytes from the end.
        let firstPlace = good.count - SyntheticPlaces.world.count * 24
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
