@testable import LibraryIndex
import Testing

@Suite("Known files: the stamps a re-index compares with the walk")
struct KnownFilesTests {
    /// Finds `path` as the walk would: by its folder and a borrowed name.
    static func find(_ known: KnownFiles, _ path: String) -> Int? {
        let (folder, name) = RelativePath(path).folderAndName
        return name.withUnsafeBufferPointer { known.find(in: known.folder(folder), name: $0) }
    }

    @Test("Every stored path is found with its stamp; look-alikes across the separator and absent names are not")
    func lookups() {
        // Short names over few folders, so that many share a folder, a name, or a hash slot.
        // Upper-case names never come out of the generator: these stay the only ones.
        var paths: Set<String> = ["A/B", "AB", "A.jpg", "X/Y/Z.jpg", "QRxS.jpg"]
        var state: UInt64 = 5
        func next() -> UInt64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return state >> 33
        }
        while paths.count < 2000 {
            let depth = Int(next() % 3)
            let parts = (0...depth).map { _ in String(next() % 50, radix: 36) }
            paths.insert(parts.joined(separator: "/") + (next() % 2 == 0 ? ".jpg" : ""))
        }
        let ordered = paths.sorted()
        var known = KnownFiles()
        for (i, path) in ordered.enumerated() {
            Array(path.utf8).withUnsafeBytes {
                known.append(path: $0, stamp: FileStamp(size: Int64(i), modified: Int64(i) * 7), isPhoto: i % 3 != 0, isMissing: i % 5 == 0)
            }
        }
        known.index()
        #expect(known.photoCount == ordered.indices.count { $0 % 3 != 0 })
        for (i, path) in ordered.enumerated() {
            let found = Self.find(known, path)
            #expect(found.map { known.path($0).string } == path)
            #expect(found.map { known.records[$0].stamp } == FileStamp(size: Int64(i), modified: Int64(i) * 7))
            #expect(found.map { known.records[$0].isMissing } == (i % 5 == 0))
        }
        // `A/B` is stored, `AB` too: neither stands for the other, nor does `A_B`; a tail or a
        // head of a stored path is not it, nor is a path that differs only where `/` would be.
        #expect(Self.find(known, "A_B") == nil)
        #expect(Self.find(known, "A/B/C") == nil)
        #expect(Self.find(known, "X/Y/Z.jp") == nil)
        #expect(Self.find(known, "Y/Z.jpg") == nil)
        #expect(Self.find(known, "QR/S.jpg") == nil)
    }

    @Test("What the walk did not mark seen is what `unseen` returns")
    func unseen() {
        var known = KnownFiles()
        for path in ["a/1.jpg", "a/2.jpg", "b/3.jpg"] {
            Array(path.utf8).withUnsafeBytes { known.append(path: $0, stamp: FileStamp(size: 1, modified: 2), isPhoto: true, isMissing: false) }
        }
        // A path in both tables: the later row stands for it, the earlier is never gone.
        Array("b/3.jpg".utf8).withUnsafeBytes { known.append(path: $0, stamp: FileStamp(size: 9, modified: 9), isPhoto: false, isMissing: false) }
        known.index()
        if let i = Self.find(known, "a/2.jpg") { known.markSeen(i) }
        #expect(Self.find(known, "b/3.jpg").map { known.records[$0].isPhoto } == false)
        #expect(Set(known.unseen().keys) == [RelativePath("a/1.jpg"), RelativePath("b/3.jpg")])
        if let i = Self.find(known, "b/3.jpg") { known.markSeen(i) }
        #expect(Set(known.unseen().keys) == [RelativePath("a/1.jpg")])
    }
}
