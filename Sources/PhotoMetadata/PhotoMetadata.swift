/// What Shoebox knows about one image or video file after reading its header and metadata.
public struct PhotoMetadata: Sendable, Hashable {
    public var format: ImageFormat
    /// The pixel size stored in the image header, before any rotation (for videos: the first
    /// enabled video track's size).
    public var pixelSize: PixelSize?
    /// EXIF orientation (1–8), when the file has one.
    public var orientation: Int?
    /// The size as displayed: `pixelSize` turned by EXIF orientation, by `irot` for HEIF/AVIF,
    /// or by the track matrix for videos.
    public var displaySize: PixelSize?
    /// The first valid date recorded inside the file: the EXIF chain (DateTimeOriginal,
    /// DateTimeDigitized, DateTime) for photos, the container chain (CreationDate,
    /// DateTimeOriginal, MediaCreateDate) for videos.
    public var exifDate: CaptureDate?
    public var cameraMake: String?
    public var cameraModel: String?
    /// Seconds of playback, for videos whose container says.
    public var duration: Double?
    /// Where it was taken: EXIF GPS, else embedded XMP (photos); QuickTime `©xyz` or ISO 6709
    /// location (videos). Sidecars are read by the caller.
    public var position: GeoPosition?
    /// The UTC time of the GPS fix (EXIF `GPSDateStamp` + `GPSTimeStamp`). `exifDate` already has
    /// the offset derived from it when the file wrote none; a date found elsewhere (a file name,
    /// a sidecar) can get one with `CaptureDate.withOffset(fromGPSTime:)`.
    public var gpsTimestamp: GPSTimestamp?
    /// What stopped the read early when the file was only partly readable (e.g. cut short after
    /// its EXIF block); the other fields hold what was read before.
    public var problem: MetadataError?

    public init(
        format: ImageFormat, pixelSize: PixelSize? = nil, orientation: Int? = nil,
        displaySize: PixelSize? = nil, exifDate: CaptureDate? = nil,
        cameraMake: String? = nil, cameraModel: String? = nil, duration: Double? = nil,
        position: GeoPosition? = nil, gpsTimestamp: GPSTimestamp? = nil
    ) {
        self.format = format
        self.pixelSize = pixelSize
        self.orientation = orientation
        self.displaySize = displaySize
        self.exifDate = exifDate
        self.cameraMake = cameraMake
        self.cameraModel = cameraModel
        self.duration = duration
        self.position = position
        self.gpsTimestamp = gpsTimestamp
    }

    /// Photo or video, from the format.
    public var mediaType: MediaType { format.mediaType }
}
