import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import PhotoFixtures
import ShoeboxServer
import Testing

@Suite("shoebox serve: an original's name for downloads, and the tiny rendition")
struct OriginalDispositionTests {
    @Test("An original names its file in Content-Disposition: inline, or attachment with download=1")
    func contentDisposition() async throws {
        let fixture = try await ServerFixture(count: 10)
        let (id, path) = try #require(try fixture.rows().first { !$0.path.hasPrefix("broken") })
        let name = (path as NSString).lastPathComponent
        let responses = try await get(ShoeboxServer.makeApplication(settings: fixture.settings()), [
            ("/api/photos/\(id)/original", [:]), ("/api/photos/\(id)/original?download=1", [:]),
        ])
        #expect(responses[0].status == .ok)
        #expect(responses[0].headers[.contentDisposition] == "inline; filename=\"\(name)\"; filename*=UTF-8''\(name)")
        #expect(responses[1].headers[.contentDisposition] == "attachment; filename=\"\(name)\"; filename*=UTF-8''\(name)")
    }

    @Test("size=tiny answers a small JPEG, not a placeholder")
    func tiny() async throws {
        let fixture = try await ServerFixture(count: 10)
        let (id, _) = try #require(try fixture.rows().first { !$0.path.hasPrefix("broken") })
        let responses = try await get(ShoeboxServer.makeApplication(settings: fixture.settings()), [
            ("/api/photos/\(id)/thumbnail?size=tiny", [:]),
        ])
        #expect(responses[0].status == .ok)
        #expect(responses[0].headers[.contentType] == "image/jpeg")
        #expect(responses[0].headers[HTTPField.Name("X-Shoebox-Placeholder")!] == nil)
    }
}
