import Foundation
@testable import LibraryIndex
import PhotoFixtures
import Synchronization
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

    /// Records what one thread of a parallel walk saw; `onEntered` may hold the thread up.
    final class RecordingVisitor: FolderVisitor, @unchecked Sendable {  // each used by one thread
        var inside: RelativePath?
        var entered: [String] = []
        var files: [String] = []
        var misplaced: [String] = []
        let onEntered: @Sendable (RelativePath) -> Void

        init(onEntered: @escaping @Sendable (RelativePath) -> Void = { _ in }) {
            self.onEntered = onEntered
        }

        func entered(_ folder: RelativePath) {
            if inside != nil { misplaced.append("entered \(folder.string) inside \(inside!.string)") }
            inside = folder
            entered.append(folder.string)
            onEntered(folder)
        }

        func found(_ file: borrowing DirectoryWalker.FoundFile) {
            if inside != file.folder { misplaced.append(file.path.string) }
            files.append(file.path.string)
        }

        func left(_ folder: RelativePath) {
            if inside != folder { misplaced.append("left \(folder.string)") }
            inside = nil
        }
    }

    @Test("A parallel walk reports every file once, each folder to one visitor between its entered and left, as the sequential walk does")
    func parallelWalkFindsWhatTheSequentialOneFinds() throws {
        let tree = try TemporaryDirectory()
        var expected: Set<String> = []
        for year in 2019...2024 {
            for day in 1...12 {
                for n in 0..<(day % 4) {
                    let path = "\(year)/\(year)-01-\(day)/IMG_\(n).jpg"
                    try tree.write(path, [0xFF, 0xD8])
                    expected.insert(path)
                }
            }
        }
        try FileManager.default.createDirectory(atPath: tree.path + "/2020/locked", withIntermediateDirectories: true)
        chmod(tree.path + "/2020/locked", 0)
        defer { chmod(tree.path + "/2020/locked", 0o755) }
        let walker = DirectoryWalker(root: Array(tree.path.utf8), settings: .default)
        var sequential: [String] = []
        let sequentialFailures = walker.walkFiles { sequential.append($0.path.string) }

        for threads in [1, 2, 4] {
            let visitors = (0..<threads).map { _ in RecordingVisitor() }
            let failures = walker.walkFiles(visitors: visitors, shouldStop: { false })
            let files = visitors.flatMap(\.files)
            #expect(files.count == expected.count && Set(files) == expected, "\(threads) threads")
            #expect(Set(files) == Set(sequential))
            #expect(visitors.allSatisfy { $0.misplaced.isEmpty && $0.inside == nil }, "\(visitors.flatMap(\.misplaced))")
            let entered = visitors.flatMap(\.entered)
            #expect(entered.count == Set(entered).count, "no folder is listed twice")
            if getuid() != 0 {
                #expect(failures.map(\.path.string) == ["2020/locked"])
                #expect(sequentialFailures.map(\.path.string) == ["2020/locked"])
            }
        }
    }

    @Test("A parallel walk lists folders at once: one thread waits in a folder until another has entered one")
    func parallelWalkListsFoldersAtOnce() throws {
        let tree = try TemporaryDirectory()
        try tree.write("a/1.jpg", [0xFF, 0xD8])
        try tree.write("b/2.jpg", [0xFF, 0xD8])
        let entered = Mutex<Set<String>>([])
        let overlapped = Mutex(false)
        let visitors = (0..<2).map { _ in
            RecordingVisitor { folder in
                guard !folder.bytes.isEmpty else { return }
                entered.withLock { _ = $0.insert(folder.string) }
                // Wait (at most 10 s) until the other subfolder is entered too: only another thread can.
                let deadline = ContinuousClock.now + .seconds(10)
                while entered.withLock({ $0.count }) < 2 && ContinuousClock.now < deadline { Thread.sleep(forTimeInterval: 0.001) }
                if entered.withLock({ $0.count }) == 2 { overlapped.withLock { $0 = true } }
            }
        }
        let walker = DirectoryWalker(root: Array(tree.path.utf8), settings: .default)
        _ = walker.walkFiles(visitors: visitors, shouldStop: { false })
        #expect(overlapped.withLock { $0 })
        #expect(Set(visitors.flatMap(\.files)) == ["a/1.jpg", "b/2.jpg"])
    }

    @Test("A parallel walk stops when asked, and every thread ends")
    func parallelWalkStops() throws {
        let tree = try TemporaryDirectory()
        for n in 0..<40 { try tree.write("f\(n)/x.jpg", [0xFF, 0xD8]) }
        let listed = Mutex(0)
        let visitors = (0..<3).map { _ in RecordingVisitor { _ in listed.withLock { $0 += 1 } } }
        let walker = DirectoryWalker(root: Array(tree.path.utf8), settings: .default)
        _ = walker.walkFiles(visitors: visitors, shouldStop: { listed.withLock { $0 } >= 5 })
        let count = visitors.flatMap(\.entered).count
        #expect(count >= 5 && count < 10, "\(count) folders listed after a stop at 5")
    }
}
