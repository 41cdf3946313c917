// Media benchmark (issue 25): video posters per second through Shoebox's thumbnail cache against
// plain `ffmpeg -ss 1 -i F -frames:v 1` per file, and the speed of a 1080p transcode as a
// multiple of real time. A program with numbers, not a test.
//
// Usage: MediaBenchmark [VIDEO_FOLDER] [--rounds N]
//   VIDEO_FOLDER defaults to ../shared/corpus/videos/files (relative to the working directory).
import Foundation
import Thumbnails

let arguments = Array(CommandLine.arguments.dropFirst())
var folder = "../shared/corpus/videos/files"
var rounds = 3
var index = 0
while index < arguments.count {
    if arguments[index] == "--rounds", index + 1 < arguments.count {
        rounds = max(1, Int(arguments[index + 1]) ?? 3)
        index += 2
    } else {
        folder = arguments[index]
        index += 1
    }
}

if !folder.hasPrefix("/") { folder = FileManager.default.currentDirectoryPath + "/" + folder }
let tool = VideoTool()
guard let ffmpeg = tool.ffmpeg, tool.problem == nil else {
    print("ffmpeg/ffprobe not installed: \(tool.problem ?? "")")
    exit(1)
}
let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted()
let files = names.map { folder + "/" + $0 }.filter { VideoContainer.sniff(path: $0) != nil }
guard !files.isEmpty else {
    print("No videos in \(folder).")
    exit(1)
}
let scratch = NSTemporaryDirectory() + "shoebox-media-benchmark-" + UUID().uuidString
try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(atPath: scratch) }

func seconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
}

func source(_ path: String, id: Int64) -> ThumbnailSource {
    var status = stat()
    stat(path, &status)
    return ThumbnailSource(id: id, path: path, fileSize: Int64(status.st_size), modified: Int64(status.st_mtim.tv_sec) * 1_000_000_000)
}

/// Plain ffmpeg as a user would run it: probing, default threads, frame 1 s in, JPEG to a pipe.
func plainFFmpeg(_ path: String) -> Bool {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: ffmpeg)
    process.arguments = ["-nostdin", "-loglevel", "error", "-ss", "1", "-i", path, "-frames:v", "1", "-f", "mjpeg", "pipe:1"]
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = FileHandle.nullDevice
    guard (try? process.run()) != nil else { return false }
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return !data.isEmpty
}

print("Posters of \(files.count) videos in \(folder), \(rounds) rounds, \(ProcessInfo.processInfo.activeProcessorCount) cores")
var shoeboxBest = Double.infinity, plainBest = Double.infinity, parallelBest = Double.infinity
var posters = 0, placeholders: [String] = [], plainFrames = 0
for round in 0..<rounds {
    // Shoebox, one after another, a fresh cache each round (posters at thumbnail size).
    let cache = ThumbnailCache(directory: scratch + "/cache-\(round)", limits: RenderLimits())
    var start = ContinuousClock.now
    posters = 0
    placeholders = []
    for (id, file) in files.enumerated() {
        let image = cache.image(for: source(file, id: Int64(id + 1)), size: .thumbnail)
        if image.isPlaceholder { placeholders.append((file as NSString).lastPathComponent + ": " + (image.error?.message ?? "")) } else { posters += 1 }
    }
    shoeboxBest = min(shoeboxBest, seconds(ContinuousClock.now - start))

    // Shoebox, all at once through the cache's pool (one ffmpeg per core).
    let parallel = ThumbnailCache(directory: scratch + "/parallel-\(round)", limits: RenderLimits())
    start = ContinuousClock.now
    let sources = files.enumerated().map { source($1, id: Int64($0 + 1)) }
    DispatchQueue.concurrentPerform(iterations: sources.count) { index in
        _ = parallel.image(for: sources[index], size: .thumbnail)
    }
    parallelBest = min(parallelBest, seconds(ContinuousClock.now - start))

    // Plain ffmpeg, one after another.
    start = ContinuousClock.now
    plainFrames = files.filter(plainFFmpeg).count
    plainBest = min(plainBest, seconds(ContinuousClock.now - start))
}
let count = Double(files.count)
print(String(format: "  shoebox posters (one at a time): %6.1f posters/s  (%d real, %d placeholders)", count / shoeboxBest, posters, placeholders.count))
print(String(format: "  shoebox posters (pool, parallel): %6.1f posters/s", count / parallelBest))
print(String(format: "  ffmpeg -ss 1 -i F -frames:v 1:     %6.1f files/s    (%d of %d gave a frame)", count / plainBest, plainFrames, files.count))
print(String(format: "  ratio shoebox/ffmpeg (one at a time): %.2f×", plainBest / shoeboxBest))
for line in placeholders { print("  placeholder: \(line)") }

// Transcode: a 10 s 1080p MPEG-4 Part 2 Matroska clip made by scripts/make-test-videos --big.
let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("scripts/make-test-videos").path
let samples = scratch + "/samples"
let make = Process()
make.executableURL = URL(fileURLWithPath: "/bin/sh")
make.arguments = [script, samples, "--big"]
try make.run()
make.waitUntilExit()
let big = samples + "/big1080.mkv"
guard make.terminationStatus == 0, FileManager.default.fileExists(atPath: big) else {
    print("Could not make the 1080p sample.")
    exit(1)
}
let playback = VideoPlayback(directory: scratch + "/videos")
let start = ContinuousClock.now
let answer = await playback.finishedAnswer(for: source(big, id: 1), poll: .milliseconds(20))
let elapsed = seconds(ContinuousClock.now - start)
guard case .transcoded(let output) = answer else {
    print("Transcode failed: \(answer)")
    exit(1)
}
let size = (try? FileManager.default.attributesOfItem(atPath: output)[.size] as? Int) ?? 0
print(String(format: "Transcode of a 10 s 1920×1080 30 fps MPEG-4 clip to H.264/AAC MP4 ≤1080p: %.2f s, %.2f× real time (%d threads), %.1f MB",
             elapsed, 10 / elapsed, playback.tool.threads, Double(size) / 1e6))
