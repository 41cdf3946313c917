import PhotoMetadata
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Camera raws decoded whole by LibRaw, for a raw with no usable preview: none at all (and no
/// picture libvips reads), or one too small for the rendition asked for (some cameras embed
/// only 640 px).
///
/// LibRaw runs as Debian's `dcraw_emu` (package `libraw-bin`), a child process under the limits
/// of every tool Shoebox runs (`VideoTool`), so a hostile raw cannot take the server down. It
/// writes an 8-bit sRGB TIFF (camera white balance) to its standard output, turned by the file's
/// own EXIF orientation as Shoebox reads it (`-t`: libvips cannot turn a TIFF it reads from
/// memory in order, "out of order read"); libvips shrinks that and encodes the JPEG.
/// A half-size decode (one pixel per 2×2 Bayer block, no demosaicing: 6.6 times faster on a
/// 24-megapixel DNG in `StillsBenchmark`) is used when it still covers the rendition, which it
/// does at every size for a camera of 12 megapixels or more.
enum LibRawDecode {
    /// Fewest file bytes per 8 sensor pixels, one bit a pixel: the most compressed raws (lossy
    /// CR3, ARW) keep several. LibRaw decodes a file cut far shorter (ExifTool's raw stubs keep
    /// a header and a few bytes) into stripes without a warning, so such a file counts as damaged.
    static let leastBytesPerEightPixels = 1

    /// What LibRaw writes when the sensor data is cut short or broken; it still writes a picture,
    /// of garbage, so such a decode counts as failed.
    static let damageReports = ["data corrupted", "Unexpected end of file"]

    /// The most TIFF bytes taken from `dcraw_emu` (a 100-megapixel raw decoded whole, 8-bit RGB).
    static let maximumBytes = 320 * 1024 * 1024

    /// `dcraw_emu`'s arguments to decode `path`, half-size when `half`, turned by `orientation`.
    static func arguments(path: String, half: Bool, orientation: Int) -> [String] {
        // -w camera white balance, -o 1 sRGB, -t its flip, -T TIFF, -Z - to standard output.
        ["-w", "-o", "1", "-t", String(flip(orientation: orientation)), "-T"] + (half ? ["-h"] : [])
            + ["-Z", "-", VideoTool.childPath(path)]
    }

    /// LibRaw's flip (bit 0 mirrors left to right, bit 1 top to bottom, bit 2 swaps the axes
    /// first) for an EXIF orientation, as dcraw maps the TIFF tag; 0 for none or an unknown one.
    static func flip(orientation: Int) -> Int {
        let flips = [1: 0, 2: 1, 3: 3, 4: 2, 5: 4, 6: 6, 7: 7, 8: 5]
        return flips[orientation] ?? 0
    }

    /// Whether a picture of `width` × `height` (either orientation: turning swaps both edges)
    /// is large enough for `size` without upscaling.
    static func covers(width: Int, height: Int, size: ThumbnailSize) -> Bool {
        (size.isShortEdge ? min(width, height) : max(width, height)) >= size.edge
    }

    /// `path` decoded by LibRaw into `size` with `orientation` applied, as JPEG bytes.
    ///
    /// Decodes at half size first, then whole when the half is too small for `size` and the
    /// whole stays within `maxPixels`; a decode larger than `maxPixels` is refused (`tooLarge`).
    static func render(
        tool: VideoTool, path: String, orientation: Int, size: ThumbnailSize, maxPixels: Int64, timeLimit: Duration
    ) -> Result<[UInt8], ThumbnailError> {
        let start = ContinuousClock.now
        if let failure = Vips.startFailure {
            return .failure(ThumbnailError(.decoderUnavailable, path: path, "libvips could not start: \(failure)"))
        }
        var decoded = decode(tool: tool, path: path, half: true, orientation: orientation, timeLimit: timeLimit)
        if case .success(let half) = decoded, !covers(width: half.width, height: half.height, size: size),
           PixelSize.pixels(width: half.width, height: half.height) <= maxPixels / 4 {
            let left = timeLimit - (ContinuousClock.now - start)
            if case .success(let whole) = decode(tool: tool, path: path, half: false, orientation: orientation, timeLimit: left) {
                decoded = .success(whole)
            }
        }
        switch decoded {
        case .failure(let error):
            return .failure(error)
        case .success(let picture):
            if PixelSize.pixels(width: picture.width, height: picture.height) > maxPixels {
                return .failure(ThumbnailError(
                    .tooLarge, path: path,
                    "LibRaw decodes \(path) to \(picture.width)×\(picture.height) pixels, more than the limit of \(maxPixels)."))
            }
            return Renderer.render(
                encoded: picture.tiff, width: picture.width, height: picture.height, orientation: 1,
                path: path, naming: "LibRaw's decode of \(path)", size: size, start: start, timeLimit: timeLimit)
        }
    }

    /// One `dcraw_emu` run: the TIFF it wrote, turned by `orientation`, and its size.
    static func decode(
        tool: VideoTool, path: String, half: Bool, orientation: Int = 1, timeLimit: Duration
    ) -> Result<(tiff: [UInt8], width: Int, height: Int), ThumbnailError> {
        switch tool.run(.dcrawEmu, arguments(path: path, half: half, orientation: orientation), path: path, timeLimit: timeLimit) {
        case .failure(let error):
            return .failure(error)
        case .success(let output):
            if let report = output.stderr.split(whereSeparator: \.isNewline).first(where: { line in damageReports.contains { line.contains($0) } }) {
                return .failure(ThumbnailError(.undecodable, path: path, "LibRaw finds the raw data of \(path) damaged: \(report)"))
            }
            guard output.stdout.count <= maximumBytes else {
                return .failure(ThumbnailError(.tooLarge, path: path, "LibRaw's decode of \(path) is more than \(maximumBytes) bytes."))
            }
            // The TIFF's size, from its header, by the metadata reader.
            let tiff = try? MetadataReader().read(bytes: output.stdout)
            guard let size = tiff?.pixelSize else {
                // dcraw_emu exits 0 when it fails; its reason is on its error output. When an
                // allocation fails under the address-space limit it writes, without a word, a
                // TIFF of 0 × 0 pixels (seen with a 48 MB DNG under 64 MiB).
                let reason = output.stderr.split(whereSeparator: \.isNewline).last.map { ": " + $0 } ?? "."
                if tiff != nil || VideoTool.allocationFailures.contains(where: output.stderr.contains) {
                    return .failure(ThumbnailError(
                        .tooLarge, path: path, "dcraw_emu needs more memory than its limit of \(tool.memoryLimit >> 20) MiB for \(path)\(reason)"))
                }
                return .failure(ThumbnailError(.undecodable, path: path, "dcraw_emu wrote no picture for \(path)\(reason)"))
            }
            let (width, height) = (size.width, size.height)
            // Sides from the TIFF's header: an uncompressed 8-bit RGB TIFF holds three bytes a
            // pixel, so one that declares more pixels than its bytes is refused before any product.
            guard size.pixels <= Int64(output.stdout.count) else {
                return .failure(ThumbnailError(
                    .undecodable, path: path,
                    "dcraw_emu's TIFF for \(path) declares \(width)×\(height) pixels in \(output.stdout.count) bytes: it is no picture."))
            }
            let sensorPixels = size.pixels * (half ? 4 : 1)
            if let bytes = fileSize(path), bytes * 8 < sensorPixels * Int64(leastBytesPerEightPixels) {
                return .failure(ThumbnailError(
                    .undecodable, path: path,
                    "\(path) is \(bytes) bytes, too few for the sensor data of \(sensorPixels) pixels LibRaw decodes it to: it is cut short."))
            }
            return .success((output.stdout, width, height))
        }
    }
}

/// The size in bytes of the file at `path`, or nil when it cannot be read.
private func fileSize(_ path: String) -> Int64? {
    var status = stat()
    guard stat(path, &status) == 0 else { return nil }
    return Int64(status.st_size)
}
