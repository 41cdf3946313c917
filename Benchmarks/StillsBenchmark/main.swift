// Raw previews and `tiny` first paints, measured.
//
//   swift build -c release --product StillsBenchmark
//   SHOEBOX_CORPUS=../shared/corpus .build/release/StillsBenchmark [--rounds 5] [--count 60]
//
// 1. Raw previews/s: every raw file of the corpus that embeds a JPEG preview, rendered as a
//    `thumbnail` into an empty cache (find the JPEG, decode it, turn it, encode), one after
//    another; against `exiftool -b -PreviewImage FILE` per file, which only extracts the bytes.
// 2. Cold-screen fill: `--count` 12-megapixel JPEGs (4000 × 3000, quality 90, with a 160 × 120
//    EXIF thumbnail as cameras write it) into an empty cache: the `tiny` answers one after
//    another, then the real thumbnails as the viewer asks for them (all at once, the pool
//    running one render per core).
// 3. LibRaw decodes: a 6000 × 4000 Bayer DNG without a preview (`PhotoFixtures.cfaDNG`, 16-bit
//    uncompressed) into an empty cache at `thumbnail` and `preview` sizes (dcraw_emu half-size,
//    then libvips shrinks, turns and encodes), and dcraw_emu alone, half-size against whole.
//    `--only libraw` runs this part alone; skipped when dcraw_emu (libraw-bin) is not installed.
// 4. HEIF through ffmpeg: a 12-megapixel H.264 HEIF grid (libheif 1.15 cannot decode H.264, so
//    it goes to ffmpeg) against the same picture as HEVC, which libvips decodes (needs ffmpeg
//    with libx264 and libx265 to make them). `--only heif` runs this part alone.

import CVips
import Foundation
import PhotoFixtures
import Thumbnails

let arguments = CommandLine.arguments
func option(_ name: String, _ fallback: Int) -> Int {
    guard let index = arguments.firstIndex(of: name), index + 1 < arguments.count, let value = Int(arguments[index + 1]) else { return fallback }
    return max(1, value)
}
if let problem = ThumbnailCache.decoderProblem { fatalError("libvips: \(problem)") }
let rounds = option("--rounds", 5)
let count = option("--count", 60)
let only = arguments.firstIndex(of: "--only").flatMap { $0 + 1 < arguments.count ? arguments[$0 + 1] : nil }

func seconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
}

func source(_ path: String, id: Int64) -> ThumbnailSource {
    var status = stat()
    _ = stat(path, &status)
    return ThumbnailSource(id: id, path: path, fileSize: Int64(status.st_size), modified: Int64(status.st_mtim.tv_sec) * 1_000_000_000)
}

func run() async throws {
    let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("stills-benchmark-\(getpid())").path
    try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: scratch) }

    if only == "heif" { return try await heifFallback(scratch: scratch) }
    if only == nil || only == "libraw" { try await libRawDecodes(scratch: scratch) }
    if only == "libraw" { return }

    // MARK: 1. Raw previews

    let corpus = ProcessInfo.processInfo.environment["SHOEBOX_CORPUS"].map { $0 + "/photos" }
    let rawExtensions: Set<String> = ["nef", "cr2", "cr3", "crw", "raf", "rw2", "x3f", "arw", "dng", "orf", "pef", "srw", "mrw", "iiq"]
    var raws: [String] = []
    if let corpus, let walk = FileManager.default.enumerator(atPath: corpus) {
        for case let relative as String in walk where rawExtensions.contains((relative as NSString).pathExtension.lowercased()) {
            raws.append(corpus + "/" + relative)
        }
    }
    raws.sort()
    // A raw-like file with a camera-sized preview (1620 × 1080 in a 6000 × 4000 raw), as real ones have.
    let fixture = scratch + "/fixture.nef"
    _ = FileManager.default.createFile(atPath: fixture, contents: Data(PhotoFixtures.rawWithPreview(preview: (1620, 1080), thumbnail: (160, 120), orientation: 6)))
    raws.append(fixture)

    var shown: [String] = []
    var bestOurs = Double.infinity
    for round in 0..<rounds {
        let cache = ThumbnailCache(directory: scratch + "/raw-cache-\(round)")
        let start = ContinuousClock.now
        var real: [String] = []
        for (index, path) in raws.enumerated() {
            let image = await cache.image(for: source(path, id: Int64(index + 1)), size: .thumbnail)
            if !image.isPlaceholder { real.append(path) }
        }
        bestOurs = min(bestOurs, seconds(ContinuousClock.now - start))
        shown = real
    }

    func exiftoolSeconds(_ files: [String]) -> Double? {
        guard let exiftool = ["/usr/bin/exiftool", "/usr/local/bin/exiftool"].first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else { return nil }
        var best = Double.infinity
        for _ in 0..<rounds {
            let start = ContinuousClock.now
            for file in files {
                let process = Process()
                process.executableURL = URL(fileURLWithPath: exiftool)
                process.arguments = ["-b", "-PreviewImage", file]
                process.standardOutput = FileHandle.nullDevice
                process.standardError = FileHandle.nullDevice
                try? process.run()
                process.waitUntilExit()
            }
            best = min(best, seconds(ContinuousClock.now - start))
        }
        return best
    }

    print("raw previews: \(shown.count) of \(raws.count) raw files shown (corpus raws with a preview, plus a 6000 × 4000 fixture with a 1620 × 1080 preview)")
    for path in shown { print("  shown: \(path.hasPrefix(scratch) ? "fixture.nef" : String(path.dropFirst((corpus ?? "").count + 1)))") }
    print(String(format: "  Shoebox (find, decode, turn, encode a thumbnail): %.1f ms for %d files, %.0f previews/s (best of %d)",
                 bestOurs * 1000, raws.count, Double(raws.count) / bestOurs, rounds))
    if let theirs = exiftoolSeconds(raws) {
        print(String(format: "  exiftool -b -PreviewImage FILE (extract only):     %.1f ms for %d files, %.0f previews/s — Shoebox is %.1f×",
                     theirs * 1000, raws.count, Double(raws.count) / theirs, theirs / bestOurs))
    } else {
        print("  exiftool is not installed: no comparison")
    }

    // MARK: 2. Cold-screen fill

    print("\ncold screen: \(count) photos of 4000 × 3000 with EXIF thumbnails (making them...)")
    var photos: [String] = []
    for index in 0..<count {
        let path = scratch + "/photo-\(index).jpg"
        let plain = scratch + "/plain.jpg"
        let pixels = makeGradient(width: 4000, height: 3000, seed: UInt64(index))
        guard writeJPEG(pixels, width: 4000, height: 3000, path: plain, quality: 90),
              let small = thumbnailJPEG(plain) else { fatalError("libvips cannot write the benchmark's photos") }
        let photo = try [UInt8](Data(contentsOf: URL(fileURLWithPath: plain)))
        _ = FileManager.default.createFile(atPath: path, contents: Data(PhotoFixtures.insertingExifThumbnail(small, orientation: 1, into: photo)))
        photos.append(path)
    }

    var bestTiny = Double.infinity
    var bestFill = Double.infinity
    var tinyPlaceholders = 0
    for round in 0..<rounds {
        // The page cache is warm after the first round; each round has an empty thumbnail cache.
        let cache = ThumbnailCache(directory: scratch + "/screen-cache-\(round)")
        let start = ContinuousClock.now
        tinyPlaceholders = 0
        for (index, path) in photos.enumerated() {
            let image = await cache.image(for: source(path, id: Int64(index + 1)), size: .tiny)
            if image.isPlaceholder { tinyPlaceholders += 1 }
        }
        bestTiny = min(bestTiny, seconds(ContinuousClock.now - start))
        let fillStart = ContinuousClock.now
        await withTaskGroup(of: Void.self) { group in
            for (index, path) in photos.enumerated() {
                group.addTask { _ = await cache.image(for: source(path, id: Int64(index + 1)), size: .thumbnail) }
            }
        }
        bestFill = min(bestFill, seconds(ContinuousClock.now - fillStart))
    }
    print(String(format: "  %d tiny answers, one after another: %.0f ms in all, %.1f ms each (best of %d; %d placeholders)",
                 count, bestTiny * 1000, bestTiny * 1000 / Double(count), rounds, tinyPlaceholders))
    print(String(format: "  %d real thumbnails, all asked at once (%d cores): %.0f ms — the screen's fill time without tiny",
                 count, ProcessInfo.processInfo.activeProcessorCount, bestFill * 1000))

    // MARK: 4. HEIF through ffmpeg

    try await heifFallback(scratch: scratch)
}

/// 12-megapixel HEIF grids (4096 × 3072, 8 × 6 tiles of 512², as phones write them) of the same
/// picture: HEVC, which libvips decodes through libheif, and H.264, which libheif 1.15 cannot
/// decode, so Shoebox's fallback pipes it to ffmpeg. Previews one after another, each from an
/// empty cache.
func heifFallback(scratch: String) async throws {
    let tool = VideoTool()
    guard tool.problem == nil else {
        print("\nHEIF fallback: ffmpeg is not installed, not measured")
        return
    }
    print("\nHEIF: 12 MP grids of 48 tiles, one `preview` each from an empty cache (making them...)")
    let picture = "testsrc2=s=4096x3072,noise=alls=20:allf=t+u,untile=8x6"
    var files: [(name: String, path: String)] = []
    for (name, codec, encoder) in [
        ("HEVC 8-bit 4:2:0, libvips (libheif)", PhotoFixtures.HEIFCodec.hevc(chromaFormat: 1, bitDepth: 8),
         ["-c:v", "libx265", "-pix_fmt", "yuv420p", "-crf", "20", "-x265-params", "log-level=error:keyint=1", "-f", "hevc"]),
        ("H.264 4:2:0, ffmpeg fallback", PhotoFixtures.HEIFCodec.h264,
         ["-c:v", "libx264", "-g", "1", "-bf", "0", "-crf", "20", "-pix_fmt", "yuv420p", "-f", "h264"]),
    ] {
        let arguments = ["-f", "lavfi", "-i", picture, "-frames:v", "48"] + encoder + ["pipe:1"]
        guard case .success(let output) = tool.run(.ffmpeg, arguments, path: "lavfi", timeLimit: .seconds(300)) else {
            print("  ffmpeg could not encode the \(name) grid")
            return
        }
        let path = scratch + "/grid-\(files.count).heic"
        let file = PhotoFixtures.codedHEIF(stream: output.stdout, codec: codec, columns: 8, width: 4096, height: 3072)
        _ = FileManager.default.createFile(atPath: path, contents: Data(file))
        files.append((name, path))
    }
    for (index, file) in files.enumerated() {
        var best = Double.infinity
        var placeholder: String?
        for round in 0..<rounds {
            let cache = ThumbnailCache(directory: scratch + "/heif-cache-\(index)-\(round)")
            let start = ContinuousClock.now
            let image = await cache.image(for: source(file.path, id: Int64(index + 1)), size: .preview)
            best = min(best, seconds(ContinuousClock.now - start))
            placeholder = image.isPlaceholder ? image.error?.message ?? "no reason" : nil
        }
        let size = (try? FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int) ?? 0
        print(String(format: "  %@: %.0f ms (best of %d; %.1f MB%@)", file.name, best * 1000, rounds, Double(size) / 1e6,
                     placeholder.map { "; placeholder: " + $0 } ?? ""))
    }
}

// MARK: 3. LibRaw decodes

func libRawDecodes(scratch: String) async throws {
    let tool = VideoTool()
    guard tool.dcrawEmu != nil else {
        print("LibRaw decodes: dcraw_emu is not installed (Debian: libraw-bin); skipped\n")
        return
    }
    let path = scratch + "/bayer.dng"
    let file = PhotoFixtures.cfaDNG(width: 6000, height: 4000, orientation: 6)
    _ = FileManager.default.createFile(atPath: path, contents: Data(file))
    print("LibRaw decodes: a 6000 × 4000 Bayer DNG without a preview (\(file.count / 1_000_000) MB, uncompressed)")
    for size in [ThumbnailSize.thumbnail, .preview] {
        var best = Double.infinity
        var placeholder: String?
        for round in 0..<rounds {
            let cache = ThumbnailCache(directory: scratch + "/libraw-cache-\(size)-\(round)")
            let start = ContinuousClock.now
            let image = await cache.image(for: source(path, id: 1), size: size)
            best = min(best, seconds(ContinuousClock.now - start))
            if image.isPlaceholder { placeholder = image.error?.message ?? "a placeholder" }
        }
        print("  \(size.rawValue) through the cache: " + String(format: "%.0f ms", best * 1000) + " (best of \(rounds))" + (placeholder.map { "; PLACEHOLDER: " + $0 } ?? ""))
    }
    for half in [true, false] {
        var best = Double.infinity
        var bytes = 0
        for _ in 0..<rounds {
            let start = ContinuousClock.now
            let output = try tool.run(.dcrawEmu, ["-w", "-o", "1", "-t", "0", "-T"] + (half ? ["-h"] : []) + ["-Z", "-", path],
                                      path: path, timeLimit: .seconds(120)).get()
            best = min(best, seconds(ContinuousClock.now - start))
            bytes = output.stdout.count
        }
        print("  dcraw_emu \(half ? "-h (half-size)" : "whole"): " + String(format: "%.0f ms", best * 1000) + ", \(bytes / 1_000_000) MB of TIFF (best of \(rounds))")
    }
    print("")
}

try await run()

// MARK: Helpers

/// Smooth gradients with grain, so the JPEGs are camera-sized (about 2–3 MB).
func makeGradient(width: Int, height: Int, seed: UInt64) -> [UInt8] {
    var pixels = [UInt8](repeating: 0, count: width * height * 3)
    var state = seed &* 0x9E37_79B9_7F4A_7C15 | 1
    pixels.withUnsafeMutableBufferPointer { buffer in
        var index = 0
        for y in 0..<height {
            for x in 0..<width {
                state ^= state << 13; state ^= state >> 7; state ^= state << 17
                let grain = Int(state & 0x1F) - 16
                buffer[index] = UInt8(clamping: x * 255 / width + grain)
                buffer[index + 1] = UInt8(clamping: y * 255 / height + grain)
                buffer[index + 2] = UInt8(clamping: 128 + Int(seed % 64) + grain)
                index += 3
            }
        }
    }
    return pixels
}

func writeJPEG(_ pixels: [UInt8], width: Int, height: Int, path: String, quality: Int32) -> Bool {
    pixels.withUnsafeBytes { memory -> Bool in
        guard let image = shoebox_vips_image_from_memory(
            memory.baseAddress, memory.count, Int32(width), Int32(height), 3, Int32(SHOEBOX_VIPS_FORMAT_UCHAR))
        else { return false }
        defer { shoebox_vips_unref(image) }
        return shoebox_vips_jpegsave(image, path, quality) == 0
    }
}

/// A 160 × 120 JPEG of the photo at `path`, as a camera's EXIF thumbnail.
func thumbnailJPEG(_ path: String) -> [UInt8]? {
    var image: OpaquePointer?
    guard shoebox_vips_thumbnail(path, &image, 160, 120) == 0, let image else { return nil }
    defer { shoebox_vips_unref(image) }
    var buffer: UnsafeMutableRawPointer?
    var length = 0
    guard shoebox_vips_jpegsave_buffer(image, &buffer, &length, 80) == 0, let buffer else { return nil }
    defer { shoebox_vips_free(buffer) }
    return [UInt8](UnsafeRawBufferPointer(start: buffer, count: length))
}
