import Foundation
import PhotoFixtures
import Spawn
import Synchronization
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The executable copied alone into an empty folder (as `install` or `cp` does) still serves its
/// viewer: the files are built into it, not read from a resource folder beside it.
@Suite struct LoneBinaryTests {
    @Test func aCopiedExecutableServesTheViewerAndItsScripts() throws {
        let folder = try TemporaryDirectory()
        let lone = folder.url("bin/shoebox")
        try FileManager.default.createDirectory(at: lone.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: ShoeboxProcess.executable, to: lone)
        #expect(try FileManager.default.contentsOfDirectory(atPath: lone.deletingLastPathComponent().path) == ["shoebox"])
        _ = try folder.write("photos/a.jpg", PhotoFixtures.jpeg(width: 64, height: 48, exif: ExifFields(dateTimeOriginal: "2024:05:01 10:00:00")))
        let database = folder.url("library.sqlite").path
        let indexed = try ShoeboxProcess.run(["index", folder.url("photos").path, "--db", database], executable: lone)
        #expect(indexed.status == 0, "\(indexed.stderr)")

        let server = try ServedProcess(["serve", "--port", "0", "--db", database], executable: lone,
                                       environment: ["SHOEBOX_VIEWER_DIR": ""])
        defer { server.stop() }
        let page = try server.get("/")
        #expect(page.status == 200)
        #expect(page.contentType?.hasPrefix("text/html") == true)
        let html = String(decoding: page.body, as: UTF8.self)
        #expect(html.contains("<script"), "the viewer's page, not a note that its files are missing: \(html.prefix(200))")

        // Every script and style sheet the page names, and every module those import, is served.
        var pending = Self.references(in: html, base: "/")
        var seen: Set<String> = []
        while let path = pending.popLast() {
            guard seen.insert(path).inserted else { continue }
            let file = try server.get(path)
            #expect(file.status == 200, "\(path) answered \(file.status)")
            #expect(file.body.count > 100, "\(path) is \(file.body.count) bytes")
            if path.hasSuffix(".js") {
                #expect(file.contentType?.hasPrefix("text/javascript") == true, "\(path): \(file.contentType ?? "no type")")
                pending += Self.references(in: String(decoding: file.body, as: UTF8.self), base: String(path[...path.lastIndex(of: "/")!]))
            }
        }
        #expect(seen.contains("/js/main.js"))
        #expect(seen.count >= 10, "the page and its modules: \(seen.sorted())")
        let api = try server.get("/api/library")
        #expect(api.status == 200)
    }

    /// `src="…"`, `href="…"` and `from './x.js'` / `import './x.js'` paths, resolved against `base`.
    static func references(in text: String, base: String) -> [String] {
        let pattern = #"(?:src|href)="([^"?#:]+\.(?:js|css))"|(?:from|import)\s*['"](\.{1,2}/[^'"]+\.js)['"]"#
        let regex = try! NSRegularExpression(pattern: pattern)
        return regex.matches(in: text, range: NSRange(text.startIndex..., in: text)).compactMap { match in
            for group in 1...2 where match.range(at: group).location != NSNotFound {
                let reference = String(text[Range(match.range(at: group), in: text)!])
                return URL(string: reference, relativeTo: URL(string: "http://x" + base))?.path
            }
            return nil
        }
    }
}

/// A `shoebox serve` started for a test: waits (with a deadline) for the line that says where it
/// listens, answers GETs, and is stopped at the end.
final class ServedProcess: @unchecked Sendable {
    let process: ChildProcess
    let port: Int
    private let errors = Pipe()
    private let logged = Mutex("")

    /// What the server has written to standard error so far.
    var log: String { logged.withLock { $0 } }

    struct Answer {
        var status: Int
        var contentType: String?
        var body: Data
    }

    init(_ arguments: [String], executable: URL = ShoeboxProcess.executable, environment: [String: String] = [:], deadline: Duration = .seconds(60)) throws {
        process = ShoeboxProcess.start(arguments, environment: environment, executable: executable)
        process.standardOutput = FileHandle.nullDevice
        process.standardError = errors
        try process.run()
        var text = ""
        let end = ContinuousClock.now + deadline
        let handle = errors.fileHandleForReading
        var found: Int?
        while found == nil, ContinuousClock.now < end, process.isRunning {
            var poll = pollfd(fd: handle.fileDescriptor, events: Int16(POLLIN), revents: 0)
            guard Glibc.poll(&poll, 1, 200) > 0 else { continue }
            let data = handle.availableData
            if data.isEmpty { break }
            text += String(decoding: data, as: UTF8.self)
            if let range = text.range(of: #"http://[^ ]+:(\d+)/"#, options: .regularExpression),
               let colon = text[range].lastIndex(of: ":") {
                found = Int(text[range][text.index(after: colon)...].dropLast())
            }
        }
        guard let found else {
            process.terminate()
            throw ShoeboxProcess.DeadlineExceeded(arguments: arguments + ["(no listening line; it said: \(text))"], seconds: Double(deadline.components.seconds))
        }
        port = found
        // Keep draining, so the server never blocks on a full pipe.
        logged.withLock { $0 = text }
        handle.readabilityHandler = { [weak self] in
            let data = $0.availableData
            self?.logged.withLock { $0 += String(decoding: data, as: UTF8.self) }
        }
    }

    func get(_ path: String, headers: [String: String] = [:], deadline: TimeInterval = 30) throws -> Answer {
        var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port)\(path)")!)
        request.timeoutInterval = deadline
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        let done = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var answer: Answer?
        nonisolated(unsafe) var failure: (any Error)?
        URLSession.shared.dataTask(with: request) { data, response, error in
            if let response = response as? HTTPURLResponse {
                answer = Answer(status: response.statusCode, contentType: response.value(forHTTPHeaderField: "Content-Type"), body: data ?? Data())
            }
            failure = error
            done.signal()
        }.resume()
        guard done.wait(timeout: .now() + deadline + 5) == .success else { throw ShoeboxProcess.DeadlineExceeded(arguments: ["GET", path], seconds: deadline) }
        if let answer { return answer }
        throw failure ?? ShoeboxProcess.DeadlineExceeded(arguments: ["GET", path], seconds: deadline)
    }

    func stop() {
        errors.fileHandleForReading.readabilityHandler = nil
        guard process.isRunning else { return }
        process.terminate()
        let end = ContinuousClock.now + .seconds(10)
        while process.isRunning && ContinuousClock.now < end { Thread.sleep(forTimeInterval: 0.02) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }
}
