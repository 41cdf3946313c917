import Foundation
import PhotoFixtures
import PhotoLibrary
import ShoeboxServer
import Testing

/// The server part of the configuration, the `serve` flags that override it, and the open-file
/// limit a real `shoebox serve` process runs with.
@Suite("shoebox serve: limits from the configuration, the flags and the process")
struct ServeLimitsTests {
    @Test("The server keys are read from the configuration file; out-of-range values name the key")
    func configurationKeys() throws {
        let tree = try TemporaryDirectory()
        let good = try tree.write("good.json", Array(#"{"server":{"headerTimeout":2.5,"idleTimeout":12,"maxConnections":40,"hostNames":["photos.lan"]}}"#.utf8)).path
        let limits = try ShoeboxConfiguration.load(explicitPath: good).server
        #expect(limits == ServerLimits(headerTimeout: 2.5, idleTimeout: 12, maxConnections: 40, hostNames: ["photos.lan"]))
        #expect(try ShoeboxConfiguration.load(explicitPath: try tree.write("empty.json", Array("{}".utf8)).path).server == ServerLimits())
        for (json, key) in [(#"{"server":{"idleTimeout":0}}"#, "server.idleTimeout"), (#"{"server":{"headerTimeout":1e9}}"#, "server.headerTimeout"),
                            (#"{"server":{"maxConnections":0}}"#, "server.maxConnections"), (#"{"server":{"hostNames":["a b"]}}"#, "server.hostNames")] {
            let path = try tree.write("bad.json", Array(json.utf8)).path
            #expect(throws: LibraryError.self, "\(json)") { try ShoeboxConfiguration.load(explicitPath: path) }
            do {
                _ = try ShoeboxConfiguration.load(explicitPath: path)
            } catch {
                #expect("\(error)".contains(key), "\(error)")
            }
        }
    }

    @Test("serve refuses out-of-range limit flags with a sentence naming the flag", arguments: [
        (["--idle-timeout", "0"], "--idle-timeout"), (["--header-timeout", "nan"], "--header-timeout"),
        (["--max-connections", "0"], "--max-connections"), (["--max-connections", "9223372036854775807"], "--max-connections"),
        (["--host-name", "evil example"], "--host-name"),
    ])
    func flags(arguments: [String], flag: String) throws {
        let tree = try TemporaryDirectory()
        let (status, errors) = try run(shoeboxExecutable, ["serve", "--db", tree.path + "/none.sqlite", "--port", "0"] + arguments)
        #expect(status != 0)
        #expect(errors.contains(flag), "\(errors)")
    }

    @Test("A real serve process raises its soft open-file limit to the hard one")
    func openFileLimit() async throws {
        let fixture = try await ServerFixture(count: 3)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        // Start it with a soft limit of 256, as a login shell might.
        process.arguments = ["-c", #"ulimit -Sn 256 && exec "$0" serve --db "$1" --port 0"#, shoeboxExecutable, fixture.database]
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_CACHE_HOME"] = fixture.tree.path + "/cache"
        process.environment = environment
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        defer {
            process.terminate()
            process.waitUntilExit()
        }
        // The limits of the server once it listens (its first line says so).
        let line = await withCheckedContinuation { continuation in
            Thread {
                var text = ""
                while !text.contains("is serving") {
                    let data = output.fileHandleForReading.availableData
                    if data.isEmpty { break }
                    text += String(decoding: data, as: UTF8.self)
                }
                continuation.resume(returning: text)
            }.start()
        }
        #expect(line.contains("is serving"), "\(line)")
        let limits = try String(contentsOfFile: "/proc/\(process.processIdentifier)/limits", encoding: .utf8)
        let row = try #require(limits.split(separator: "\n").first { $0.hasPrefix("Max open files") })
        let numbers = row.split(separator: " ").compactMap { Int($0) }
        #expect(numbers.count == 2 && numbers[0] == numbers[1] && numbers[0] > 256, "\(row)")
    }
}

/// Runs `executable` and returns its exit status and standard error.
private func run(_ executable: String, _ arguments: [String]) throws -> (Int32, String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    let errors = Pipe()
    process.standardError = errors
    process.standardOutput = FileHandle.nullDevice
    try process.run()
    let data = errors.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: data, as: UTF8.self))
}

@Suite("shoebox serve: out of file descriptors")
struct DescriptorExhaustionTests {
    @Test("150 idle sockets against an open-file limit of 100: the server backs off, says so once, and serves again once they time out")
    func idleSocketsPastTheLimit() async throws {
        let fixture = try await ServerFixture(count: 3)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", #"ulimit -n 100 && exec "$0" serve --db "$1" --port 0 --max-connections 1000 --idle-timeout 1 --header-timeout 1"#,
                             shoeboxExecutable, fixture.database]
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_CACHE_HOME"] = fixture.tree.path + "/cache"
        process.environment = environment
        let logPath = fixture.tree.path + "/serve.log"
        _ = FileManager.default.createFile(atPath: logPath, contents: nil)
        let log = try FileHandle(forWritingTo: URL(fileURLWithPath: logPath))
        process.standardOutput = log
        process.standardError = log
        try process.run()
        defer {
            process.terminate()
            process.waitUntilExit()
        }
        var port: Int?
        let started = ContinuousClock.now
        while port == nil && ContinuousClock.now < started + .seconds(30) {
            try await Task.sleep(for: .milliseconds(50))
            let text = (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? ""
            if let range = text.range(of: #"http://127\.0\.0\.1:(\d+)/"#, options: .regularExpression) {
                port = Int(text[range].split(separator: ":").last?.filter(\.isNumber) ?? "")
            }
        }
        let serverPort = try #require(port)
        var idle: [RawConnection] = []
        for _ in 0..<150 { idle.append(try RawConnection(port: serverPort)) }
        // While they are open the server may refuse or make a client wait, but it comes back by itself.
        var status = 0
        let deadline = ContinuousClock.now + .seconds(30)
        while status != 200 && ContinuousClock.now < deadline {
            let connection = try RawConnection(port: serverPort)
            connection.send("GET /api/library HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
            status = await connection.readResponse(within: .seconds(3)).status
        }
        #expect(status == 200)
        #expect(process.isRunning)
        let text = try String(contentsOfFile: logPath, encoding: .utf8)
        let warnings = text.components(separatedBy: "Out of file descriptors").count - 1
        #expect(warnings <= 2, "\(text.suffix(2000))")
        withExtendedLifetime(idle) {}
    }
}
