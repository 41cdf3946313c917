// Times `shoebox adjust --shift` on N generated photos (sidecars written, journaled, the index
// updated) and its `--undo`, against exiftool writing the same three dates into the same
// sidecars, one process per core (`xargs -P`), on the same cores.
//
//   swift build -c release --static-swift-stdlib --product shoebox && swift build -c release --static-swift-stdlib --product AdjustBenchmark
//   .build/release/AdjustBenchmark [--count 10000] [--rounds 3] [--folder DIR] [--keep]
//
// Each round: shoebox adjust FOLDER --shift +1h (creates N sidecars), shoebox adjust --undo
// (removes them), then exiftool creating the same N sidecars with the three shifted dates
// (`-tagsFromFile @ -globalTimeShift`), which are then removed. The best of the rounds is shown,
// with the medians.

import Foundation
import PhotoFixtures
import Spawn

func argument(_ name: String) -> String? {
    let arguments = CommandLine.arguments
    guard let index = arguments.firstIndex(of: name), index + 1 < arguments.count else { return nil }
    return arguments[index + 1]
}

let count = Int(argument("--count") ?? "") ?? 10_000
let rounds = max(1, Int(argument("--rounds") ?? "") ?? 3)
let keep = CommandLine.arguments.contains("--keep")
let base = argument("--folder") ?? NSTemporaryDirectory() + "shoebox-adjust-benchmark-\(getpid())"
let photos = base + "/photos"
let database = base + "/library.sqlite"
let cores = ProcessInfo.processInfo.activeProcessorCount
let shoebox = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("shoebox").path
guard FileManager.default.isExecutableFile(atPath: shoebox) else {
    print("Build shoebox beside this program first: swift build -c release --product shoebox")
    exit(1)
}

/// Runs a command to completion with its output discarded; the wall-clock seconds, or nil when it failed.
func seconds(_ arguments: [String]) -> Double? {
    let process = ChildProcess()
    process.executableURL = URL(fileURLWithPath: arguments[0])
    process.arguments = Array(arguments.dropFirst())
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    let start = ContinuousClock.now
    do { try process.run() } catch { return nil }
    process.waitUntilExit()
    let elapsed = ContinuousClock.now - start
    guard process.terminationStatus == 0 else {
        print("failed (\(process.terminationStatus)): \(arguments.joined(separator: " "))")
        return nil
    }
    return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
}

func shell(_ command: String) -> Double? { seconds(["/bin/sh", "-c", command]) }

func sidecars() -> Int {
    (FileManager.default.enumerator(atPath: photos)?.allObjects as? [String] ?? []).filter { $0.hasSuffix(".xmp") }.count
}

// The library: N small JPEGs with EXIF dates (some with sub-seconds and offsets), 100 per folder.
if !FileManager.default.fileExists(atPath: photos) {
    print("Writing \(count) photos to \(photos)")
    for index in 0..<count {
        let folder = photos + "/\(2000 + index / 1000)/\(index / 100 % 10)"
        if index % 100 == 0 { try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true) }
        let second = index % 60
        let exif = ExifFields(
            dateTimeOriginal: "\(2000 + index / 1000):0\(1 + index % 9):1\(index % 9) 1\(index % 10):\(10 + index % 50):\(second < 10 ? "0" : "")\(second)",
            subSecTimeOriginal: index % 3 == 0 ? "\(index % 1000)" : nil, offsetTimeOriginal: index % 2 == 0 ? "+02:00" : nil)
        FileManager.default.createFile(atPath: folder + "/IMG_\(index).jpg", contents: Data(PhotoFixtures.jpeg(width: 8, height: 8, exif: exif)))
    }
}
for suffix in ["", "-wal", "-shm", "-lock"] { try? FileManager.default.removeItem(atPath: database + suffix) }
guard seconds([shoebox, "index", photos, "--db", database]) != nil else { exit(1) }
print("Indexed \(count) photos; \(cores) cores; best of \(rounds) rounds (medians after)")

let parallel = "cd \(photos) && find . -name '*.jpg' -print0 | xargs -0 -P \(cores) -n 1000"
let exiftoolCommand = "\(parallel) exiftool -q -o %d%f.%e.xmp -tagsFromFile @ -globalTimeShift 1 "
    + "'-XMP-exif:DateTimeOriginal<DateTimeOriginal' '-XMP-photoshop:DateCreated<DateTimeOriginal' '-XMP-xmp:CreateDate<DateTimeOriginal'"
let hasExiftool = FileManager.default.isExecutableFile(atPath: "/usr/bin/exiftool")
if !hasExiftool { print("exiftool is not installed (apt-get install libimage-exiftool-perl): shoebox alone") }

var shifts: [Double] = []
var undos: [Double] = []
var exiftools: [Double] = []
for round in 1...rounds {
    guard let shift = seconds([shoebox, "adjust", photos, "--shift", "+1h", "--db", database]) else { exit(1) }
    let written = sidecars()
    guard let undo = seconds([shoebox, "adjust", "--undo", "--db", database]) else { exit(1) }
    let left = sidecars()
    shifts.append(shift)
    undos.append(undo)
    var line = "round \(round): shoebox adjust --shift \(String(format: "%.3f", shift)) s (\(written) sidecars), --undo \(String(format: "%.3f", undo)) s (\(left) left)"
    if hasExiftool, let exiftool = shell(exiftoolCommand) {
        line += ", exiftool \(String(format: "%.3f", exiftool)) s (\(sidecars()) sidecars)"
        exiftools.append(exiftool)
        _ = shell("find \(photos) -name '*.xmp' -delete")
    }
    print(line)
}

func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }
func row(_ name: String, _ values: [Double]) {
    print(name.padding(toLength: 46, withPad: " ", startingAt: 0) + String(format: "%9.3f s  %9.3f s", values.min()!, median(values)))
}
print("")
print("".padding(toLength: 46, withPad: " ", startingAt: 0) + "     best     median")
row("shoebox adjust --shift +1h (\(count) photos)", shifts)
row("shoebox adjust --undo", undos)
if !exiftools.isEmpty {
    row("exiftool, xargs -P \(cores)", exiftools)
    print(String(format: "  exiftool against shoebox's shift: %.1fx best, %.1fx by medians", exiftools.min()! / shifts.min()!, median(exiftools) / median(shifts)))
    print(String(format: "  exiftool against shoebox's undo:  %.1fx best, %.1fx by medians", exiftools.min()! / undos.min()!, median(exiftools) / median(undos)))
}
if !keep { try? FileManager.default.removeItem(atPath: base) }
