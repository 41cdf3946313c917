/// What Shoebox knows about one image file after reading its header and EXIF.
public struct PhotoMetadata: Sendable, Hashable {
    public var format: ImageFormat
    /// The pixel size stored in the image header, before any rotation.
    public var pixelSize: PixelSize?
    /// EXIF orientation (1–8), when the file has one.
    public var orientation: Int?
    /// The size as displayed: `pixelSize` turned by EXIF orientation, or by `irot` for HEIF/AVIF.
    public var displaySize: PixelSize?
    /// The first valid EXIF date of the chain (DateTimeOriginal, DateTimeDigitized, DateTime).
    public var exifDate: CaptureDate?
    public var cameraMake: String?
    public var cameraModel: String?
    /// What stopped the read early when the file was only partly readable (e.g. cut short after
    /// its EXIF block); the other fields hold what was read before.
    public var problem: MetadataError?

    public init(
        format: ImageFormat, pixelSize: PixelSize? = nil, orientation: Int? = nil,
        displaySize: PixelSize? = nil, exifDate: CaptureDate? = nil,
        cameraMake: String? = nil, cameraModel: String? = nil
    ) {
        self.format = format
        self.pixelSize = pixelSize
        self.orientation = orientation
        self.displaySize = displaySize
        self.exifDate = exifDate
        self.cameraMake = cameraMake
        self.cameraModel = cameraModel
    }
}
