// Times `shoebox index` on generated photos: cold and warm first runs against the parallel read
// limit, unchanged re-runs against a `find` stat walk (at N files and, with --large, at a million),
// and exiftool and exiv2 reading the same tags.
//
//   swift build -c release --static-swift-stdlib --product shoebox && swift build -c release --static-swift-stdlib --product IndexBenchmark
//   .build/release/IndexBenchmark [--count 10000] [--folder DIR] [--keep] [--shoebox-only]
//                                 [--cold] [--large 1000000] [--large-folder DIR]
//   .build/release/IndexBenchmark --mixed [--count 10000]   # photos + a fifth as many videos
//   .build/release/IndexBenchmark --camera [--count 1000]   # camera-sized JPEGs (3 MB, maker note, thumbnail)
//
// `--cold` drops the page cache before each cold run (`echo 3 > /proc/sys/vm/drop_caches`: root
// only) and times a first index with the default jobs (which grow while reads go to the disk),
// with `--jobs 8` and with the most the default grows to, fixed, and the parallel read limit:
// `head -c 64K` of every file, 8 at a time; `--rounds N` (3) alternating rounds, medians shown
// (the warm comparison with exiv2 takes `--rounds` alternating rounds too: the best of them, and
// their medians). `--large N` builds a tree of N tiny JPEGs once
// (under /tmp, kept for the next run; `--large-folder` to choose where), indexes it once, then
// times an unchanged re-run against `find -printf '%s %T@'` on the same, warm, tree.
//
// `--camera` writes camera-sized JPEGs instead (`SampleLibrary(cameraSized:)`: a 4000 × 3000
// picture of about 3 MB, a 24 KB Canon-style maker note and a thumbnail in the Exif segment, GPS
// positions), so that the comparison is not only on small files.
//
// `--mixed` adds `count / 5` MP4 videos whose `moov` sits after 50 MB of media data (sparse
// files: the media data is a hole) and reports what reading each kind of file cost: `pread`
// calls and bytes per file, from the reader's own counter, and the whole run's `rchar`.
//
// The photos carry GPS positions in six cities (`SampleLibrary(positions: true)`), so a first index
// names their places when a places table is installed (`scripts/places-data`). Every tool reads the
// same tags (capture dates, sub-seconds, offsets, orientation, size, make, model and position) from
// the same files; exiv2 and exiftool run one process per core (`xargs -P`), as shoebox uses every
// core. Peak memory is the child's maximum resident set (measured with GNU time, `apt-get install
// time`).
//
// After the warm runs, one more fresh index runs inside this process with its phases timed
// (`IndexTimings`): where a slower first index spends its time.

import Foundation
import LibraryIndex
import PhotoFixtures
import PhotoLibrary
import PhotoMetadata
import Places

struct Measurement {
    var name: String
    var seconds: Double
    var peakMB: Double
    /// User plus system CPU time of the command and its children (from GNU `time`): on a machine
    /// busy with other work the wall time grows, this much less.
    var cpuSeconds: Double = .nan
}

/// Runs a command to completion, discarding its output; returns wall time, peak RSS and CPU time.
///
/// The peak comes from GNU `time` (`apt-get install time`) when it is installed: a child started
/// straight from this process would report this process's own high-water mark too.
func measure(_ name: String, _ arguments: [String]) -> Measurement {
    let gnuTime = "/usr/bin/time"
    let report = NSTemporaryDirectory() + "shoebox-bench-rss-\(getpid())"
    let hasTime = FileManager.default.isExecutableFile(atPath: gnuTime)
    defer { unlink(report) }
    let command = hasTime ? [gnuTime, "-f", "%M %U %S", "-o", report] + arguments : arguments
    var pid: pid_t = 0
    var actions: posix_spawn_file_actions_t = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
    let argv: [UnsafeMutablePointer<CChar>?] = command.map { strdup($0) } + [nil]
    defer { argv.forEach { free($0) } }
    let start = ContinuousClock.now
    let rc = posix_spawnp(&pid, command[0], &actions, nil, argv, environ)
    posix_spawn_file_actions_destroy(&actions)
    guard rc == 0 else {
        print("cannot start \(command[0]): \(String(cString: strerror(rc)))")
        return Measurement(name: name, seconds: .nan, peakMB: .nan)
    }
    var status: Int32 = 0
    waitpid(pid, &status, 0)
    let elapsed = ContinuousClock.now - start
    let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    let fields = hasTime ? ((try? String(contentsOfFile: report, encoding: .utf8)) ?? "").split(separator: " ").compactMap {
        Double($0.trimmingCharacters(in: .whitespacesAndNewlines))
    } : []
    return Measurement(
        name: name, seconds: seconds, peakMB: (fields.first ?? .nan) / 1024,
        cpuSeconds: fields.count == 3 ? fields[1] + fields[2] : .nan)
}

/// The median: the middle value, or the mean of the two middle ones.
func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    return sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
}

func shell(_ command: String, name: String? = nil) -> Measurement { measure(name ?? command, ["/bin/sh", "-c", command]) }

/// Empties the page, dentry and inode caches (root only); false when that is not allowed.
func dropCaches() -> Bool {
    sync()
    guard let handle = FileHandle(forWritingAtPath: "/proc/sys/vm/drop_caches") else { return false }
    defer { try? handle.close() }
    return (try? handle.write(contentsOf: Data("3\n".utf8))) != nil
}

func removeDatabase(_ path: String) {
    for suffix in ["", "-wal", "-shm", "-lock"] { try? FileManager.default.removeItem(atPath: path + suffix) }
}

/// Writes `library` under `root` with plain POSIX calls (a million files in a few minutes).
func writeTree(_ library: SampleLibrary, to root: String) throws {
    var folder = ""
    try library.forEachFile { file in
        let slash = file.path.lastIndex(of: "/")!
        let parent = String(file.path[..<slash])
        if parent != folder {
            try FileManager.default.createDirectory(atPath: root + "/" + parent, withIntermediateDirectories: true)
            folder = parent
        }
        let fd = open(root + "/" + file.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: file.path]) }
        defer { close(fd) }
        let written = file.bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        guard written == file.bytes.count else { throw CocoaError(.fileWriteOutOfSpace, userInfo: [NSFilePathErrorKey: file.path]) }
    }
}

/// An unchanged re-run inside this process: the indexer's own time, without starting a process
/// (which loads libvips and its hundred libraries) or parsing arguments.
func inProcessRerun(root: String, database: String) async throws -> Double {
    let store = try LibraryStore(path: database, mode: .readWrite)
    let start = ContinuousClock.now
    var last = IndexProgress()
    for try await progress in try Indexer(root: root, store: store).run() { last = progress }
    let elapsed = ContinuousClock.now - start
    guard last.phase == .completed, last.opened == 0 else { print("the in-process re-run was not an unchanged run: \(last)"); return .nan }
    return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
}

/// The best of two unchanged re-runs and of two `find` stat walks, alternating, after an untimed
/// walk and a read of the index: on a shared machine the first pass over a large tree after other
/// work pays for caches that the cold runs dropped.
func bestOfTwo(tree: String, database: String) -> (rerun: Measurement, find: Measurement) {
    _ = shell("find '\(tree)' -type f -printf '%s %T@\\n' > /dev/null; cat '\(database)' > /dev/null")
    var rerun: Measurement?
    var find: Measurement?
    for _ in 0..<2 {
        let r = measure("shoebox index (unchanged re-run)", [shoebox, "index", tree, "--db", database])
        let f = shell("find '\(tree)' -type f -printf '%s %T@\\n' > /dev/null", name: "find -printf '%s %T@' (stat walk)")
        if rerun == nil || r.seconds < rerun!.seconds { rerun = r }
        if find == nil || f.seconds < find!.seconds { find = f }
    }
    return (rerun!, find!)
}

func row(_ name: String, _ seconds: Double, _ note: String) -> String {
    name.padding(toLength: 52, withPad: " ", startingAt: 0) + String(format: "%8.3f   ", seconds) + note
}

// Arguments.
var count = 10_000
var folder: String?
var keep = false
var shoeboxOnly = false
var mixed = false
var camera = false
var countGiven = false
var cold = false
var rounds = 3
var large: Int?
var largeFolder: String?
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
    switch argument {
    case "--count": count = Int(arguments.popFirst() ?? "") ?? count; countGiven = true
    case "--camera": camera = true
    case "--folder": folder = arguments.popFirst()
    case "--keep": keep = true
    case "--shoebox-only": shoeboxOnly = true
    case "--mixed": mixed = true
    case "--cold": cold = true
    case "--rounds": rounds = max(1, Int(arguments.popFirst() ?? "") ?? rounds)
    case "--large": large = Int(arguments.popFirst() ?? "")
    case "--large-folder": largeFolder = arguments.popFirst()
    default:
        print("usage: IndexBenchmark [--count N] [--folder DIR] [--keep] [--shoebox-only] [--mixed] [--camera] [--cold] [--rounds N] [--large N] [--large-folder DIR]")
        exit(2)
    }
}

let shoebox = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("shoebox").path
guard FileManager.default.isExecutableFile(atPath: shoebox) else {
    print("Build the tool first: swift build -c release --static-swift-stdlib --product shoebox && swift build -c release --static-swift-stdlib --product IndexBenchmark")
    exit(1)
}
// Camera-sized files are some 3 MB each: 1,000 of them by default.
if camera && !countGiven { count = 1000 }
let work = folder ?? NSTemporaryDirectory() + (mixed ? "shoebox-bench-mixed-\(count)" : camera ? "shoebox-bench-camera-\(count)" : "shoebox-bench-gps-\(count)")
let photos = work + "/photos"
let database = work + "/index.sqlite"
if !FileManager.default.fileExists(atPath: photos) {
    print("Generating \(count) photos under \(photos)…")
    try writeTree(SampleLibrary(count: count, seed: 42, positions: !mixed, cameraSized: camera), to: photos)
}
if mixed {
    try runMixed()
    exit(0)
}
let files = try FileManager.default.subpathsOfDirectory(atPath: photos).filter { $0.hasSuffix(".jpg") }.sorted()
let cores = ProcessInfo.processInfo.activeProcessorCount
let defaultJobs = IndexSettings.default.readerThreads
print("\(files.count) JPEG files, \(cores) cores; default jobs: \(defaultJobs)")
let readLimit = "find '\(photos)' -type f -print0 | xargs -0 -P8 -n 64 head -c 64K > /dev/null"

// 1. Cold cache: a first index as after a reboot, against reading the same heads 8 at a time.
if cold {
    print("")
    print("Cold cache (page cache dropped before each), \(files.count) files, fresh database; median of \(rounds) alternating rounds")
    print("(the page cache and the disk are shared with whatever else runs: single runs vary by a tenth of a second)")
    print("what".padding(toLength: 52, withPad: " ", startingAt: 0) + " seconds   comparison")
    let variants: [(name: String, extra: [String])] = [
        ("shoebox index (default jobs: \(defaultJobs), growing to \(IndexSettings.coldJobs))", []),
        ("shoebox index --jobs 8 (fixed)", ["--jobs", "8"]),
        ("shoebox index --jobs \(IndexSettings.coldJobs) (fixed)", ["--jobs", "\(IndexSettings.coldJobs)"]),
    ]
    // The photos are cold, not the program: after the cache is dropped, a first index of one
    // photo in a folder of its own loads shoebox, its libraries and SQLite before each timing.
    // What starting shoebox costs cold is printed below on its own.
    let warmUp = work + "/warm-up"
    try? FileManager.default.createDirectory(atPath: warmUp + "/photo", withIntermediateDirectories: true)
    try? FileManager.default.removeItem(atPath: warmUp + "/photo/" + (files[0] as NSString).lastPathComponent)
    try FileManager.default.copyItem(atPath: photos + "/" + files[0], toPath: warmUp + "/photo/" + (files[0] as NSString).lastPathComponent)
    func loadShoebox() {
        removeDatabase(warmUp + "/index.sqlite")
        _ = measure("load", [shoebox, "index", warmUp + "/photo", "--db", warmUp + "/index.sqlite"])
    }
    var times: [[Double]] = Array(repeating: [], count: variants.count + 1)
    var dropped = true
    for _ in 0..<rounds where dropped {
        for (i, variant) in variants.enumerated() {
            removeDatabase(database)
            guard dropCaches() else {
                print("cannot drop the page cache (run as root): cold runs skipped")
                dropped = false
                break
            }
            loadShoebox()
            times[i].append(measure(variant.name, [shoebox, "index", photos, "--db", database] + variant.extra).seconds)
        }
        if dropped, dropCaches() { times[variants.count].append(shell(readLimit).seconds) }
    }
    if dropped, dropCaches() {
        let start = measure("start", [shoebox, "--help"])
        print(String(format: "(starting shoebox with a cold cache, `shoebox --help`: %.3f s, not included above)", start.seconds))
        let limit = median(times[variants.count])
        for (i, variant) in variants.enumerated() {
            let runs = times[i].map { String(format: "%.3f", $0) }.joined(separator: " ")
            print(row(variant.name, median(times[i]), String(format: "%.2f× the read limit (runs: %@)", median(times[i]) / limit, runs)))
        }
        let runs = times[variants.count].map { String(format: "%.3f", $0) }.joined(separator: " ")
        print(row("head -c 64K, 8 in parallel (read limit)", limit, "(reference; runs: \(runs))"))
    }
}

// Warm the cache.
_ = shell("find '\(photos)' -type f -print0 | xargs -0 cat > /dev/null")

// 2. Warm cache: a first index, then an unchanged re-run against a stat walk.
var results: [Measurement] = []
for (name, extra) in [("--jobs 8", ["--jobs", "8"]), ("--jobs \(cores) (one per core)", ["--jobs", "\(cores)"])] {
    removeDatabase(database)
    results.append(measure("shoebox index, fresh, \(name)", [shoebox, "index", photos, "--db", database] + extra))
}

// The default jobs, exiv2 and exiftool, best of `rounds` alternating rounds (exiftool once: it takes
// seconds), each tool one process per core over batches of 1,000 files.
let tags = ["-DateTimeOriginal", "-SubSecTimeOriginal", "-OffsetTimeOriginal", "-CreateDate", "-ModifyDate",
            "-Orientation", "-ImageWidth", "-ImageHeight", "-Make", "-Model", "-GPSLatitude", "-GPSLongitude"]
let exifKeys = ["Exif.Photo.DateTimeOriginal", "Exif.Photo.SubSecTimeOriginal", "Exif.Photo.OffsetTimeOriginal",
                "Exif.Photo.DateTimeDigitized", "Exif.Image.DateTime", "Exif.Image.Orientation",
                "Exif.Image.Make", "Exif.Image.Model", "Exif.GPSInfo.GPSLatitudeRef", "Exif.GPSInfo.GPSLatitude",
                "Exif.GPSInfo.GPSLongitudeRef", "Exif.GPSInfo.GPSLongitude"]
// Batches of 1,000 files, or fewer so that every core gets several (a 1,000-file tree in one
// batch would leave exiv2 one core).
let batch = min(1000, (files.count + cores * 4 - 1) / (cores * 4))
let parallel = "find '\(photos)' -type f -name '*.jpg' -print0 | xargs -0 -P \(cores) -n \(max(1, batch))"
// Exact keys (`-K`), as a user who knows the fields asks: exiv2's fastest way to read them. The `-g`
// figure (a pattern matched against every key of every file) is shown beside it.
let exiv2Exact = (name: "exiv2 -K, 12 exact keys (xargs -P \(cores))", arguments: exifKeys.map { "-K " + $0 }.joined(separator: " "))
let exiv2Grep = (name: "exiv2 -g, the same 12 as patterns", arguments: exifKeys.map { "-g " + $0 }.joined(separator: " "))
let exiftoolName = "exiftool -fast2 (xargs -P \(cores))"
let hasExiv2 = !shoeboxOnly && FileManager.default.isExecutableFile(atPath: "/usr/bin/exiv2")
let hasExiftool = !shoeboxOnly && FileManager.default.isExecutableFile(atPath: "/usr/bin/exiftool")
if !shoeboxOnly && !hasExiv2 { print("exiv2 not installed (apt-get install exiv2): skipped") }
if !shoeboxOnly && !hasExiftool { print("exiftool not installed (apt-get install libimage-exiftool-perl): skipped") }

/// The runs of one tool over the alternating rounds, and its best.
struct Runs {
    var best: Measurement?
    var seconds: [Double] = []

    mutating func add(_ run: Measurement) {
        seconds.append(run.seconds)
        if best == nil || run.seconds < best!.seconds { best = run }
    }
}

// Alternating rounds: shoebox, exiv2 -K, exiv2 -g, so that a busier moment of the machine falls on each.
var freshRuns = Runs(), exactRuns = Runs(), grepRuns = Runs()
for _ in 0..<rounds {
    removeDatabase(database)
    freshRuns.add(measure("shoebox index, fresh, default jobs: \(defaultJobs)", [shoebox, "index", photos, "--db", database]))
    if hasExiv2 {
        exactRuns.add(shell("\(parallel) exiv2 -q -Pkv \(exiv2Exact.arguments) > /dev/null", name: exiv2Exact.name))
        grepRuns.add(shell("\(parallel) exiv2 -q -Pkv \(exiv2Grep.arguments) > /dev/null", name: exiv2Grep.name))
    }
}
let bestFresh = freshRuns.best!
results.append(bestFresh)
let fresh = bestFresh.seconds
let (rerun, statWalk) = bestOfTwo(tree: photos, database: database)
results.append(rerun)
results.append(statWalk)

var others: [Measurement] = [exactRuns.best, grepRuns.best].compactMap { $0 }
if hasExiftool {
    others.append(shell("\(parallel) exiftool -q -fast2 -j -n \(tags.joined(separator: " ")) > /dev/null", name: exiftoolName))
}

print("")
print("Warm cache, \(files.count) files")
print("tool".padding(toLength: 44, withPad: " ", startingAt: 0) + "seconds    files/s   peak MB    CPU s   comparison")
for m in results + others {
    let comparison: String
    if m.name == rerun.name {
        comparison = String(format: "%.2f× the stat walk", m.seconds / statWalk.seconds)
    } else if m.name == statWalk.name {
        comparison = "(reference for re-runs)"
    } else if others.contains(where: { $0.name == m.name }) {
        comparison = String(format: "shoebox is %.2f× as fast (CPU time: %.2f×)", m.seconds / fresh, m.cpuSeconds / bestFresh.cpuSeconds)
    } else if m.name == bestFresh.name {
        comparison = "best of \(freshRuns.seconds.count): " + freshRuns.seconds.map { String(format: "%.3f", $0) }.joined(separator: " ")
    } else {
        comparison = ""
    }
    print(m.name.padding(toLength: 44, withPad: " ", startingAt: 0)
        + String(format: "%7.3f  %9.0f  %8.1f  %7.3f   ", m.seconds, Double(files.count) / m.seconds, m.peakMB, m.cpuSeconds) + comparison)
}

// The verdict: medians of the alternating rounds, exact keys first.
for (label, runs) in [("exiv2 -K", exactRuns), ("exiv2 -g", grepRuns)] where !runs.seconds.isEmpty {
    let ratios = zip(freshRuns.seconds, runs.seconds).map { $1 / $0 }.sorted()
    let numbers = String(format: "medians of %d alternating rounds: shoebox %.3f s, %.3f s; shoebox %.2f× as fast; per round %.2f× to %.2f×",
                         freshRuns.seconds.count, median(freshRuns.seconds), median(runs.seconds),
                         median(runs.seconds) / median(freshRuns.seconds), ratios.first!, ratios.last!)
    print("(\(label): \(numbers); \(label) runs: " + runs.seconds.map { String(format: "%.3f", $0) }.joined(separator: " ") + ")")
}

// Where a fresh index spends its time: one more, inside this process, its phases timed.
try await printPhases()

// 3. Unchanged re-runs side by side with `find` at N files and at the large size.
let start = measure("shoebox --help", [shoebox, "--help"])
var reruns: [(files: Int, shoebox: Measurement, find: Measurement, inProcess: Double)] = [
    (files.count, rerun, statWalk, try await inProcessRerun(root: photos, database: database)),
]
if let large {
    let root = largeFolder ?? "/tmp/shoebox-bench-large-\(large)"
    let tree = root + "/photos"
    let index = root + "/index.sqlite"
    if !FileManager.default.fileExists(atPath: root + "/complete") {
        print("")
        print("Writing \(large) tiny JPEGs under \(tree) (once; kept for later runs)…")
        try? FileManager.default.removeItem(atPath: root)
        try writeTree(SampleLibrary(count: large, seed: 7), to: tree)
        _ = FileManager.default.createFile(atPath: root + "/complete", contents: nil)
    }
    if !FileManager.default.fileExists(atPath: index) {
        let first = measure("first index", [shoebox, "index", tree, "--db", index])
        print(String(format: "first index of %d files: %.1f s, peak %.0f MB", large, first.seconds, first.peakMB))
    }
    let (again, walk) = bestOfTwo(tree: tree, database: index)
    reruns.append((large, again, walk, try await inProcessRerun(root: tree, database: index)))
}
print("")
print("Unchanged re-index against a `find -printf '%s %T@'` stat walk of the same tree (warm cache, best of 2)")
print("files        shoebox index   peak MB   find -printf   ratio   in-process re-run   ratio")
for (n, s, f, p) in reruns {
    print(String(format: "%-12d %11.3f s  %8.1f   %10.3f s   %.2f×   %15.3f s   %.2f×", n, s.seconds, s.peakMB, f.seconds, s.seconds / f.seconds, p, p / f.seconds))
}
print(String(format: "(starting the shoebox process alone, `shoebox --help`: %.3f s)", start.seconds))
if !keep && folder == nil { try? FileManager.default.removeItem(atPath: work) }

/// A fresh index of the photos inside this process, with the installed places table and the stored
/// sections, as `shoebox index` does; prints the time of each phase, then checks that the places and
/// the search index were filled.
func printPhases() async throws {
    let phaseDatabase = work + "/phases.sqlite"
    removeDatabase(phaseDatabase)
    defer { removeDatabase(phaseDatabase) }
    let store = try LibraryStore(path: phaseDatabase, mode: .readWrite)
    store.persistTimeline(with: SectionTablePersister(settings: ShoeboxConfiguration.default.sections))
    var indexer = try Indexer(root: photos, store: store, places: LazyPlaceTable.installed { print("places: \($0.message)") })
    let timings = IndexTimings()
    indexer.timings = timings
    let start = ContinuousClock.now
    for try await _ in indexer.run() {}
    let wall = ContinuousClock.now - start
    func seconds(_ d: Duration) -> Double { Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18 }
    print("")
    print("Phases of a fresh index in this process (\(files.count) files, default jobs; threads' times added up)")
    print("phase".padding(toLength: 44, withPad: " ", startingAt: 0) + "seconds")
    for phase in IndexTimings.Phase.allCases {
        var time = timings[phase]
        // Each of these holds the next one's time too: shown apart.
        if phase == .read { time -= timings[.placeLookup] }
        if phase == .insert { time -= timings[.searchIndex] }
        if phase == .finish { time -= timings[.sections] }
        print(phase.name.padding(toLength: 44, withPad: " ", startingAt: 0) + String(format: "%7.3f", seconds(time)))
    }
    print("whole run (wall)".padding(toLength: 44, withPad: " ", startingAt: 0) + String(format: "%7.3f", seconds(wall)))
    let named = try store.placeCounts().places.reduce(0) { $0 + $1.count }
    let found = try store.photoIDs(matching: SearchQuery("shoebox")).count
    print("photos with a place: \(named); found by searching \"shoebox\": \(found)")
}

/// The mixed tree: the photos plus `count / 5` videos with 50 MB of media data before `moov`.
@MainActor func runMixed() throws {
    let videos = photos + "/videos"
    let videoCount = max(1, count / 5)
    let mediaData = 50 * 1024 * 1024
    if !FileManager.default.fileExists(atPath: videos) {
        print("Writing \(videoCount) sparse videos (\(mediaData / 1024 / 1024) MB mdat before moov) under \(videos)…")
        try FileManager.default.createDirectory(atPath: videos, withIntermediateDirectories: true)
        for index in 0..<videoCount {
            var movie = MovieFixture(width: index % 3 == 0 ? 1080 : 1920, height: index % 3 == 0 ? 1920 : 1080)
            movie.mediaDataSize = mediaData
            movie.duration = Double(2 + index % 60)
            movie.mediaCreated = 1_609_459_200 + Int64(index) * 3_600
            movie.quickTime = index % 2 == 0
            try movie.write(to: videos + String(format: "/VID_%05d.%@", index, movie.quickTime ? "mov" : "mp4"))
        }
    }
    let all = try FileManager.default.subpathsOfDirectory(atPath: photos).sorted()
    // Only the photos are read into the cache: the videos' media data is a hole that would read as 50 MB of zeros.
    _ = shell("find '\(photos)' -type f -name '*.jpg' -print0 | xargs -0 cat > /dev/null")

    var cost: [MediaType: (files: Int, reads: Int, bytes: Int, maxBytes: Int, apparent: Int)] = [:]
    for path in all {
        let full = photos + "/" + path
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: full, isDirectory: &isDirectory), !isDirectory.boolValue else { continue }
        let (result, spent) = MetadataReader().readMeasuringCost(atPath: full)
        guard let metadata = try? result.get() else { continue }
        let size = (try? FileManager.default.attributesOfItem(atPath: full)[.size] as? Int) ?? 0
        var entry = cost[metadata.mediaType] ?? (0, 0, 0, 0, 0)
        entry.files += 1
        entry.reads += spent.reads
        entry.bytes += spent.bytes
        entry.maxBytes = max(entry.maxBytes, spent.bytes)
        entry.apparent += size
        cost[metadata.mediaType] = entry
    }
    print("")
    print("kind     files   reads/file   bytes read/file   max bytes   file size (mean)")
    for kind in [MediaType.photo, .video] {
        guard let entry = cost[kind], entry.files > 0 else { continue }
        print(kind.rawValue.padding(toLength: 6, withPad: " ", startingAt: 0)
            + String(format: "%8d %12.2f %17.0f %11d %15.0f KB", entry.files, Double(entry.reads) / Double(entry.files),
                     Double(entry.bytes) / Double(entry.files), entry.maxBytes, Double(entry.apparent) / Double(entry.files) / 1024))
    }

    removeDatabase(database)
    // A shell's /proc/PID/io includes the reads of the children it waited for.
    let report = NSTemporaryDirectory() + "shoebox-bench-io-\(getpid())"
    defer { unlink(report) }
    let run = shell("'\(shoebox)' index '\(photos)' --db '\(database)' > /dev/null && grep rchar /proc/$$/io > '\(report)'")
    let rchar = (try? String(contentsOfFile: report, encoding: .utf8))?.split(separator: " ").last.flatMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) } ?? -1
    let rerun = measure("re-run", [shoebox, "index", photos, "--db", database])
    let files = cost.values.reduce(0) { $0 + $1.files }
    print("")
    print(String(format: "shoebox index, mixed tree of %d files: %.3f s fresh (%.0f files/s), %.3f s unchanged re-run, peak %.1f MB",
                 files, run.seconds, Double(files) / run.seconds, rerun.seconds, run.peakMB))
    print(String(format: "whole run read %d bytes (rchar, SQLite included): %.0f bytes per file", rchar, Double(rchar) / Double(max(files, 1))))
    if !keep && folder == nil { try? FileManager.default.removeItem(atPath: work) }
}
