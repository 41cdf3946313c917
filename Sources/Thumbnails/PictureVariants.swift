import CVips

/// Writes altered copies of a picture with libvips — re-encoded, resized, converted, cropped — the
/// way other tools make duplicates; for the duplicate finder's tests and benchmark.
package enum PictureVariants {
    /// How a variant differs from its source.
    package enum Change: String, Sendable, CaseIterable {
        /// JPEG at quality 60.
        case quality60 = "quality-60"
        /// Half the width and height, JPEG.
        case halfSize = "half-size"
        case png
        /// WebP at quality 80.
        case webp
        /// 3 % of the width and of the height cut off (1.5 % from each edge), JPEG.
        case crop3 = "crop-3"

        /// The variant's file extension.
        package var fileExtension: String {
            switch self {
            case .png: "png"
            case .webp: "webp"
            default: "jpg"
            }
        }
    }

    /// Writes `source` changed by `change` to `destination`; the error names libvips's reason.
    package static func write(_ change: Change, of source: String, to destination: String) throws(VariantError) {
        guard Vips.startFailure == nil else { throw VariantError(message: Vips.startFailure ?? "libvips did not start") }
        var opened: OpaquePointer?
        if change == .halfSize {
            guard let header = shoebox_vips_open(source) else { throw failure(source) }
            let width = Int32(max(1, shoebox_vips_width(header) / 2)), height = Int32(max(1, shoebox_vips_height(header) / 2))
            let swaps = shoebox_vips_orientation_swaps(header) != 0
            shoebox_vips_unref(header)
            guard shoebox_vips_thumbnail(source, &opened, swaps ? height : width, swaps ? width : height) == 0 else { throw failure(source) }
        } else {
            opened = shoebox_vips_open(source)
        }
        guard let image = opened else { throw failure(source) }
        defer { shoebox_vips_unref(image) }
        let result: Int32
        switch change {
        case .quality60:
            result = shoebox_vips_jpegsave(image, destination, 60)
        case .halfSize:
            result = shoebox_vips_jpegsave(image, destination, 85)
        case .png:
            result = shoebox_vips_pngsave(image, destination)
        case .webp:
            result = shoebox_vips_webpsave(image, destination, 80)
        case .crop3:
            let width = shoebox_vips_width(image), height = shoebox_vips_height(image)
            let dx = width * 3 / 200, dy = height * 3 / 200
            var cropped: OpaquePointer?
            guard shoebox_vips_extract_area(image, &cropped, dx, dy, width - 2 * dx, height - 2 * dy) == 0, let cropped else {
                throw failure(source)
            }
            defer { shoebox_vips_unref(cropped) }
            result = shoebox_vips_jpegsave(cropped, destination, 85)
        }
        guard result == 0 else { throw failure(source) }
    }

    /// Writes `rgb` (width × height × 3 bytes, row by row) as a JPEG of `quality` at `path`.
    package static func writeJPEG(rgb: [UInt8], width: Int, height: Int, quality: Int = 90, to path: String) throws(VariantError) {
        guard Vips.startFailure == nil else { throw VariantError(message: Vips.startFailure ?? "libvips did not start") }
        guard rgb.count == width * height * 3 else { throw VariantError(message: "\(rgb.count) bytes are not \(width)×\(height) RGB pixels") }
        let result = rgb.withUnsafeBytes { memory -> Int32 in
            guard let image = shoebox_vips_image_from_memory(memory.baseAddress, memory.count, Int32(width), Int32(height), 3, Int32(SHOEBOX_VIPS_FORMAT_UCHAR)) else { return -1 }
            defer { shoebox_vips_unref(image) }
            return shoebox_vips_jpegsave(image, path, Int32(quality))
        }
        guard result == 0 else { throw failure(path) }
    }

    private static func failure(_ path: String) -> VariantError { VariantError(message: Vips.takeError(about: path)) }

    package struct VariantError: Error, CustomStringConvertible {
        package var message: String
        package var description: String { message }
    }
}
