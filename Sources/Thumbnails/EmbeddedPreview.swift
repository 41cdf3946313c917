import CVips
import PhotoMetadata
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Renditions made from a JPEG embedded in the photo's file, without decoding the photo itself:
/// a raw's largest preview for every size, and an EXIF thumbnail for `tiny`.
///
/// The metadata readers find the JPEGs (offsets and frame sizes, no pixels); libvips decodes the
/// chosen one from memory with shrink-on-load, and the file's own orientation is applied (an
/// embedded JPEG's tag, if any, is ignored: cameras often leave it at 1).
enum EmbeddedPreview {
    /// Most bytes read for one embedded JPEG (a 50-megapixel camera's full-size preview is ~15 MB).
    static let maximumBytes = 64 * 1024 * 1024

    /// One embedded JPEG to render, with the orientation of the file it came from.
    struct Plan: Sendable, Hashable {
        var jpeg: EmbeddedJPEG
        var orientation: Int

        var pixels: Int64 { jpeg.pixels }
        /// The JPEG's size as stored, before orientation.
        var width: Int { jpeg.width }
        var height: Int { jpeg.height }
        var swapped: Bool { (5...8).contains(orientation) }
    }

    /// A raw that embeds no readable JPEG: the `noPreview` failure, and whether its first image
    /// is sensor data (which libvips would show as a grey mosaic).
    struct NoPreview: Error {
        var error: ThumbnailError
        var sensorData: Bool
    }

    /// The embedded JPEG to render `size` of `path` from; nil when the photo itself is decoded
    /// instead (it is no raw, and for `tiny` it has no EXIF thumbnail either); `NoPreview` for a
    /// raw that embeds no readable JPEG.
    static func plan(path: String, size: ThumbnailSize) -> Result<Plan, NoPreview>? {
        guard let found = try? MetadataReader().embeddedJPEGs(atPath: path) else { return nil }
        let chosen = size == .tiny ? found.smallest(shortEdge: size.edge) : found.format.isRaw ? found.largest : nil
        if let chosen { return .success(Plan(jpeg: chosen, orientation: found.orientation)) }
        guard found.format.isRaw else { return nil }
        let error = ThumbnailError(
            .noPreview, path: path, "\(path) is a \(found.format.rawValue.uppercased()) raw file with no embedded JPEG preview.")
        return .failure(NoPreview(error: error, sensorData: found.firstImageIsSensorData))
    }

    /// The largest JPEG embedded in `path` (a JPEG's EXIF thumbnail, a raw's preview), to show
    /// in place of a picture that cannot be decoded; nil when it embeds none with a frame header.
    static func standIn(path: String) -> Plan? {
        guard let found = try? MetadataReader().embeddedJPEGs(atPath: path), let largest = found.largest else { return nil }
        return Plan(jpeg: largest, orientation: found.orientation)
    }

    /// The EXIF orientation (1–8) of `path`, which applies to every picture in it; 1 when unknown.
    static func orientation(path: String) -> Int {
        (try? MetadataReader().embeddedJPEGs(atPath: path))?.orientation ?? 1
    }

    /// Reads and decodes the planned JPEG into `size`, orientation applied, as JPEG bytes.
    static func render(path: String, plan: Plan, size: ThumbnailSize, timeLimit: Duration) -> Result<[UInt8], ThumbnailError> {
        let start = ContinuousClock.now
        // Loads libvips when this is the process's first render.
        if let failure = Vips.startFailure {
            return .failure(ThumbnailError(.decoderUnavailable, path: path, "libvips could not start: \(failure)"))
        }
        let bytes: [UInt8]
        switch read(path: path, offset: plan.jpeg.offset, length: plan.jpeg.length) {
        case .success(let read): bytes = read
        case .failure(let error): return .failure(error)
        }
        return Renderer.render(
            encoded: bytes, width: plan.width, height: plan.height, orientation: plan.orientation,
            path: path, naming: "the JPEG embedded in \(path)", size: size, start: start, timeLimit: timeLimit)
    }

    /// The bytes `offset..<offset + length` of the file; `naming` is the JPEG in error messages
    /// (by default the one embedded in `path`).
    static func read(path: String, offset: Int, length: Int, naming: String? = nil) -> Result<[UInt8], ThumbnailError> {
        let name = naming ?? "The JPEG embedded in \(path)"
        guard length > 0, length <= maximumBytes else {
            return .failure(ThumbnailError(.tooLarge, path: path, "\(name) is \(length) bytes, more than the limit of \(maximumBytes)."))
        }
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            let number = errno
            let code: ThumbnailError.Code = (number == ENOENT || number == ENOTDIR) ? .fileNotFound : .unreadable
            return .failure(ThumbnailError(code, path: path, "Cannot open \(path): \(String(cString: strerror(number)))."))
        }
        defer { close(descriptor) }
        var done = 0
        let bytes = [UInt8](unsafeUninitializedCapacity: length) { buffer, initialized in
            while done < length {
                let got = pread(descriptor, buffer.baseAddress! + done, length - done, off_t(offset + done))
                if got > 0 { done += got } else if got == 0 || errno != EINTR { break }
            }
            initialized = done
        }
        guard bytes.count == length else {
            return .failure(ThumbnailError(.undecodable, path: path, "\(name) runs past the end of the file."))
        }
        return .success(bytes)
    }
}
