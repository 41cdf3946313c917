/// What a reader found in one file, gathered as it goes so that a later failure keeps it.
struct ImageFacts {
    var format: ImageFormat
    /// The size in the image header (for raw files: of the full-resolution image only; for
    /// videos: of the first enabled video track).
    var pixelSize: PixelSize?
    var exif = ExifValues()
    /// Counter-clockwise quarter turns from a HEIF `irot` box or a video track matrix; used
    /// instead of EXIF orientation.
    var quarterTurns = 0
    /// Seconds of playback (videos).
    var duration: Double?
    /// The dates a video container records, before the chain picks one.
    var videoDates = VideoDates()
    /// A position found outside EXIF: a movie's location, or embedded XMP. EXIF GPS wins.
    var position: GeoPosition?

    init(format: ImageFormat) { self.format = format }

    /// Whether anything beyond the format was found.
    var isEmpty: Bool { pixelSize == nil && exif.isEmpty && duration == nil && videoDates.isEmpty && position == nil }

    /// Sets the pixel size when both sides are positive.
    mutating func setSize(width: Int, height: Int) {
        pixelSize = width > 0 && height > 0 ? PixelSize(width: width, height: height) : nil
    }

    /// Sets the duration when it is a finite, positive number of seconds.
    mutating func setDuration(_ seconds: Double) {
        duration = seconds.isFinite && seconds > 0 ? seconds : nil
    }

    /// The public result, with the display size policy applied, in the machine's time zone.
    var metadata: PhotoMetadata { metadata(timeZone: .system) }

    /// The public result; `timeZone` turns the UTC dates of video containers into local time.
    func metadata(timeZone: LocalTimeZone) -> PhotoMetadata {
        let turned: Bool
        switch format {
        case .heic, .heif, .avif: turned = quarterTurns % 2 != 0
        case _ where format.mediaType == .video: turned = quarterTurns % 2 != 0
        default: turned = (5...8).contains(exif.orientation ?? 1)
        }
        let gpsTimestamp = exif.gps.timestamp
        let date = format.mediaType == .video ? videoDates.captureDate(timeZone: timeZone) : exif.captureDate
        return PhotoMetadata(
            format: format, pixelSize: pixelSize, orientation: exif.orientation,
            displaySize: turned ? pixelSize?.transposed : pixelSize,
            exifDate: date?.withOffset(fromGPSTime: gpsTimestamp), cameraMake: exif.make, cameraModel: exif.model,
            duration: duration, position: exif.gps.position ?? position, gpsTimestamp: gpsTimestamp)
    }
}
