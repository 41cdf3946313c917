import CVips
import PhotoMetadata
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Makes one rendition with libvips: header check, shrink-on-load thumbnail, JPEG encoding.
///
/// Every C handle is released before a function returns; nothing of libvips leaves this file.
enum Renderer {
    /// JPEG quality of every rendition.
    static let quality: Int32 = 80

    /// What a photo's header says, read without decoding any pixel.
    struct Header: Sendable, Hashable {
        var width: Int
        var height: Int
        /// Whether the orientation tag swaps width and height.
        var swapped: Bool

        var pixels: Int64 { PixelSize.pixels(width: width, height: height) }

        /// A `tooLarge` error when the header declares more than `maxPixels` pixels.
        func refusal(path: String, maxPixels: Int64) -> ThumbnailError? {
            guard pixels > maxPixels else { return nil }
            return ThumbnailError(
                .tooLarge, path: path,
                "\(path) declares \(width)×\(height) pixels, more than the limit of \(maxPixels); it was not decoded.")
        }
    }

    /// Opens `path` and reads its header only (libvips opens lazily), so its size is known before
    /// anything is decoded.
    static func inspect(path: String) -> Result<Header, ThumbnailError> {
        if let failure = Vips.startFailure {
            return .failure(ThumbnailError(.decoderUnavailable, path: path, "libvips could not start: \(failure)"))
        }
        // Tell a missing or unreadable file from one libvips cannot read.
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            let number = errno
            let reason = String(cString: strerror(number))
            let code: ThumbnailError.Code = (number == ENOENT || number == ENOTDIR) ? .fileNotFound : .unreadable
            return .failure(ThumbnailError(code, path: path, "Cannot open \(path): \(reason)."))
        }
        close(descriptor)

        guard let image = shoebox_vips_open_header(path) else {
            return .failure(ThumbnailError(.undecodable, path: path, "libvips cannot read \(path): \(Vips.takeError(about: path))"))
        }
        defer { shoebox_vips_unref(image) }
        return .success(Header(
            width: Int(shoebox_vips_width(image)), height: Int(shoebox_vips_height(image)),
            swapped: shoebox_vips_orientation_swaps(image) != 0))
    }

    /// Decodes `path`, whose header is `header`, into `size`, orientation applied, as JPEG bytes.
    ///
    /// libvips stops once `timeLimit` has passed since the call began, checking between tiles;
    /// the result is then a `timedOut` error.
    static func render(path: String, header: Header, size: ThumbnailSize, timeLimit: Duration) -> Result<[UInt8], ThumbnailError> {
        let start = ContinuousClock.now
        let box = header.swapped
            ? size.box(displayWidth: header.height, displayHeight: header.width)
            : size.box(displayWidth: header.width, displayHeight: header.height)
        var image: OpaquePointer?
        let made: Result<[UInt8], ThumbnailError>
        if shoebox_vips_thumbnail(path, &image, Int32(box.width), Int32(box.height)) == 0, let thumbnail = image {
            made = encode(thumbnail, path: path, start: start, timeLimit: timeLimit)
            shoebox_vips_unref(thumbnail)
        } else {
            made = .failure(ThumbnailError(.undecodable, path: path, "libvips cannot decode \(path): \(Vips.takeError(about: path))"))
        }
        guard case .failure(let error) = made, error.code == .undecodable else { return made }
        return renderPrimary(path: path, box: box, start: start, timeLimit: timeLimit) ?? made
    }

    /// `path`'s main image shrunk into `box` (display orientation), for when `vips_thumbnail`
    /// fails on a HEIF's embedded thumbnail (it takes one for small sizes, and a truncated file's
    /// may lie past its end); nil when this fails too.
    private static func renderPrimary(
        path: String, box: (width: Int, height: Int), start: ContinuousClock.Instant, timeLimit: Duration
    ) -> Result<[UInt8], ThumbnailError>? {
        guard let image = shoebox_vips_open_header(path) else {
            _ = Vips.takeError(about: path)
            return nil
        }
        defer { shoebox_vips_unref(image) }
        let orientation = shoebox_vips_orientation(image)
        // The box as stored: libvips shrinks first and turns afterwards.
        let stored = (5...8).contains(orientation) ? (box.height, box.width) : (box.width, box.height)
        var thumbnail: OpaquePointer?
        guard shoebox_vips_thumbnail_image(image, &thumbnail, Int32(stored.0), Int32(stored.1), orientation) == 0, let thumbnail else {
            _ = Vips.takeError(about: path)
            return nil
        }
        defer { shoebox_vips_unref(thumbnail) }
        let result = encode(thumbnail, path: path, start: start, timeLimit: timeLimit)
        if case .failure(let error) = result, error.code == .undecodable { return nil }
        return result
    }

    /// Decodes an image held in memory (an embedded JPEG, LibRaw's TIFF), `width`×`height` as
    /// stored, into `size` with `orientation` applied (its own tag ignored), as JPEG bytes;
    /// `naming` is the image in error messages.
    static func render(
        encoded bytes: [UInt8], width: Int, height: Int, orientation: Int, path: String, naming: String,
        size: ThumbnailSize, start: ContinuousClock.Instant, timeLimit: Duration
    ) -> Result<[UInt8], ThumbnailError> {
        let swapped = (5...8).contains(orientation)
        let box = swapped ? size.box(displayWidth: height, displayHeight: width) : size.box(displayWidth: width, displayHeight: height)
        // The box in stored orientation: libvips shrinks first and turns afterwards.
        let stored = swapped ? (box.height, box.width) : (box.width, box.height)
        return bytes.withUnsafeBytes { memory -> Result<[UInt8], ThumbnailError> in
            var image: OpaquePointer?
            guard shoebox_vips_thumbnail_buffer(memory.baseAddress, memory.count, &image, Int32(stored.0), Int32(stored.1), Int32(orientation)) == 0,
                  let image
            else {
                return .failure(ThumbnailError(.undecodable, path: path, "libvips cannot decode \(naming): \(Vips.takeError(about: path))"))
            }
            defer { shoebox_vips_unref(image) }
            return encode(image, path: path, start: start, timeLimit: timeLimit)
        }
    }

    /// Encodes a thumbnail pipeline (alpha flattened onto white) as JPEG bytes, stopping once
    /// `timeLimit` has passed since `start`; decoding happens here, so its errors surface here.
    static func encode(_ image: OpaquePointer, path: String, start: ContinuousClock.Instant, timeLimit: Duration) -> Result<[UInt8], ThumbnailError> {
        var thumbnail = image
        var flattened: OpaquePointer?
        defer { if let flattened { shoebox_vips_unref(flattened) } }
        if shoebox_vips_has_alpha(thumbnail) != 0 {
            let white: Double = shoebox_vips_format(thumbnail) == SHOEBOX_VIPS_FORMAT_USHORT ? 65535 : 255
            guard shoebox_vips_flatten(thumbnail, &flattened, white) == 0, let flattened else {
                return .failure(ThumbnailError(.undecodable, path: path, "libvips cannot flatten \(path): \(Vips.takeError(about: path))"))
            }
            thumbnail = flattened
        }
        let left = RenderLimits(timeLimit: timeLimit - (ContinuousClock.now - start)).timeLimitSeconds
        var buffer: UnsafeMutableRawPointer?
        var length = 0
        var timedOut: Int32 = 0
        guard shoebox_vips_jpegsave_buffer_within(thumbnail, &buffer, &length, quality, left, &timedOut) == 0, let buffer else {
            let reason = Vips.takeError(about: path)
            if timedOut != 0 {
                return .failure(ThumbnailError(
                    .timedOut, path: path, "Decoding \(path) took longer than the limit of \(timeLimit); it was stopped."))
            }
            return .failure(ThumbnailError(.undecodable, path: path, "libvips cannot decode \(path): \(reason)"))
        }
        defer { shoebox_vips_free(buffer) }
        return .success([UInt8](UnsafeRawBufferPointer(start: buffer, count: length)))
    }

    /// Encodes an image as JPEG, or nil with the reason in libvips's error buffer.
    ///
    /// This is where a lazy pipeline really decodes, so decoding errors surface here.
    static func encodeJPEG(_ image: OpaquePointer) -> [UInt8]? {
        var buffer: UnsafeMutableRawPointer?
        var length = 0
        guard shoebox_vips_jpegsave_buffer(image, &buffer, &length, quality) == 0, let buffer else { return nil }
        defer { shoebox_vips_free(buffer) }
        return [UInt8](UnsafeRawBufferPointer(start: buffer, count: length))
    }

    /// A light grey square of `size.edge` pixels, made once per size: a JPEG, or an SVG when
    /// libvips is not there to encode one.
    static func placeholder(_ size: ThumbnailSize) -> (bytes: [UInt8], contentType: String) {
        switch size {
        case .thumbnail: placeholderThumbnail
        case .large: placeholderLarge
        case .preview: placeholderPreview
        case .tiny: placeholderTiny
        }
    }

    private static let placeholderTiny = makePlaceholder(edge: ThumbnailSize.tiny.edge)

    private static let placeholderThumbnail = makePlaceholder(edge: ThumbnailSize.thumbnail.edge)
    private static let placeholderLarge = makePlaceholder(edge: ThumbnailSize.large.edge)
    private static let placeholderPreview = makePlaceholder(edge: ThumbnailSize.preview.edge)

    private static func makePlaceholder(edge: Int) -> (bytes: [UInt8], contentType: String) {
        let jpeg = Vips.startFailure != nil ? nil : [UInt8](repeating: 0xE0, count: edge * edge).withUnsafeBytes { memory -> [UInt8]? in
            guard let image = shoebox_vips_image_from_memory(
                memory.baseAddress, memory.count, Int32(edge), Int32(edge), 1, Int32(SHOEBOX_VIPS_FORMAT_UCHAR))
            else { return nil }
            defer { shoebox_vips_unref(image) }
            return encodeJPEG(image)
        }
        if let jpeg { return (jpeg, "image/jpeg") }
        let svg = #"<svg xmlns="http://www.w3.org/2000/svg" width="\#(edge)" height="\#(edge)"><rect width="100%" height="100%" fill="rgb(224,224,224)"/></svg>"#
        return (Array(svg.utf8), "image/svg+xml")
    }
}
