import PhotoMetadata

/// HEIF photos libvips refuses, decoded by ffmpeg instead: libheif 1.15 (Debian 12) has no H.264
/// decoder, and its HEVC decoder (libde265) lacks parts of the range extensions cameras such as
/// Sony's write in `.HIF`; ffmpeg's decoders have both.
///
/// ffmpeg cannot read HEIF itself, so the metadata reader hands over the primary image as an
/// Annex B stream (`HEIFCodedImage`), fed to ffmpeg on its standard input; ffmpeg decodes each
/// tile, lays them out, crops to the image's size, scales, turns by `irot`/`imir` and writes the
/// JPEG. One ffmpeg run per rendition, with the limits of every ffmpeg run (`VideoTool`).
enum HEIFFallback {
    /// Whether `path` is a HEIF (not AVIF), from its first bytes alone: worth a turn in the
    /// render pool, where its coded tiles are gathered (`plan`).
    static func applies(path: String) -> Bool {
        let format = try? MetadataReader().sniffedFormat(atPath: path)
        return format == .heic || format == .heif
    }

    /// Why the HEIF at `path` is refused from its `meta` box alone, whichever decoder would take
    /// it (no tile is read: cheap enough outside the render pool, and before libheif sees it):
    /// `tooLarge` when it declares more than `maxPixels` pixels (its sides, from the file,
    /// multiplied without overflow) or its tiles more bytes than are ever gathered; `undecodable`
    /// when two tiles share their bytes (a grid whose every tile names one extent). Nil otherwise,
    /// also when its boxes describe no HEVC or H.264 image: libvips may still read it.
    static func refusal(path: String, maxPixels: Int64) -> ThumbnailError? {
        let layout: HEIFCodedLayout
        do {
            layout = try MetadataReader().heifCodedLayout(atPath: path)
        } catch {
            guard error.code == .budgetExceeded else { return nil }
            return ThumbnailError(.tooLarge, path: path, "\(path) is a HEIF too large to decode here: \(error.message)")
        }
        if layout.pixels > maxPixels {
            return ThumbnailError(
                .tooLarge, path: path,
                "\(path) declares \(layout.width)×\(layout.height) pixels, more than the limit of \(maxPixels); it was not decoded.")
        }
        if let first = layout.tilesSharingBytes.first, let second = layout.tilesSharingBytes.last {
            return ThumbnailError(
                .undecodable, path: path,
                "\(path) is a HEIF grid whose tiles \(first) and \(second) share their bytes: one picture stored once would be decoded many times over; it was not decoded.")
        }
        return nil
    }

    /// The coded image of `path` when it is a HEIF whose codec ffmpeg decodes, else nil. Reads
    /// every tile: call it where the decode happens, after `refusal`.
    static func plan(path: String) -> HEIFCodedImage? {
        try? MetadataReader().heifCodedImage(atPath: path)
    }

    /// ffmpeg's arguments for `image` at `size`.
    static func arguments(tool: VideoTool, image: HEIFCodedImage, size: ThumbnailSize) -> [String] {
        var filters: [String] = []
        if image.columns * image.rows > 1 { filters.append("tile=\(image.columns)x\(image.rows)") }
        // The tiles (or the coded picture) may run past the image: crop to the declared size.
        filters.append("crop=min(iw\\,\(image.width)):min(ih\\,\(image.height)):0:0")
        // Never larger than the photo, as libvips makes renditions.
        let short = min(image.width, image.height), long = max(image.width, image.height)
        let factor = min(1, Double(size.edge) / Double(size.isShortEdge ? short : long))
        let width = max(1, Int((Double(image.width) * factor).rounded()))
        let height = max(1, Int((Double(image.height) * factor).rounded()))
        filters.append("scale=\(width):\(height)")
        filters += orientationFilters[image.orientation] ?? []
        filters.append("format=yuvj420p")
        return ["-protocol_whitelist", "pipe", "-threads", String(tool.threads), "-f", image.codec.rawValue, "-i", "pipe:0",
                "-frames:v", "1", "-vf", filters.joined(separator: ","), "-c:v", "mjpeg", "-q:v", "3", "-f", "mjpeg", "pipe:1"]
    }

    /// ffmpeg's filters that turn a stored picture by each EXIF orientation.
    static let orientationFilters: [Int: [String]] = [
        2: ["hflip"], 3: ["hflip", "vflip"], 4: ["vflip"],
        5: ["transpose=cclock_flip"], 6: ["transpose=clock"], 7: ["transpose=clock_flip"], 8: ["transpose=cclock"],
    ]

    /// `image` (read from `path`) at `size`, as JPEG bytes.
    static func render(tool: VideoTool, path: String, image: HEIFCodedImage, size: ThumbnailSize, timeLimit: Duration) -> Result<[UInt8], ThumbnailError> {
        switch tool.run(.ffmpeg, arguments(tool: tool, image: image, size: size), path: path, timeLimit: timeLimit, input: image.stream) {
        case .failure(let error):
            return .failure(error)
        case .success(let output):
            guard let jpeg = JPEGSegments.lastImage(output.stdout) else {
                return .failure(ThumbnailError(.undecodable, path: path, "ffmpeg decoded no picture from the HEIF \(path)."))
            }
            return .success(Array(jpeg))
        }
    }

    /// `failure` (libvips could not read or decode `path`), or the picture ffmpeg makes of it when
    /// `path` is a HEIF it can decode, no larger than `maxPixels`.
    static func rescue(
        _ failure: ThumbnailError, tool: VideoTool, path: String, size: ThumbnailSize, maxPixels: Int64, timeLimit: Duration
    ) -> Result<[UInt8], ThumbnailError> {
        guard failure.code == .undecodable, tool.ffmpeg != nil, applies(path: path) else { return .failure(failure) }
        if let refusal = refusal(path: path, maxPixels: maxPixels) { return .failure(refusal) }
        guard let image = plan(path: path) else { return .failure(failure) }
        let made = render(tool: tool, path: path, image: image, size: size, timeLimit: timeLimit)
        if case .failure(let error) = made, error.code == .undecodable {
            return .failure(ThumbnailError(.undecodable, path: path, failure.message + " Then " + error.message))
        }
        return made
    }
}
