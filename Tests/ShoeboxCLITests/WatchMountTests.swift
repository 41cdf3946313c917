import Foundation
import GRDB
import PhotoFixtures
import Testing

@Suite("Watching a library on a disk that is unmounted and mounted again",
       .enabled(if: canMountInPrivateNamespace, "needs root and mount namespaces to mount the library's disk"))
struct WatchMountTests {
    @Test("Unmounted: said once, nothing removed or marked missing while the empty mount point is there; mounted again: watched, a new photo indexed")
    func unmountedAndMountedAgain() throws {
        let tree = try TemporaryDirectory()
        let library = SampleLibrary(count: 20, seed: 12)
        try library.write(to: tree.path + "/library")
        try tree.write("new.jpg", PhotoFixtures.jpeg(width: 8, height: 8))
        try FileManager.default.createDirectory(atPath: tree.path + "/photos", withIntermediateDirectories: true)
        let tool = ShoeboxProcess.executable.path
        let t = tree.path
        // The watcher, the mounts and the checks all in one private mount namespace; each wait is
        // bounded (about 30 s), and the watcher is stopped on every way out.
        let script = """
            mount -t tmpfs -o size=8m tmpfs '\(t)/photos' || exit 90
            cp -R '\(t)/library/.' '\(t)/photos/'
            '\(tool)' index '\(t)/photos' --db '\(t)/i.sqlite' --watch > '\(t)/watch.out' 2> '\(t)/watch.err' &
            watcher=$!
            trap 'kill -TERM $watcher 2>/dev/null; wait $watcher; umount '\\''\(t)/photos'\\'' 2>/dev/null' EXIT
            said() { n=0; until grep -q "$1" '\(t)/watch.out'; do n=$((n+1)); [ $n -gt 300 ] && return 1; sleep 0.1; done; }
            said ' added' || exit 91
            umount '\(t)/photos' || exit 92
            said 'was unmounted'
            sleep 2
            '\(tool)' backup '\(t)/away.sqlite' --db '\(t)/i.sqlite' > /dev/null 2> '\(t)/backup.err' || exit 94
            mount -t tmpfs -o size=8m tmpfs '\(t)/photos' || exit 95
            cp -R '\(t)/library/.' '\(t)/photos/'
            said 'is back' || exit 96
            cp '\(t)/new.jpg' '\(t)/photos/new.jpg'
            n=0
            until '\(tool)' photos --db '\(t)/i.sqlite' --json 2>/dev/null | grep -q '"new.jpg"'; do
                n=$((n+1)); [ $n -gt 100 ] && exit 97; sleep 0.3
            done
            exit 0
            """
        let status = try runWithPrivateMounts(script, deadline: .seconds(120))
        #expect(status == 0, "script ended with \(status): \(scriptOutput(t, "watch.out")) \(scriptOutput(t, "watch.err"))")
        let output = scriptOutput(t, "watch.out")
        #expect(output.components(separatedBy: "was unmounted").count == 2, "said once: \(output)")

        // While the disk was away the index kept every row, none marked missing.
        try #require(FileManager.default.fileExists(atPath: t + "/away.sqlite"), "\(scriptOutput(t, "backup.err"))")
        let away = try DatabaseQueue(path: t + "/away.sqlite")
        let (rows, missing) = try away.read { db in
            (try Int.fetchOne(db, sql: "SELECT count(*) FROM photo") ?? 0,
             try Int.fetchOne(db, sql: "SELECT count(*) FROM photo WHERE missingSince IS NOT NULL") ?? 0)
        }
        try away.close()
        #expect(rows == 20 && missing == 0, "while unmounted: \(rows) rows, \(missing) missing")
    }
}
