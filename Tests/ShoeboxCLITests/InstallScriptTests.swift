import Foundation
import PhotoFixtures
import Places
import Spawn
import Testing

/// `scripts/install PREFIX` with the binary the tests built (`SHOEBOX_BIN` skips the release build):
/// the executable, its places table and the systemd user unit land where the script says, and the
/// unit names the installed binary. The script runs with none of the caller's `XDG_` or `SHOEBOX_`
/// variables but those a test gives it.
@Suite struct InstallScriptTests {
    @Test func installsTheBinaryAndAUserUnitThatRunsIt() throws {
        let folder = try TemporaryDirectory()
        let prefix = folder.url("prefix").path
        let run = try Self.install(prefix: prefix, home: folder.url("home").path)
        #expect(run.status == 0, "\(run.stderr)")

        let binary = prefix + "/bin/shoebox"
        let attributes = try FileManager.default.attributesOfItem(atPath: binary)
        #expect((attributes[.posixPermissions] as? Int) == 0o755)
        #expect(FileManager.default.contentsEqual(atPath: binary, andPath: ShoeboxProcess.executable.path))

        // Root puts the unit beside the binary's prefix, anyone else in ~/.config/systemd/user.
        let unitFolder = getuid() == 0 ? prefix + "/lib/systemd/user" : folder.url("home/.config/systemd/user").path
        let unit = try String(contentsOfFile: unitFolder + "/shoebox.service", encoding: .utf8)
        #expect(unit.contains("\nExecStart=\(binary) serve --watch\n"))
        #expect(unit.contains("\nRestart=on-failure\n"))
        #expect(unit.contains("\nWantedBy=default.target\n"))
        #expect(run.stdout.contains("systemctl --user enable --now shoebox"))

        // The installed binary runs on its own.
        let help = try ShoeboxProcess.run(["--help"], executable: URL(fileURLWithPath: binary))
        #expect(help.status == 0)

        if FileManager.default.isExecutableFile(atPath: "/usr/bin/systemd-analyze") {
            let verify = try Self.run("/usr/bin/systemd-analyze", ["verify", unitFolder + "/shoebox.service"], environment: [:])
            #expect(verify.status == 0, "systemd-analyze verify: \(verify.stderr)")
        }
    }

    @Test func theInstalledBinaryNamesPlacesFromTheTableInstalledBesideIt() throws {
        let folder = try TemporaryDirectory()
        let prefix = folder.url("prefix").path
        let lisbon = try #require(DemoLibrary.places.first { $0.city == "Lisbon" })
        let entry = PlaceTable.Entry(
            name: lisbon.city, latitude: lisbon.latitude, longitude: lisbon.longitude, population: lisbon.population,
            region: lisbon.region, countryCode: lisbon.countryCode, countryName: lisbon.country, timeZone: lisbon.timeZone)
        try folder.write("built/places.bin", PlaceTable.encode([entry], credit: "test"))
        let run = try Self.install(prefix: prefix, home: folder.url("home").path, places: folder.url("built/places.bin").path)
        #expect(run.status == 0, "\(run.stderr)")
        let installed = prefix + "/share/shoebox/places.bin"
        #expect(run.stdout.contains("Installed \(installed) (places table"), "\(run.stdout)")
        #expect(FileManager.default.contentsEqual(atPath: installed, andPath: folder.url("built/places.bin").path))

        // A new user: an empty home, no XDG variables, no SHOEBOX_PLACES; only the installed table.
        var fields = ExifFields(dateTimeOriginal: "2025:03:08 10:00:00", offsetTimeOriginal: "+00:00")
        fields.setPosition(latitude: 38.7215, longitude: -9.1460)
        try folder.write("photos/a.jpg", PhotoFixtures.jpeg(width: 8, height: 8, exif: fields))
        try FileManager.default.createDirectory(at: folder.url("new-home"), withIntermediateDirectories: true)
        let user = ["HOME": folder.url("new-home").path]
        let binary = prefix + "/bin/shoebox"
        let database = folder.url("library.sqlite").path
        let indexed = try Self.run(binary, ["index", folder.url("photos").path, "--db", database], environment: user)
        #expect(indexed.status == 0, "\(indexed.stderr)")
        #expect(!indexed.stderr.contains("No places table"), "\(indexed.stderr)")
        let places = try Self.run(binary, ["places", "--db", database], environment: user)
        #expect(places.status == 0, "\(places.stderr)")
        #expect(places.stdout.contains("Portugal (PT)"), "\(places.stdout)")
        #expect(places.stdout.contains("Lisbon"), "\(places.stdout)")
    }

    @Test func aMissingBinaryIsNamedAndNothingIsInstalled() throws {
        let folder = try TemporaryDirectory()
        let prefix = folder.url("prefix").path
        let run = try Self.install(prefix: prefix, home: folder.url("home").path, binary: folder.url("no-such-shoebox").path)
        #expect(run.status != 0)
        #expect(run.stderr.contains("no-such-shoebox"))
        #expect(!FileManager.default.fileExists(atPath: prefix + "/bin/shoebox"))
    }

    /// Installs `binary` and the table at `places`, here a test's own, and a test's own map
    /// outlines, so that no test builds them from PyPI or copies this machine's.
    static func install(
        prefix: String, home: String, binary: String = ShoeboxProcess.executable.path, places: String? = nil
    ) throws -> ShoeboxProcess.Output {
        let script = ShoeboxProcess.packageRoot.appendingPathComponent("scripts/install").path
        let placesTable: String
        if let places {
            placesTable = places
        } else {
            placesTable = URL(fileURLWithPath: home).deletingLastPathComponent().appendingPathComponent("places.bin").path
            FileManager.default.createFile(atPath: placesTable, contents: Data(PlaceTable.encode([], credit: "test")))
        }
        let outlines = URL(fileURLWithPath: home).deletingLastPathComponent().appendingPathComponent("countries.geojson").path
        FileManager.default.createFile(atPath: outlines, contents: Data(#"{"type":"FeatureCollection","features":[]}"#.utf8))
        return try run(script, [prefix], environment: [
            "SHOEBOX_BIN": binary, "HOME": home, "XDG_CONFIG_HOME": home + "/.config", "SHOEBOX_PLACES": placesTable,
            "SHOEBOX_MAP_OUTLINES": outlines,
        ])
    }

    static func run(
        _ executable: String, _ arguments: [String], environment: [String: String], deadline: Duration = .seconds(60)
    ) throws -> ShoeboxProcess.Output {
        let process = ChildProcess()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment
            .filter { key, _ in !key.hasPrefix("XDG_") && !key.hasPrefix("SHOEBOX_") }
            .merging(environment) { $1 }
        process.standardInput = FileHandle.nullDevice
        return try ShoeboxProcess.finish(process, arguments: [executable] + arguments, stdout: nil, deadline: deadline)
    }
}
