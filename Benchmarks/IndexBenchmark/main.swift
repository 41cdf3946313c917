// Times `shoebox index` side by side with exiftool and exiv2 on the same generated photos.
//
//   swift build -c release --product shoebox --product IndexBenchmark
//   .build/release/IndexBenchmark [--count 10000] [--folder DIR] [--keep] [--shoebox-only]
//
// Every tool reads the same tags (capture dates, sub-seconds, offsets, orientation, size, make and
// model) from the same files with a warm cache. Peak memory is the child's maximum resident set
// (measured with GNU time, `apt-get install time`).

import Foundation
import PhotoFixtures

struct Measurement {
    var name: String
    var seconds: Double
    var peakMB: Double
}

/// Runs a command to completion, discarding its output; returns wall time and peak RSS.
///
/// The peak comes from GNU `time` (`apt-get install time`) when it is installed: a child started
/// straight from this process would report this process's own high-water mark too.
func measure(_ name: String, _ arguments: [String]) -> Measurement {
    let gnuTime = "/usr/bin/time"
    let report = NSTemporaryDirectory() + "shoebox-bench-rss-\(getpid())"
    let hasTime = FileManager.default.isExecutableFile(atPath: gnuTime)
    defer { unlink(report) }
    let command = hasTime ? [gnuTime, "-f", "%M", "-o", report] + arguments : arguments
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
    let kilobytes = hasTime ? (try? String(contentsOfFile: report, encoding: .utf8)).flatMap { Double($0.trimmingCharacters(in: .whitespacesAndNewlines)) } : nil
    return Measurement(name: name, seconds: seconds, peakMB: (kilobytes ?? .nan) / 1024)
}

func shell(_ command: String) -> Measurement { measure(command, ["/bin/sh", "-c", command]) }

// Arguments.
var count = 10_000
var folder: String?
var keep = false
var shoeboxOnly = false
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
    switch argument {
    case "--count": count = Int(arguments.popFirst() ?? "") ?? count
    case "--folder": folder = arguments.popFirst()
    case "--keep": keep = true
    case "--shoebox-only": shoeboxOnly = true
    default:
        print("usage: IndexBenchmark [--count N] [--folder DIR] [--keep] [--shoebox-only]")
        exit(2)
    }
}

let shoebox = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("shoebox").path
guard FileManager.default.isExecutableFile(atPath: shoebox) else {
    print("Build the tool first: swift build -c release --product shoebox --product IndexBenchmark")
    exit(1)
}
let work = folder ?? NSTemporaryDirectory() + "shoebox-bench-\(count)"
let photos = work + "/photos"
let database = work + "/index.sqlite"
if !FileManager.default.fileExists(atPath: photos) {
    print("Generating \(count) photos under \(photos)…")
    try SampleLibrary(count: count, seed: 42).write(to: photos)
}
let files = try FileManager.default.subpathsOfDirectory(atPath: photos).filter { $0.hasSuffix(".jpg") }.sorted()
print("\(files.count) JPEG files, \(ProcessInfo.processInfo.activeProcessorCount) cores")

// Warm the cache.
_ = shell("find '\(photos)' -type f -print0 | xargs -0 cat > /dev/null")

var results: [Measurement] = []
try? FileManager.default.removeItem(atPath: database)
for suffix in ["-wal", "-shm", "-lock"] { try? FileManager.default.removeItem(atPath: database + suffix) }
results.append(measure("shoebox index (fresh database)", [shoebox, "index", photos, "--db", database]))
results.append(measure("shoebox index (unchanged re-run)", [shoebox, "index", photos, "--db", database]))
results.append(shell("find '\(photos)' -type f -printf '%s %T@\\n' > /dev/null"))
results[results.count - 1].name = "find -printf size+mtime (stat walk)"

let tags = ["-DateTimeOriginal", "-SubSecTimeOriginal", "-OffsetTimeOriginal", "-CreateDate", "-ModifyDate",
            "-Orientation", "-ImageWidth", "-ImageHeight", "-Make", "-Model"]
if shoeboxOnly {
    // Only shoebox and the stat walk.
} else if FileManager.default.isExecutableFile(atPath: "/usr/bin/exiftool") {
    results.append(measure("exiftool -fast2 -r", ["exiftool", "-fast2", "-r", "-j", "-n"] + tags + [photos]))
} else {
    print("exiftool not installed (apt-get install libimage-exiftool-perl): skipped")
}
if shoeboxOnly {
} else if FileManager.default.isExecutableFile(atPath: "/usr/bin/exiv2") {
    // Batches of 1,000 files per exiv2 process, one after another.
    let keys = ["Exif.Photo.DateTimeOriginal", "Exif.Photo.SubSecTimeOriginal", "Exif.Photo.OffsetTimeOriginal",
                "Exif.Photo.DateTimeDigitized", "Exif.Image.DateTime", "Exif.Image.Orientation",
                "Exif.Image.Make", "Exif.Image.Model"].flatMap { ["-g", $0] }
    var total = Measurement(name: "exiv2 (batches of 1,000)", seconds: 0, peakMB: 0)
    for start in stride(from: 0, to: files.count, by: 1000) {
        let batch = files[start..<min(start + 1000, files.count)].map { photos + "/" + $0 }
        let m = measure("exiv2", ["exiv2", "-q", "-Pkv"] + keys + batch)
        total.seconds += m.seconds
        total.peakMB = max(total.peakMB, m.peakMB)
    }
    results.append(total)
} else {
    print("exiv2 not installed (apt-get install exiv2): skipped")
}

let fresh = results[0].seconds
let statWalk = results[2].seconds
print("")
print("tool".padding(toLength: 38, withPad: " ", startingAt: 0) + "seconds    files/s   peak MB   comparison")
for (i, m) in results.enumerated() {
    let rate = Double(files.count) / m.seconds
    let comparison: String
    switch i {
    case 0: comparison = ""
    case 1: comparison = String(format: "%.1f× the stat walk", m.seconds / statWalk)
    case 2: comparison = "(reference for re-runs)"
    default: comparison = String(format: "shoebox is %.1f× faster", m.seconds / fresh)
    }
    print(m.name.padding(toLength: 38, withPad: " ", startingAt: 0)
        + String(format: "%7.3f  %9.0f  %8.1f   ", m.seconds, rate, m.peakMB) + comparison)
}
if !keep && folder == nil { try? FileManager.default.removeItem(atPath: work) }
