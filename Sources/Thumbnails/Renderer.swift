import CVips
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

    /// Decodes `path` into `size`, orientation applied, as JPEG bytes.
    ///
    /// The header is read first and a file declaring more than `maxPixels` pixels is refused
    /// before any pixel is decoded.
    static func render(path: String, size: ThumbnailSize, maxPixels: Int64) -> Result<[UInt8], ThumbnailError> {
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

        guard let header = shoebox_vips_open_header(path) else {
            return .failure(ThumbnailError(.undecodable, path: path, "libvips cannot read \(path): \(Vips.takeError())"))
        }
        let width = Int(shoebox_vips_width(header)), height = Int(shoebox_vips_height(header))
        let swapped = shoebox_vips_orientation_swaps(header) != 0
        shoebox_vips_unref(header)
        if Int64(width) * Int64(height) > maxPixels {
            return .failure(ThumbnailError(
                .tooLarge, path: path,
                "\(path) declares \(width)×\(height) pixels, more than the limit of \(maxPixels); it was not decoded."))
        }

        let box = swapped ? size.box(displayWidth: height, displayHeight: width) : size.box(displayWidth: width, displayHeight: height)
        var image: OpaquePointer?
        guard shoebox_vips_thumbnail(path, &image, Int32(box.width), Int32(box.height)) == 0, var thumbnail = image else {
            return .failure(ThumbnailError(.undecodable, path: path, "libvips cannot decode \(path): \(Vips.takeError())"))
        }
        defer { shoebox_vips_unref(thumbnail) }
        if shoebox_vips_has_alpha(thumbnail) != 0 {
            let white: Double = shoebox_vips_format(thumbnail) == SHOEBOX_VIPS_FORMAT_USHORT ? 65535 : 255
            var flat: OpaquePointer?
            guard shoebox_vips_flatten(thumbnail, &flat, white) == 0, let flat else {
                return .failure(ThumbnailError(.undecodable, path: path, "libvips cannot flatten \(path): \(Vips.takeError())"))
            }
            shoebox_vips_unref(thumbnail)
            thumbnail = flat
        }
        guard let bytes = encodeJPEG(thumbnail) else {
            return .failure(ThumbnailError(.undecodable, path: path, "libvips cannot decode \(path): \(Vips.takeError())"))
        }
        return .success(bytes)
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
        case .preview: placeholderPreview
        }
    }

    private static let placeholderThumbnail = makePlaceholder(edge: ThumbnailSize.thumbnail.edge)
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
