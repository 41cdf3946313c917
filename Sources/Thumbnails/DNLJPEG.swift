import PhotoMetadata
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A JPEG whose frame header declares height 0 and leaves the height to a DNL (define number of
/// lines) segment after the first scan, as some scanners and fax software write them.
///
/// libjpeg, so libvips and `djpeg` too, refuses these ("DNL not supported"), while browsers show
/// them. Shoebox copies the file into memory, writes the DNL's height into the copy's frame
/// header, drops the DNL segment, and decodes the copy with libvips.
enum DNLJPEG {
    /// Bytes of the file read to find its frame header.
    static let headLength = 64 * 1024

    /// Whether the file at `path` is a JPEG whose frame header declares height 0; reads its
    /// first `headLength` bytes only.
    static func declaresNoHeight(path: String) -> Bool {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        let head = [UInt8](unsafeUninitializedCapacity: headLength) { buffer, initialized in
            initialized = max(0, pread(descriptor, buffer.baseAddress!, headLength, 0))
        }
        guard let frame = frameHeader(head, in: JPEGSegments.walk(head)) else { return false }
        return frame.height == 0
    }

    /// `bytes` with the DNL segment's height written into the frame header and that segment
    /// removed, with the frame's size; nil when the frame header declares a height already, or
    /// no DNL segment follows the first scan with a height above 0.
    ///
    /// - Complexity: O(n) in the bytes.
    static func patched(_ bytes: [UInt8]) -> (bytes: [UInt8], width: Int, height: Int)? {
        let segments = JPEGSegments.walk(bytes)
        guard let frame = frameHeader(bytes, in: segments), frame.height == 0, frame.width > 0,
              let firstScan = segments.firstIndex(where: { $0.marker == 0xDA }),
              let dnl = segments[firstScan...].first(where: { $0.marker == 0xDC }),
              dnl.end - dnl.payload >= 2
        else { return nil }
        let height = Int(bytes[dnl.payload]) << 8 | Int(bytes[dnl.payload + 1])
        guard height > 0 else { return nil }
        var copy = bytes
        copy[frame.heightOffset] = UInt8(height >> 8)
        copy[frame.heightOffset + 1] = UInt8(height & 0xFF)
        copy.removeSubrange(dnl.offset..<dnl.end)
        return (copy, frame.width, height)
    }

    /// The first frame header's (SOF0–SOF15, not DHT, JPG or DAC) size and where its height is.
    private static func frameHeader(_ bytes: [UInt8], in segments: [JPEGSegments.Segment]) -> (width: Int, height: Int, heightOffset: Int)? {
        guard let frame = segments.first(where: { (0xC0...0xCF).contains($0.marker) && ![0xC4, 0xC8, 0xCC].contains($0.marker) }),
              frame.end - frame.payload >= 5
        else { return nil }
        // Payload: sample precision (1 byte), height (2), width (2), components...
        let heightOffset = frame.payload + 1
        let height = Int(bytes[heightOffset]) << 8 | Int(bytes[heightOffset + 1])
        let width = Int(bytes[heightOffset + 2]) << 8 | Int(bytes[heightOffset + 3])
        return (width, height, heightOffset)
    }

    /// Reads `path`, patches its height and decodes it into `size`, the file's EXIF orientation
    /// applied; refused unread past `maxPixels` once the DNL's height is known.
    static func render(path: String, size: ThumbnailSize, maxPixels: Int64, timeLimit: Duration) -> Result<[UInt8], ThumbnailError> {
        let start = ContinuousClock.now
        if let failure = Vips.startFailure {
            return .failure(ThumbnailError(.decoderUnavailable, path: path, "libvips could not start: \(failure)"))
        }
        var status = stat()
        guard stat(path, &status) == 0 else {
            let number = errno
            let code: ThumbnailError.Code = (number == ENOENT || number == ENOTDIR) ? .fileNotFound : .unreadable
            return .failure(ThumbnailError(code, path: path, "Cannot open \(path): \(String(cString: strerror(number)))."))
        }
        let bytes: [UInt8]
        switch EmbeddedPreview.read(path: path, offset: 0, length: Int(status.st_size), naming: path) {
        case .success(let read): bytes = read
        case .failure(let error): return .failure(error)
        }
        guard let patched = patched(bytes) else {
            return .failure(ThumbnailError(.undecodable, path: path, "\(path) declares no height, and no DNL segment after its first scan gives one."))
        }
        if let refusal = Renderer.Header(width: patched.width, height: patched.height, swapped: false).refusal(path: path, maxPixels: maxPixels) {
            return .failure(refusal)
        }
        let orientation = (try? MetadataReader().read(atPath: path))?.orientation.flatMap { (1...8).contains($0) ? $0 : nil } ?? 1
        return Renderer.render(
            encoded: patched.bytes, width: patched.width, height: patched.height, orientation: orientation,
            path: path, naming: path, size: size, start: start, timeLimit: timeLimit)
    }
}
