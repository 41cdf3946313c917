public import Duplicates
import CVips

/// A picture's `PictureFingerprint`, made from its thumbnail rendition (`ThumbnailSize.thumbnail`,
/// orientation applied): the picture is decoded once for the thumbnail, and the fingerprint costs
/// one more decode of that small JPEG.
///
/// Making it from the rendition rather than the file keeps it the same wherever it is made (the
/// thumbnail pass, or `shoebox duplicates` for files without one).
extension ThumbnailCache {
    /// The fingerprint of `source`'s thumbnail, made now if the cache has none; nil when the file
    /// cannot be decoded (a placeholder has no fingerprint).
    public func fingerprint(for source: ThumbnailSource) -> PictureFingerprint? {
        let thumbnail = image(for: source, size: .thumbnail)
        guard !thumbnail.isPlaceholder else { return nil }
        return PictureHashing.fingerprint(ofEncoded: thumbnail.bytes)
    }
}

/// Small renditions of encoded pictures, for their fingerprints.
public enum PictureHashing {
    /// The fingerprint of an encoded picture (a JPEG rendition), or nil when libvips cannot decode it.
    public static func fingerprint(ofEncoded bytes: [UInt8]) -> PictureFingerprint? {
        colourSquare(ofEncoded: bytes).flatMap(PictureFingerprint.init(rgb:))
    }

    /// The picture squeezed into a `PictureFingerprint.edge`-sided square (aspect ignored), as
    /// sRGB bytes, row by row (a grey picture's level three times).
    static func colourSquare(ofEncoded bytes: [UInt8]) -> [UInt8]? {
        guard Vips.startFailure == nil else { return nil }
        let edge = PictureFingerprint.edge
        return bytes.withUnsafeBytes { memory -> [UInt8]? in
            var image: OpaquePointer?
            guard shoebox_vips_thumbnail_buffer_square(memory.baseAddress, memory.count, &image, Int32(edge)) == 0, let image else {
                _ = Vips.takeError()
                return nil
            }
            defer { shoebox_vips_unref(image) }
            let bands = Int(shoebox_vips_bands(image))
            guard shoebox_vips_format(image) == SHOEBOX_VIPS_FORMAT_UCHAR, (1...4).contains(bands) else { return nil }
            var length = 0
            guard let pixels = shoebox_vips_write_to_memory(image, &length) else {
                _ = Vips.takeError()
                return nil
            }
            defer { shoebox_vips_free(pixels) }
            guard length == edge * edge * bands else { return nil }
            let values = UnsafeRawBufferPointer(start: pixels, count: length)
            // Grey (with or without alpha) is its first band; colour the first three.
            let (green, blue) = bands >= 3 ? (1, 2) : (0, 0)
            var rgb = [UInt8](repeating: 0, count: edge * edge * 3)
            for i in 0..<edge * edge {
                rgb[3 * i] = values[i * bands]
                rgb[3 * i + 1] = values[i * bands + green]
                rgb[3 * i + 2] = values[i * bands + blue]
            }
            return rgb
        }
    }
}
