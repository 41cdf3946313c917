import Foundation
import GRDB
@testable import LibraryIndex
import PhotoFixtures
import Testing

/// Stacks as an index run finds them from the stored rows: the rows' cameras, formats and folders
/// read once per change (`planStacks`), each photo still given its own.
@Suite("Stacks found from the stored rows")
struct StackPlanTests {
    @Test("two cameras shooting in turn make two bursts; a raw joins its JPEG; a photo without a camera and another folder's are alone")
    func camerasInTurn() async throws {
        let tree = try TemporaryDirectory()
        // A, B, A, B, 200 ms apart, in one folder: each camera's two shots are a burst.
        for (frame, camera) in [("Apple", "iPhone 15"), ("Canon", "EOS R5"), ("Apple", "iPhone 15"), ("Canon", "EOS R5")].enumerated() {
            var exif = ExifFields(dateTimeOriginal: "2024:05:01 10:00:00", make: camera.0, model: camera.1)
            exif.subSecTimeOriginal = "\(frame * 2)00"
            try tree.write("photos/trip/IMG_\(100 + frame).JPG", PhotoFixtures.jpeg(width: 16, height: 12, exif: exif))
        }
        // No make or model: in no burst, though as close in time.
        try tree.write("photos/trip/IMG_104.JPG", PhotoFixtures.jpeg(width: 16, height: 12, exif: ExifFields(dateTimeOriginal: "2024:05:01 10:00:00")))
        // Another folder, same camera and time: not in the trip's bursts.
        var elsewhere = ExifFields(dateTimeOriginal: "2024:05:01 10:00:00", make: "Apple", model: "iPhone 15")
        elsewhere.subSecTimeOriginal = "100"
        try tree.write("photos/home/IMG_200.JPG", PhotoFixtures.jpeg(width: 16, height: 12, exif: elsewhere))

        // A raw and its JPEG of one second, among the JPEGs: a stack, the JPEG its cover.
        let shot = ExifFields(dateTimeOriginal: "2024:05:01 12:00:00")
        try tree.write("photos/trip/DSC_300.CR3", PhotoFixtures.cr3(exif: shot))
        try tree.write("photos/trip/DSC_300.JPG", PhotoFixtures.jpeg(width: 16, height: 12, exif: shot))

        let path = tree.path + "/index.sqlite"
        let store = try LibraryStore(path: path, mode: .readWrite)
        for try await _ in try Indexer(root: tree.path + "/photos", store: store, settings: .default).run() {}
        let stacks = try await DatabaseQueue(path: path).read { db in
            try Row.fetchAll(db, sql: """
                SELECT m.path AS member, c.path AS cover FROM stack s
                JOIN photo m ON m.id = s.photoId JOIN photo c ON c.id = s.stackId ORDER BY m.path
                """).map { (String(decoding: $0["member"] as Data, as: UTF8.self), String(decoding: $0["cover"] as Data, as: UTF8.self)) }
        }
        #expect(stacks.map(\.0) == ["trip/DSC_300.CR3", "trip/DSC_300.JPG", "trip/IMG_100.JPG", "trip/IMG_101.JPG", "trip/IMG_102.JPG", "trip/IMG_103.JPG"])
        #expect(stacks.map(\.1) == ["trip/DSC_300.JPG", "trip/DSC_300.JPG", "trip/IMG_100.JPG", "trip/IMG_101.JPG", "trip/IMG_100.JPG", "trip/IMG_101.JPG"])
    }

    @Test("blanks around a stored make or model do not split a burst; a make alone or a model alone is a camera")
    func camerasAsStored() async throws {
        let tree = try TemporaryDirectory()
        // Three folders, two shots 200 ms apart in each: (make, model) of the first and second shot.
        let pairs: [(String, (String?, String?), (String?, String?))] = [
            ("blanks", ("Canon", "EOS R5"), ("Canon", "EOS R5")),
            ("make", ("Leica", nil), ("Leica", nil)),
            ("model", (nil, "X100V"), (nil, "X100V")),
        ]
        for (folder, first, second) in pairs {
            for (frame, camera) in [first, second].enumerated() {
                var exif = ExifFields(dateTimeOriginal: "2024:05:01 10:00:00", make: camera.0, model: camera.1)
                exif.subSecTimeOriginal = "\(frame * 2)00"
                try tree.write("photos/\(folder)/IMG_\(frame).JPG", PhotoFixtures.jpeg(width: 16, height: 12, exif: exif))
            }
        }
        let path = tree.path + "/index.sqlite"
        let store = try LibraryStore(path: path, mode: .readWrite)
        for try await _ in try Indexer(root: tree.path + "/photos", store: store, settings: .default).run() {}
        // Blanks as another program might store them, then the stacks found again from the rows.
        try store.write { db in
            try db.execute(sql: "UPDATE photo SET make = ' Canon' || char(9), model = 'EOS R5  ' WHERE CAST(path AS TEXT) = 'blanks/IMG_1.JPG'")
            try db.execute(sql: "DELETE FROM stack")
        }
        try store.storeStacks(store.planStacks(inFolders: nil))
        let stacks = try await DatabaseQueue(path: path).read { db in
            try Row.fetchAll(db, sql: """
                SELECT m.path AS member, c.path AS cover FROM stack s
                JOIN photo m ON m.id = s.photoId JOIN photo c ON c.id = s.stackId ORDER BY m.path
                """).map { String(decoding: $0["member"] as Data, as: UTF8.self) + " in " + String(decoding: $0["cover"] as Data, as: UTF8.self) }
        }
        #expect(stacks == [
            "blanks/IMG_0.JPG in blanks/IMG_0.JPG", "blanks/IMG_1.JPG in blanks/IMG_0.JPG",
            "make/IMG_0.JPG in make/IMG_0.JPG", "make/IMG_1.JPG in make/IMG_0.JPG",
            "model/IMG_0.JPG in model/IMG_0.JPG", "model/IMG_1.JPG in model/IMG_0.JPG",
        ])
    }
}
