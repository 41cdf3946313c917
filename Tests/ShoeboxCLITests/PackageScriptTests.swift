import Foundation
import PhotoFixtures
import Spawn
import Testing

/// `scripts/package` around the binary the tests built (`SHOEBOX_BIN`: a release build takes too long
/// for CI), then the package unpacked into a temporary root (`dpkg -x`) and run from there by a new
/// user, with an empty home and none of the caller's `XDG_` or `SHOEBOX_` variables: everything it
/// needs is in the package.
@Suite struct PackageScriptTests {
    /// VERSION, the one place the version is written.
    static func version() throws -> String {
        try String(contentsOf: ShoeboxProcess.packageRoot.appendingPathComponent("VERSION"), encoding: .utf8)
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test func versionPrintsTheVersionFile() throws {
        let run = try ShoeboxProcess.run(["--version"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout == (try Self.version()) + "\n")
    }

    @Test func theUnpackedPackageIndexesNamesThePlacesAndServesTheViewerAndMap() throws {
        let folder = try TemporaryDirectory()
        let output = folder.url("out").path
        try FileManager.default.createDirectory(atPath: output, withIntermediateDirectories: true)
        let places = folder.url("data/places.bin").path
        try DemoClone.installPlaces(at: places)
        let outlines = Data(#"{"type":"FeatureCollection","features":[],"madeBy":"PackageScriptTests"}"#.utf8)
        _ = try folder.write("data/countries.geojson", Array(outlines))

        let script = ShoeboxProcess.packageRoot.appendingPathComponent("scripts/package").path
        let packaged = try InstallScriptTests.run(script, [output], environment: [
            "SHOEBOX_BIN": ShoeboxProcess.executable.path, "HOME": folder.url("home").path,
            "SHOEBOX_PLACES": places, "SHOEBOX_MAP_OUTLINES": folder.url("data/countries.geojson").path,
        ], deadline: .seconds(1200))
        try #require(packaged.status == 0, "scripts/package: \(packaged.stderr)")
        let architecture = try InstallScriptTests.run("/usr/bin/dpkg", ["--print-architecture"], environment: [:])
            .stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let deb = output + "/shoebox_\(try Self.version())-1_\(architecture).deb"
        #expect(packaged.stdout.contains("Made \(deb)"), "\(packaged.stdout)")

        // Depends: what dpkg-shlibdeps found the binary links, and libvips42 for thumbnails.
        let info = try InstallScriptTests.run("/usr/bin/dpkg-deb", ["-I", deb], environment: [:])
        #expect(info.status == 0, "\(info.stderr)")
        let depends = Self.field("Depends", in: info.stdout)
        for library in ["libc6 (>=", "libexif12", "libsqlite3-0", "libvips42"] {
            #expect(depends.contains(library), "Depends: \(depends)")
        }
        #expect(Self.field("Recommends", in: info.stdout) == "ffmpeg, libraw-bin, libjpeg-turbo-progs, libjs-leaflet")
        #expect(Self.field("Version", in: info.stdout) == (try Self.version()) + "-1")
        // The checksums dpkg --verify reads, one per packaged file.
        let sums = try InstallScriptTests.run("/usr/bin/dpkg-deb", ["-I", deb, "md5sums"], environment: [:])
        #expect(sums.status == 0 && sums.stdout.contains("  usr/bin/shoebox\n") && sums.stdout.contains("  usr/share/shoebox/places.bin\n"), "\(sums.stdout) \(sums.stderr)")

        let root = folder.url("root").path
        let unpacked = try InstallScriptTests.run("/usr/bin/dpkg", ["-x", deb, root], environment: [:])
        try #require(unpacked.status == 0, "dpkg -x: \(unpacked.stderr)")
        try Self.checkFiles(root: root, places: places, outlines: outlines)

        // A new user runs the unpacked binary: the places table is the one under the root's /usr/share.
        // HOME alone names the empty home (no XDG_ variable): its folders are found from it.
        let home = folder.url("new-home").path
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
        let user = ["HOME": home]
        let shoebox = root + "/usr/bin/shoebox"
        let photos = ShoeboxProcess.packageRoot.appendingPathComponent("testdata/photos").path
        let indexed = try InstallScriptTests.run(shoebox, ["index", photos], environment: user)
        #expect(indexed.status == 0, "\(indexed.stderr)")
        #expect(!indexed.stderr.contains("No places table"), "\(indexed.stderr)")
        #expect(FileManager.default.fileExists(atPath: home + "/.local/share/shoebox/library.sqlite"))
        let named = try InstallScriptTests.run(shoebox, ["places"], environment: user)
        #expect(named.status == 0, "\(named.stderr)")
        for place in DemoLibrary.places {
            #expect(named.stdout.contains(place.city) && named.stdout.contains("\(place.country) (\(place.countryCode))"), "\(named.stdout)")
        }
        let version = try InstallScriptTests.run(shoebox, ["--version"], environment: user)
        #expect(version.stdout == (try Self.version()) + "\n")

        let unset = ["SHOEBOX_PLACES", "SHOEBOX_MAP_OUTLINES", "SHOEBOX_DB", "SHOEBOX_CONFIG"]
        let server = try ServedProcess(
            ["serve", "--port", "0"], executable: URL(fileURLWithPath: shoebox),
            environment: Dictionary(uniqueKeysWithValues: unset.map { ($0, "") }).merging(user) { $1 })
        defer { server.stop() }
        let page = try server.get("/")
        #expect(page.status == 200)
        #expect(String(decoding: page.body, as: UTF8.self).contains("<script"))
        let map = try server.get("/api/map/outlines")
        #expect(map.status == 200)
        #expect(map.body == outlines, "the outlines packaged under the root's /usr/share/shoebox")
        let library = try server.get("/api/library")
        #expect(library.status == 200)
    }

    /// The packaged files beside the binary, each where Debian's tools look for it.
    static func checkFiles(root: String, places: String, outlines: Data) throws {
        let files = FileManager.default
        #expect(files.isExecutableFile(atPath: root + "/usr/bin/shoebox"))
        // (the test's table may be a link to the machine's: compared with what it names)
        #expect(files.contentsEqual(atPath: root + "/usr/share/shoebox/places.bin", andPath: URL(fileURLWithPath: places).resolvingSymlinksInPath().path))
        #expect(files.contents(atPath: root + "/usr/share/shoebox/countries.geojson") == outlines)
        let unit = try String(contentsOfFile: root + "/usr/lib/systemd/user/shoebox.service", encoding: .utf8)
        #expect(unit.contains("\nExecStart=/usr/bin/shoebox serve --watch\n"))
        let manual = try InstallScriptTests.run("/bin/gzip", ["-dc", root + "/usr/share/man/man1/shoebox.1.gz"], environment: [:])
        #expect(manual.status == 0, "\(manual.stderr)")
        for word in [".Dt SHOEBOX 1", "index", "serve", "port"] {  // mdoc writes a flag as `.Fl -port`
            #expect(manual.stdout.contains(word), "the man page has no \(word)")
        }
        // The help's indented examples stay lines of their own (a literal display), not one filled paragraph.
        #expect(manual.stdout.contains("Typical use:\n.Bd -literal -offset indent\nshoebox index ~/Pictures"), "\(manual.stdout.prefix(800))")
        #expect(!manual.stdout.contains("\n\n"), "an empty line, which groff warns about")
        let bash = try String(contentsOfFile: root + "/usr/share/bash-completion/completions/shoebox", encoding: .utf8)
        #expect(bash.contains("complete ") && bash.contains("shoebox"))
        let zsh = try String(contentsOfFile: root + "/usr/share/zsh/vendor-completions/_shoebox", encoding: .utf8)
        #expect(zsh.hasPrefix("#compdef shoebox"))
        let fish = try String(contentsOfFile: root + "/usr/share/fish/vendor_completions.d/shoebox.fish", encoding: .utf8)
        #expect(fish.contains("complete -c 'shoebox'"))
        let copyright = try String(contentsOfFile: root + "/usr/share/doc/shoebox/copyright", encoding: .utf8)
        for credit in ["Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/", "GeoNames", "CC-BY-4.0", "Natural Earth"] {
            #expect(copyright.contains(credit))
        }
        #expect(files.fileExists(atPath: root + "/usr/share/doc/shoebox/changelog.Debian.gz"))
    }

    /// The value of `name:` in `dpkg-deb -I`'s output, or "" without one.
    static func field(_ name: String, in info: String) -> String {
        info.split(separator: "\n").lazy.map { $0.trimmingCharacters(in: .whitespaces) }
            .first { $0.hasPrefix(name + ": ") }.map { String($0.dropFirst(name.count + 2)) } ?? ""
    }
}
