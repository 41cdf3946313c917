import CVips
import Foundation
import PhotoMetadata
import Spawn

/// A second decoder for JPEGs libvips gives up on: libjpeg-turbo's `djpeg`, run as a child
/// process with a time limit, which, like a browser, renders a damaged file as far as it goes
/// (libvips stops after 100 corrupt-data warnings, `corrupted.jpg` of the corpus among them).
///
/// `djpeg` scales in the DCT domain (`-scale 1/N`), so it hands over no more pixels than the
/// rendition needs; libvips shrinks the rest, applies the EXIF orientation and encodes.
enum JPEGFallback {
    /// The decoder, looked up once on `PATH` (Debian's `libjpeg-turbo-progs`); nil when absent.
    static let decoder: String? = {
        let directories = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
        return directories.map { $0 + "/djpeg" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }()

    /// `result` when it is an image or the file is no JPEG; otherwise what `djpeg` makes of it,
    /// or the original failure when that fails too.
    static func rescue(_ result: Result<[UInt8], ThumbnailError>, path: String, header: Renderer.Header, size: ThumbnailSize, timeLimit: Duration) -> Result<[UInt8], ThumbnailError> {
        guard case .failure(let error) = result, error.code == .undecodable, let decoder, isJPEG(path) else { return result }
        let start = ContinuousClock.now
        let display = header.swapped ? (header.height, header.width) : (header.width, header.height)
        let box = size.box(displayWidth: display.0, displayHeight: display.1)
        let wanted = header.swapped ? (box.height, box.width) : (box.width, box.height)
        // The largest power-of-two reduction that still leaves at least the box.
        var scale = 1
        while scale < 8, header.width / (scale * 2) >= min(wanted.0, header.width), header.height / (scale * 2) >= min(wanted.1, header.height) {
            scale *= 2
        }
        // The file goes in as standard input: `path` may be a `/proc/self/fd/N` name, which means
        // another file (or none) in the child.
        guard let input = FileHandle(forReadingAtPath: path) else { return result }
        defer { try? input.close() }
        guard let output = run(decoder, ["-scale", "1/\(scale)", "-ppm"], input: input, timeLimit: timeLimit),
              let pixmap = Pixmap(output) else { return result }
        let orientation = (try? MetadataReader().read(atPath: path))?.orientation ?? 1
        return pixmap.pixels.withUnsafeBytes { memory -> Result<[UInt8], ThumbnailError> in
            guard let image = shoebox_vips_image_from_memory(
                memory.baseAddress, memory.count, Int32(pixmap.width), Int32(pixmap.height), Int32(pixmap.bands), Int32(SHOEBOX_VIPS_FORMAT_UCHAR))
            else { return result }
            defer { shoebox_vips_unref(image) }
            var thumbnail: OpaquePointer?
            guard shoebox_vips_thumbnail_image(image, &thumbnail, Int32(wanted.0), Int32(wanted.1), Int32(orientation)) == 0, let thumbnail else {
                return result
            }
            defer { shoebox_vips_unref(thumbnail) }
            return Renderer.encode(thumbnail, path: path, start: start, timeLimit: timeLimit)
        }
    }

    private static func isJPEG(_ path: String) -> Bool {
        guard let handle = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? handle.close() }
        return (try? handle.read(upToCount: 3)).map { [UInt8]($0) } == [0xFF, 0xD8, 0xFF]
    }

    /// The child's standard output, or nil when it could not start, was killed at the time
    /// limit, or wrote nothing. Its warnings (exit status 2) do not count as failure.
    private static func run(_ executable: String, _ arguments: [String], input: FileHandle, timeLimit: Duration) -> Data? {
        let process = ChildProcess()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        process.standardInput = input
        guard (try? process.run()) != nil else { return nil }
        let timer = DispatchWorkItem { if process.isRunning { process.terminate() } }
        DispatchQueue.global().asyncAfter(deadline: .now() + RenderLimits(timeLimit: timeLimit).timeLimitSeconds, execute: timer)
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        timer.cancel()
        guard process.terminationReason == .exit, process.terminationStatus == 0 || process.terminationStatus == 2, !data.isEmpty else { return nil }
        return data
    }
}

/// A binary PPM (P6, RGB) or PGM (P5, grey) image of 8-bit samples, as `djpeg -ppm` writes it.
struct Pixmap {
    var width: Int
    var height: Int
    var bands: Int
    var pixels: Data

    init?(_ data: Data) {
        let bytes = [UInt8](data.prefix(64))
        guard bytes.count > 2, bytes[0] == UInt8(ascii: "P"), bytes[1] == UInt8(ascii: "6") || bytes[1] == UInt8(ascii: "5") else { return nil }
        bands = bytes[1] == UInt8(ascii: "6") ? 3 : 1
        // Three numbers (width, height, maximum) separated by white space, then one white-space byte.
        var numbers: [Int] = []
        var index = 2
        while numbers.count < 3, index < bytes.count {
            while index < bytes.count, bytes[index] == 0x20 || (0x09...0x0D).contains(bytes[index]) { index += 1 }
            var value = 0
            var digits = 0
            while index < bytes.count, (0x30...0x39).contains(bytes[index]), digits < 7 {
                value = value * 10 + Int(bytes[index] - 0x30)
                digits += 1
                index += 1
            }
            guard digits > 0 else { return nil }
            numbers.append(value)
        }
        guard numbers.count == 3, numbers[2] == 255, numbers[0] > 0, numbers[1] > 0, index < bytes.count else { return nil }
        width = numbers[0]
        height = numbers[1]
        let start = index + 1
        guard data.count - start >= width * height * bands else { return nil }
        pixels = data.subdata(in: data.startIndex + start ..< data.startIndex + start + width * height * bands)
    }
}
