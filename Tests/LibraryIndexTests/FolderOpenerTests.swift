import Foundation
@testable import LibraryIndex
import PhotoFixtures
import Testing

@Suite("Opening files through their folder's descriptor")
struct FolderOpenerTests {
    /// The bytes of the file at `path` as `opener` opens it, or the error number it gave.
    static func contents(_ opener: inout FolderOpener, _ path: String) -> Result<String, Errno> {
        opener.open(RelativePath(path)).map { fd in
            defer { close(fd) }
            var buffer = [UInt8](repeating: 0, count: 64)
            let count = read(fd, &buffer, buffer.count)
            return String(decoding: buffer.prefix(max(0, count)), as: UTF8.self)
        }
    }

    static func prefix(_ tree: TemporaryDirectory) -> [UInt8] { Array(tree.path.utf8) + [UInt8(ascii: "/")] }

    @Test("Files of the root, of folders and of folders with the same start, in any order, each its own")
    func eachFileItsOwn() throws {
        let tree = try TemporaryDirectory()
        let paths = ["a.jpg", "2024/a.jpg", "2024/b.jpg", "2024-1/a.jpg", "2024/deep/a.jpg", "b.jpg", "2024/c.jpg"]
        for path in paths { try tree.write(path, Array(path.utf8)) }
        var opener = FolderOpener(rootPrefix: Self.prefix(tree))
        for path in paths + paths.reversed() {
            #expect(Self.contents(&opener, path) == .success(path))
        }
    }

    @Test("What a file's whole path refuses is refused alike: a missing file or folder, a symbolic link, a file for a folder")
    func refusalsAsByPath() throws {
        let tree = try TemporaryDirectory()
        try tree.write("f/a.jpg", Array("a".utf8))
        try tree.write("plain", Array("p".utf8))
        try FileManager.default.createSymbolicLink(atPath: tree.path + "/f/link.jpg", withDestinationPath: tree.path + "/f/a.jpg")
        var opener = FolderOpener(rootPrefix: Self.prefix(tree))
        for path in ["f/missing.jpg", "gone/a.jpg", "f/link.jpg", "plain/a.jpg", "f/a.jpg"] {
            let byPath = FileSystem.openForReading(Self.prefix(tree) + Array(path.utf8))
            if case .success(let fd) = byPath { close(fd) }
            let through = opener.open(RelativePath(path))
            if case .success(let fd) = through { close(fd) }
            #expect(through.map { _ in 0 } == byPath.map { _ in 0 }, "\(path)")
        }
        #expect(Self.contents(&opener, "f/a.jpg") == .success("a"))
    }

    @Test("A folder replaced while its files are read is seen within a descriptor's files")
    func replacedFolderSeen() throws {
        let tree = try TemporaryDirectory()
        try tree.write("f/a.jpg", Array("old".utf8))
        var opener = FolderOpener(rootPrefix: Self.prefix(tree))
        #expect(Self.contents(&opener, "f/a.jpg") == .success("old"))
        try FileManager.default.moveItem(atPath: tree.path + "/f", toPath: tree.path + "/moved")
        try tree.write("f/a.jpg", Array("new".utf8))
        var seen: [String] = []
        for _ in 0..<FolderOpener.filesPerDescriptor {
            if case .success(let text) = Self.contents(&opener, "f/a.jpg") { seen.append(text) }
        }
        #expect(seen.count == FolderOpener.filesPerDescriptor)
        #expect(seen.last == "new")
        #expect(Self.contents(&opener, "f/a.jpg") == .success("new"))
        // Another folder in between looks the folder up again at once.
        _ = Self.contents(&opener, "moved/a.jpg")
        try FileManager.default.removeItem(atPath: tree.path + "/f")
        #expect(Self.contents(&opener, "f/a.jpg") == .failure(Errno(ENOENT)))
    }

    @Test("A folder that may be passed through but not listed still opens its files", .enabled(if: getuid() != 0, "root ignores permissions"))
    func searchOnlyFolder() throws {
        let tree = try TemporaryDirectory()
        try tree.write("f/a.jpg", Array("a".utf8))
        chmod(tree.path + "/f", 0o311)
        defer { chmod(tree.path + "/f", 0o755) }
        var opener = FolderOpener(rootPrefix: Self.prefix(tree))
        #expect(Self.contents(&opener, "f/a.jpg") == .success("a"))
    }
}
