import Foundation
import Hummingbird
import HummingbirdTesting
import LibraryIndex
import PhotoFixtures
import Places
import ShoeboxServer
import Testing

/// A stack (here a burst) is one item of the timeline, its cover, at both levels; the pager asks
/// `/api/photos/{cover}/stack` for the members.
@Suite("shoebox serve: stacks in the timeline")
struct StacksAPITests {
    @Test("a burst is its cover once, with stack and stackCount; /stack lists its members, the cover first")
    func burstIsOneItem() async throws {
        let tree = try TemporaryDirectory()
        for frame in 0..<3 {
            var exif = ExifFields(dateTimeOriginal: "2024:05:01 10:00:00", make: "Apple", model: "iPhone 15")
            exif.subSecTimeOriginal = "\(frame * 2)00"
            exif.setPosition(latitude: 48.85, longitude: 2.35)
            try tree.write("photos/burst/IMG_\(100 + frame).JPG", PhotoFixtures.jpeg(width: 16, height: 12, exif: exif))
        }
        var lonely = ExifFields(dateTimeOriginal: "2024:05:01 11:00:00")
        lonely.setPosition(latitude: -33.87, longitude: 151.21)
        try tree.write("photos/lone.jpg", PhotoFixtures.jpeg(width: 16, height: 12, exif: lonely))
        let database = try await SearchAPITests.Fixture.index(tree, places: PlaceTable(entries: []))

        let app = try SearchAPITests.Fixture.app(database: database, tree: tree)
        let sections = try await get(app, [("/api/sections/fine/0", [:]), ("/api/sections/coarse/0", [:])])
        for response in sections {
            let photos = try #require(try SearchAPITests.object(response)["photos"] as? [[String: Any]])
            #expect(photos.map { $0["path"] as? String } == ["burst/IMG_100.JPG", "lone.jpg"])
            #expect(photos[0]["stackCount"] as? Int == 3)
            #expect(photos[0]["stack"] as? Int == photos[0]["id"] as? Int)
            #expect(photos[1]["stackCount"] == nil && photos[1]["stack"] == nil)
        }
        let list = try SearchAPITests.object(try await get(app, "/api/sections/fine/0"))
        let cover = try #require((list["photos"] as? [[String: Any]])?.first?["id"] as? Int)
        let lone = try #require((list["photos"] as? [[String: Any]])?.last?["id"] as? Int)

        let stack = try SearchAPITests.object(try await get(app, "/api/photos/\(cover)/stack"))
        #expect(stack["stack"] as? Int == cover)
        let members = try #require(stack["photos"] as? [[String: Any]])
        #expect(members.map { $0["path"] as? String } == ["burst/IMG_100.JPG", "burst/IMG_101.JPG", "burst/IMG_102.JPG"])
        #expect(members.allSatisfy { $0["width"] as? Int == 16 && $0["mediaType"] as? String == "photo" })
        // A photo in no stack is a stack of itself; an unknown id is a 404.
        let alone = try SearchAPITests.object(try await get(app, "/api/photos/\(lone)/stack"))
        #expect((alone["photos"] as? [[String: Any]])?.map { $0["id"] as? Int } == [lone])
        #expect(try await get(app, "/api/photos/999999/stack").status == .notFound)
        // The section lists count items: the stack once; so does the map, whose marker opens them.
        // Their headers count photos: `photoCount` (given when a stack is among the items).
        let fine = try SearchAPITests.array(try await get(app, "/api/sections?level=fine"))
        #expect(fine.first?["count"] as? Int == 2)
        #expect(fine.first?["photoCount"] as? Int == 4)
        let coarse = try SearchAPITests.array(try await get(app, "/api/sections?level=coarse"))
        #expect(coarse.first?["count"] as? Int == 2 && coarse.first?["photoCount"] as? Int == 4)
        let page = try SearchAPITests.object(try await get(app, "/api/sections/fine/0"))
        #expect(page["photoCount"] as? Int == 4)
        // So does the Years level: its count and May's bar.
        let years = try SearchAPITests.array(try await get(app, "/api/sections?level=years"))
        #expect(years.first?["count"] as? Int == 4)
        #expect((years.first?["months"] as? [Int])?[4] == 4)
        let map = try SearchAPITests.object(try await get(app, "/api/map?bbox=-180,-85,180,85&zoom=2"))
        let clusters = try #require(map["clusters"] as? [[String: Any]])
        #expect(clusters.compactMap { $0["count"] as? Int }.sorted() == [1, 1], "\(clusters)")
        #expect(clusters.contains { $0["photo"] as? Int == cover })
    }

    @Test("search: a stack is one item saying how many photos it holds, and a member's own name finds its stack, opened on that member")
    func stacksInSearch() async throws {
        let tree = try TemporaryDirectory()
        let exif = ExifFields(dateTimeOriginal: "2024:06:02 09:30:00", make: "Apple", model: "iPhone 15")
        try tree.write("photos/Kelsterbach/IMG_4120.JPG", PhotoFixtures.jpeg(width: 16, height: 12, exif: exif))
        try tree.write("photos/Kelsterbach/IMG_E4120.JPG", PhotoFixtures.jpeg(width: 16, height: 12, exif: exif))
        for (name, time) in [("IMG_4121.JPG", "10:00:00"), ("IMG_4122.JPG", "11:00:00")] {
            try tree.write("photos/Kelsterbach/\(name)", PhotoFixtures.jpeg(width: 16, height: 12, exif: ExifFields(dateTimeOriginal: "2024:06:02 \(time)")))
        }
        let database = try await SearchAPITests.Fixture.index(tree, places: PlaceTable(entries: []))
        let app = try SearchAPITests.Fixture.app(database: database, tree: tree)

        // The folder's word finds 4 photos in 3 items: the cover carries its stack's count.
        let folder = try SearchAPITests.object(try await get(app, "/api/search?q=kelsterbach"))
        let items = try #require(folder["photos"] as? [[String: Any]])
        #expect(items.map { $0["path"] as? String } == ["Kelsterbach/IMG_4120.JPG", "Kelsterbach/IMG_4121.JPG", "Kelsterbach/IMG_4122.JPG"])
        #expect(folder["total"] as? Int == 4)
        let cover = try #require(items[0]["id"] as? Int)
        #expect(items[0]["stackCount"] as? Int == 2)
        #expect(items[0]["stack"] as? Int == cover)
        #expect(items[0]["matchedMember"] == nil, "the cover matches itself")
        #expect(items[1]["stackCount"] == nil && items[1]["stack"] is NSNull)
        let sections = try #require(folder["sections"] as? [[String: Any]])
        #expect(sections.first?["photoCount"] as? Int == 4)

        // The edit's own name finds its stack: the cover, opened on the edit.
        let stack = try SearchAPITests.object(try await get(app, "/api/photos/\(cover)/stack"))
        let members = try #require(stack["photos"] as? [[String: Any]])
        let edit = try #require(members.first { $0["path"] as? String == "Kelsterbach/IMG_E4120.JPG" }?["id"] as? Int)
        for query in ["IMG_E4120", "img_e4120 kelsterbach"] {
            let found = try SearchAPITests.object(try await get(app, "/api/search?q=\(query.replacingOccurrences(of: " ", with: "%20"))"))
            let photos = try #require(found["photos"] as? [[String: Any]], "\(query)")
            #expect(photos.map { $0["id"] as? Int } == [cover], "\(query)")
            #expect(photos.first?["stackCount"] as? Int == 2)
            #expect(photos.first?["matchedMember"] as? Int == edit)
            #expect(found["total"] as? Int == 2)
            // The result's timeline says so too: the pager opens there.
            let day = try SearchAPITests.object(try await get(app, "/api/sections/fine/0?q=\(query.replacingOccurrences(of: " ", with: "%20"))"))
            let shown = try #require(day["photos"] as? [[String: Any]])
            #expect(shown.map { $0["id"] as? Int } == [cover])
            #expect(shown.first?["matchedMember"] as? Int == edit)
        }
        // Outside a search no photo names a matched member.
        let library = try SearchAPITests.object(try await get(app, "/api/sections/fine/0"))
        #expect((library["photos"] as? [[String: Any]])?.allSatisfy { $0["matchedMember"] == nil } == true)
    }
}
