import Foundation
import PhotoFixtures
import Spawn
import Testing

/// `shoebox serve` on a machine without libvips (`SHOEBOX_LIBVIPS` names a library that is not
/// there): the server says so when it starts and still serves the library, with grey placeholders.
@Suite struct MissingLibvipsTests {
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/curl")))
    func theServerSaysWhatToInstallAndShowsPlaceholders() throws {
        let tree = try TemporaryDirectory()
        try tree.write("photos/a.jpg", PhotoFixtures.jpeg(width: 40, height: 30))
        let database = tree.path + "/index.sqlite"
        let index = ChildProcess()
        index.executableURL = URL(fileURLWithPath: shoeboxExecutable)
        index.arguments = ["index", tree.path + "/photos", "--db", database]
        index.standardOutput = FileHandle.nullDevice
        try index.run()
        index.waitUntilExit()
        #expect(index.terminationStatus == 0)

        let log = tree.path + "/serve.log"
        let environment = ["SHOEBOX_LIBVIPS": "libvips-not-installed.so.42", "XDG_CACHE_HOME": tree.path + "/cache"]
        let (server, port) = try LiveLibraryTests.startServer(database: database, log: log, watch: false, environment: environment)
        defer { server.terminate(); server.waitUntilExit() }
        // The note follows the address line; give it a moment.
        let noted = ContinuousClock.now + .seconds(10)
        func logText() -> String { (try? String(contentsOfFile: log, encoding: .utf8)) ?? "" }
        while !logText().contains("apt-get install libvips42") && ContinuousClock.now < noted { Thread.sleep(forTimeInterval: 0.05) }
        #expect(logText().contains("libvips could not start: cannot load libvips-not-installed.so.42"), "\(logText())")

        let curl = ChildProcess()
        curl.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
        curl.arguments = ["-s", "--max-time", "5", "-D", tree.path + "/headers", "-o", tree.path + "/body",
                          "http://127.0.0.1:\(port)/api/photos/1/thumbnail?size=thumbnail"]
        try curl.run()
        curl.waitUntilExit()
        let headers = try String(contentsOfFile: tree.path + "/headers", encoding: .utf8).lowercased()
        #expect(headers.hasPrefix("http/1.1 200"), "\(headers)")
        #expect(headers.contains("content-type: image/svg+xml"), "\(headers)")
        #expect(headers.contains("x-shoebox-placeholder:"), "\(headers)")
        let body = try String(contentsOfFile: tree.path + "/body", encoding: .utf8)
        #expect(body.hasPrefix("<svg") && body.contains(#"width="320""#), "\(body)")
    }
}
