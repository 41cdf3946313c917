/// What a reader found in one file, gathered as it goes so that a later failure keeps it.
struct ImageFacts {
    var format: ImageFormat
    /// The size in the image header (for raw files: of the full-resolution image only).
    var pixelSize: PixelSize?
    var exif = ExifValues()
    /// Counter-clockwise quarter turns from a HEIF `irot` box; used instead of EXIF orientation.
    var quarterTurns = 0

    init(format: ImageFormat) { self.format = format }

    /// Whether anything beyond the format was found.
    var isEmpty: Bool { pixelSize == nil && exif.isEmpty }

    /// Sets the pixel size when both sides are positive.
    mutating func setSize(width: Int, height: Int) {
        pixelSize = width > 0 && height > 0 ? PixelSize(width: width, height: height) : nil
    }

    /// The public result, with the display size policy applied.
    var metadata: PhotoMetadata {
        let turned: Bool
        switch format {
        case .heic, .heif, .avif: turned = quarterTurns % 2 != 0
        default: turned = (5...8).contains(exif.orientation ?? 1)
        }
        return PhotoMetadata(
            format: format, pixelSize: pixelSize, orientation: exif.orientation,
            displaySize: turned ? pixelSize?.transposed : pixelSize,
            exifDate: exif.captureDate, cameraMake: exif.make, cameraModel: exif.model)
    }
}
