import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import PhotoFixtures
import PhotoMetadata
import ShoeboxServer
import Testing

@Suite("shoebox serve: thumbnails")
struct ThumbnailEndpointTests {
    @Test("A thumbnail is a JPEG in display orientation, never upscaled, with a strong ETag; If-None-Match gets 304")
    func thumbnailAndETag() async throws {
        let fixture = try await ServerFixture(count: 12)
        let row = try #require(try fixture.rows().first { !$0.path.hasPrefix("broken") })
        let original = try MetadataReader().read(atPath: fixture.root + "/" + row.path)
        let app = try ShoeboxServer.makeApplication(settings: fixture.settings())
        let first = try await get(app, "/api/photos/\(row.id)/thumbnail?size=thumbnail")
        #expect(first.status == .ok)
        #expect(first.headers[.contentType] == "image/jpeg")
        #expect(first.headers[.shoeboxPlaceholderName] == nil)
        let etag = try #require(first.headers[.eTag])
        #expect(etag.hasPrefix("\"") && etag.hasSuffix("\""))
        // The fixtures are smaller than 320 px: the thumbnail keeps their display size.
        let written = fixture.tree.path + "/thumbnail.jpg"
        try Data(first.bytes).write(to: URL(fileURLWithPath: written))
        let thumbnail = try MetadataReader().read(atPath: written)
        #expect(thumbnail.displaySize == original.displaySize)

        let again = try await get(app, [
            ("/api/photos/\(row.id)/thumbnail", [.ifNoneMatch: etag]),
            ("/api/photos/\(row.id)/thumbnail?size=preview", [.ifNoneMatch: etag]),
        ])
        #expect(again[0].status == .notModified)
        #expect(again[1].status == .ok, "a preview has its own tag")
    }

    @Test("A thumbnail kept in memory is still refused once its file is a link out of the root; its tag gets 304 without the disk cache")
    func keptThumbnailsKeepTheChecks() async throws {
        let fixture = try await ServerFixture(count: 12)
        let rows = try fixture.rows().filter { !$0.path.hasPrefix("broken") }
        let (swapped, kept) = (rows[0], rows[1])
        let app = try ShoeboxServer.makeApplication(settings: fixture.settings())
        try await app.test(.router) { client in
            let uris = [swapped, kept].map { "/api/photos/\($0.id)/thumbnail" }
            let first = try await client.execute(uri: uris[0], method: .get)
            let second = try await client.execute(uri: uris[1], method: .get)
            #expect(first.status == .ok && second.status == .ok)
            let etag = try #require(second.headers[.eTag])

            try FileManager.default.removeItem(atPath: fixture.root + "/" + swapped.path)
            try FileManager.default.createSymbolicLink(atPath: fixture.root + "/" + swapped.path, withDestinationPath: "/etc/passwd")
            try FileManager.default.removeItem(atPath: fixture.tree.path + "/cache")
            let refused = try await client.execute(uri: uris[0], method: .get)
            #expect(refused.status == .notFound)
            #expect(!String(buffer: refused.body).contains("root:"))

            let again = try await client.execute(uri: uris[1], method: .get)
            #expect(again.status == .ok)
            #expect(again.headers[.eTag] == etag)
            #expect(Array(again.body.readableBytesView) == Array(second.body.readableBytesView))
            let revalidated = try await client.execute(uri: uris[1], method: .get, headers: [.ifNoneMatch: etag])
            #expect(revalidated.status == .notModified)
            #expect(revalidated.headers[.eTag] == etag)
            #expect(revalidated.body.readableBytes == 0)
        }
    }

    @Test("A file that cannot be decoded gets a placeholder and the reason, every time; bad sizes and ids get JSON errors")
    func placeholderAndErrors() async throws {
        let fixture = try await ServerFixture(count: 5)
        let broken = try #require(try fixture.rows().first { $0.path.hasPrefix("broken") })
        let responses = try await get(try ShoeboxServer.makeApplication(settings: fixture.settings()), [
            ("/api/photos/\(broken.id)/thumbnail", [:]), ("/api/photos/\(broken.id)/thumbnail", [:]),
            ("/api/photos/\(broken.id)/thumbnail?size=huge", [:]), ("/api/photos/999999/thumbnail", [:]),
        ])
        for response in responses.prefix(2) {
            #expect(response.status == .ok)
            #expect(response.headers[.contentType] == "image/jpeg")
            #expect(response.headers[.shoeboxPlaceholderName] != nil)
        }
        #expect(responses[2].status == .badRequest)
        #expect(responses[3].status == .notFound)
    }
}

extension HTTPField.Name {
    static let shoeboxPlaceholderName = HTTPField.Name("X-Shoebox-Placeholder")!
}
