import Foundation
import PhotoFixtures
import Testing

/// libvips is loaded on the first thumbnail, not at start-up: it brings about a hundred libraries,
/// whose loading was most of what a quick command such as an unchanged re-index cost.
@Suite struct LibvipsLoadingTests {
    /// The libraries the dynamic loader opened, from its own report (`LD_DEBUG=files`).
    static func loadedLibraries(_ arguments: [String], environment: [String: String] = [:]) throws -> (ShoeboxProcess.Output, [String]) {
        let output = try ShoeboxProcess.run(arguments, environment: environment.merging(["LD_DEBUG": "files"]) { $1 })
        let libraries = output.stderr.split(separator: "\n").compactMap { line -> String? in
            guard let range = line.range(of: "file=") else { return nil }
            return String(line[range.upperBound...].prefix { $0 != " " && $0 != ";" })
        }
        return (output, libraries)
    }

    @Test func commandsThatMakeNoThumbnailNeverLoadLibvips() throws {
        let tree = try TemporaryDirectory()
        try tree.write("photos/a.jpg", PhotoFixtures.jpeg(width: 40, height: 30))
        let db = tree.path + "/index.sqlite"
        let cache = ["XDG_CACHE_HOME": tree.path + "/cache"]
        for arguments in [["index", tree.path + "/photos", "--db", db], ["index", tree.path + "/photos", "--db", db],
                          ["photos", "--db", db], ["sections", "--db", db], ["--help"]] {
            let (output, libraries) = try Self.loadedLibraries(arguments, environment: cache)
            #expect(output.status == 0, "\(arguments)")
            #expect(libraries.contains { $0.hasPrefix("libsqlite3") }, "the loader's report lists what was loaded")
            #expect(!libraries.contains { $0.hasPrefix("libvips") || $0.hasPrefix("libglib") }, "\(arguments): \(libraries)")
        }
        // Making thumbnails loads it.
        let (made, libraries) = try Self.loadedLibraries(["thumbnails", "--db", db], environment: cache)
        #expect(made.status == 0, "\(made.stderr.suffix(500))")
        #expect(libraries.contains { $0.hasPrefix("libvips.so") }, "\(libraries)")
    }

    @Test func withoutLibvipsTheThumbnailsCommandSaysWhatToInstall() throws {
        let tree = try TemporaryDirectory()
        try tree.write("photos/a.jpg", PhotoFixtures.jpeg(width: 40, height: 30))
        let db = tree.path + "/index.sqlite"
        #expect(try ShoeboxProcess.run(["index", tree.path + "/photos", "--db", db]).status == 0)
        let cache = tree.path + "/cache"
        let output = try ShoeboxProcess.run(
            ["thumbnails", "--db", db], environment: ["XDG_CACHE_HOME": cache, "SHOEBOX_LIBVIPS": "libvips-not-installed.so.42"])
        #expect(output.status == 1)
        #expect(output.stderr.contains("libvips could not start: cannot load libvips-not-installed.so.42"), "\(output.stderr)")
        #expect(output.stderr.contains("apt-get install libvips42"), "\(output.stderr)")
        #expect(!FileManager.default.fileExists(atPath: cache + "/shoebox"), "no placeholder was cached")
        // Indexing and reading the index never needed it.
        #expect(try ShoeboxProcess.run(["sections", "--db", db], environment: ["SHOEBOX_LIBVIPS": "libvips-not-installed.so.42"]).status == 0)
    }
}
