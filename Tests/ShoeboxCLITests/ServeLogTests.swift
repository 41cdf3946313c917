import Foundation
import PhotoFixtures
import Testing

/// A file libvips cannot decode is logged once, in one line that names it by its path under the
/// root, however often its thumbnail and preview are asked for, and no libvips warning is printed apart.
@Suite struct ServeLogTests {
    @Test func aBrokenFileIsOneLineNamingItsPath() throws {
        let folder = try TemporaryDirectory()
        let database = folder.url("library.sqlite").path
        let photos = ShoeboxProcess.packageRoot.appendingPathComponent("testdata/photos").path
        let indexed = try ShoeboxProcess.run(["index", photos, "--db", database])
        #expect(indexed.status == 0, "\(indexed.stderr)")

        let server = try ServedProcess(["serve", "--port", "0", "--db", database], environment: ["XDG_CACHE_HOME": folder.url("cache").path])
        defer { server.stop() }
        for _ in 0..<2 {
            for id in 1...60 {
                for size in ["thumbnail", "preview"] {
                    _ = try server.get("/api/photos/\(id)/thumbnail?size=\(size)")
                }
            }
        }
        // The last requests have been answered; give the log line a moment to reach the pipe.
        Thread.sleep(forTimeInterval: 0.3)
        // The demo's broken JPEG, and its HEIC files, whose image data the fixtures leave out.
        let lines = server.log.split(separator: "\n").filter { $0.contains("gets a placeholder") }
        let files = lines.compactMap { line in line.firstRange(of: ") gets a placeholder").map { line[..<$0.lowerBound] } }
        #expect(!lines.isEmpty && Set(files).count == lines.count, "one line per file, once:\n\(server.log)")
        #expect(lines.contains { $0.contains("(broken/cut-short.jpg) gets a placeholder (damaged): libvips cannot read broken/cut-short.jpg: ") }, "\(server.log)")
        #expect(!server.log.contains("/proc/self/fd"), "\(server.log)")
        #expect(!server.log.contains("VIPS-WARNING"), "\(server.log)")
    }
}
