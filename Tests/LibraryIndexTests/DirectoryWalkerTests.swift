import Foundation
@testable import LibraryIndex
import PhotoFixtures
import Testing

@Suite("Directory walker")
struct DirectoryWalkerTests {
    /// Every file the walk reports, with its stamp, in walk order.
    static func walk(_ root: String, trustsEntryTypes: Bool, wantsStamp: @escaping (RelativePath) -> Bool) -> [DirectoryWalker.Entry] {
        var walker = DirectoryWalker(root: Array(root.utf8), settings: .default)
        walker.trustsEntryTypes = trustsEntryTypes
        var entries: [DirectoryWalker.Entry] = []
        let failures = walker.walk(wantsStamp: wantsStamp) { entries.append($0) }
        #expect(failures.isEmpty)
        return entries
    }

    @Test("Without entry types (DT_UNKNOWN) the walk finds the same files, and skips links and hidden names")
    func sameWithoutEntryTypes() throws {
        let tree = try TemporaryDirectory()
        try tree.write("a.jpg", PhotoFixtures.jpeg(width: 8, height: 8))
        try tree.write("2024/b.jpg", PhotoFixtures.jpeg(width: 8, height: 8))
        try tree.write("2024/deep/c.txt", Array("note".utf8))
        try tree.write(".hidden/d.jpg", PhotoFixtures.jpeg(width: 8, height: 8))
        try FileManager.default.createSymbolicLink(atPath: tree.path + "/link.jpg", withDestinationPath: tree.path + "/a.jpg")
        try FileManager.default.createSymbolicLink(atPath: tree.path + "/loop", withDestinationPath: tree.path)
        mkfifo(tree.path + "/pipe", 0o644)

        let known: Set<RelativePath> = [RelativePath("a.jpg")]
        let typed = Self.walk(tree.path, trustsEntryTypes: true) { known.contains($0) }
        let untyped = Self.walk(tree.path, trustsEntryTypes: false) { known.contains($0) }
        #expect(Set(typed.map(\.path.string)) == ["a.jpg", "2024/b.jpg", "2024/deep/c.txt"])
        #expect(typed.map(\.path) == untyped.map(\.path))
        for entries in [typed, untyped] {
            // Only the file the caller knows is stamped.
            #expect(entries.filter { $0.stamp != nil }.map(\.path.string) == ["a.jpg"])
            #expect(entries.first { $0.path.string == "a.jpg" }?.stamp?.size == Int64(PhotoFixtures.jpeg(width: 8, height: 8).count))
        }
    }

    @Test("A folder's files come between the entered and left calls of that folder, and every entered folder is left")
    func enteredAndLeftBracketEachFolder() throws {
        let tree = try TemporaryDirectory()
        try tree.write("a.jpg", PhotoFixtures.jpeg(width: 8, height: 8))
        try tree.write("2024/b.jpg", PhotoFixtures.jpeg(width: 8, height: 8))
        try tree.write("2024/c.xmp", Array("<x/>".utf8))
        try tree.write("2024/deep/d.jpg", PhotoFixtures.jpeg(width: 8, height: 8))
        try FileManager.default.createDirectory(atPath: tree.path + "/empty", withIntermediateDirectories: true)

        var inside: RelativePath?
        var left: [String] = []
        var files: [String] = []
        _ = DirectoryWalker(root: Array(tree.path.utf8), settings: .default).walkFiles(
            entered: { folder in
                #expect(inside == nil, "\(folder.string) entered before \(inside?.string ?? "") was left")
                inside = folder
            },
            left: { folder in
                #expect(inside == folder)
                inside = nil
                left.append(folder.string)
            }
        ) { file in
            #expect(inside == file.folder, "\(file.path.string) reported outside its folder")
            files.append(file.path.string)
        }
        #expect(Set(left) == ["", "2024", "2024/deep", "empty"] && left.count == 4)
        #expect(Set(files) == ["a.jpg", "2024/b.jpg", "2024/c.xmp", "2024/deep/d.jpg"])
    }
}
