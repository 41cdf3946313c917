import Duplicates
import Foundation
import GRDB
@testable import LibraryIndex
import PhotoFixtures
import Testing

/// A library whose fingerprints were stored before they had a colour rendition.
@Suite("Fingerprints of an older library")
struct FingerprintMigrationTests {
    @Test("fingerprints stored without colours are made again, and the similar groups found with them dropped")
    func oldFingerprintsAreRemade() async throws {
        let tree = try TemporaryDirectory()
        let path = tree.path + "/index.sqlite"
        // The schema as the last release left it, with one photo, its grey-only fingerprint and a stored group.
        let queue = try DatabaseQueue(path: path)
        try LibraryStore.migrator.migrate(queue, upTo: "v12-duplicate-pages")
        try await queue.write { db in
            try db.execute(sql: """
                INSERT INTO photo (id, path, fileSize, modified, captured, dateSource) VALUES
                    (1, CAST('a.jpg' AS BLOB), 10, 5, '2024-01-01T10:00:00', 'fileModified'),
                    (2, CAST('b.jpg' AS BLOB), 11, 5, '2024-01-01T10:00:00', 'fileModified');
                INSERT INTO pictureHash (photoId, fileSize, modified, fingerprinted, pixels, dHash, pHash) VALUES
                    (1, 10, 5, 1, 1, 2, 3), (2, 11, 5, 1, 4, 2, 3);
                INSERT INTO duplicateMember (tier, photoId, groupId, position, kind, match, reason) VALUES
                    ('similar', 1, 1, 0, 'similar', 'exact', 'oldest file'), ('similar', 2, 1, 1, 'similar', 'similar', 'oldest file');
                """)
            try LibraryStore.indexDuplicateGroups(db, tier: "similar")
        }
        try queue.close()

        let store = try LibraryStore(path: path, mode: .readWrite)
        #expect(try store.fingerprintedPhotoIDs().isEmpty)
        #expect(try store.duplicateRows().allSatisfy { !$0.fingerprinted && $0.fingerprint == nil })
        #expect(try store.storedDuplicateGroups().isEmpty)
        #expect(try store.duplicateTotals().groups == 0)

        // Made again, with colours, they read back whole.
        let colour = try #require(ColourRendition(bytes: [UInt8](repeating: 100, count: ColourRendition.edge * ColourRendition.edge * 3)))
        let fingerprint = PictureFingerprint(pixels: 7, dHash: 8, pHash: 9, colour: colour)
        try store.saveFingerprints([(id: 1, fileSize: 10, modified: 5, fingerprint: fingerprint)])
        #expect(try store.fingerprintedPhotoIDs() == [1])
        #expect(try store.duplicateRows().first { $0.id == 1 }?.fingerprint == fingerprint)
    }
}
