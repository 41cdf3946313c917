public import PhotoMetadata

/// One row of the index: a file under the root and what was read from it.
public struct IndexedPhoto: Sendable, Hashable {
    public var path: RelativePath
    public var fileSize: Int64
    /// Modification time, nanoseconds since 1970 (compared between runs to skip unchanged files).
    public var modificationTime: Int64
    /// `nil` when the file could not be read far enough to tell.
    public var format: ImageFormat?
    /// Always present: EXIF, else the file name, else the modification time.
    public var captureDate: CaptureDate
    public var pixelSize: PixelSize?
    public var orientation: Int?
    public var displaySize: PixelSize?
    public var cameraMake: String?
    public var cameraModel: String?
    /// Why the file could not be read, or `nil`.
    public var error: String?
    /// Photo or video (a file read too little to tell counts as a photo).
    public var mediaType: MediaType
    /// Seconds of playback, for videos whose container says.
    public var duration: Double?
    /// For a Live Photo, the other half: the still's path on the video's row, the video's on the still's.
    public var pairedWith: RelativePath?

    public init(
        path: RelativePath, fileSize: Int64, modificationTime: Int64, format: ImageFormat?,
        captureDate: CaptureDate, pixelSize: PixelSize? = nil, orientation: Int? = nil,
        displaySize: PixelSize? = nil, cameraMake: String? = nil, cameraModel: String? = nil,
        error: String? = nil, mediaType: MediaType? = nil, duration: Double? = nil, pairedWith: RelativePath? = nil
    ) {
        self.path = path
        self.fileSize = fileSize
        self.modificationTime = modificationTime
        self.format = format
        self.captureDate = captureDate
        self.pixelSize = pixelSize
        self.orientation = orientation
        self.displaySize = displaySize
        self.cameraMake = cameraMake
        self.cameraModel = cameraModel
        self.error = error
        self.mediaType = mediaType ?? format?.mediaType ?? .photo
        self.duration = duration
        self.pairedWith = pairedWith
    }
}

/// The capture time of one photo or video, as the timeline needs it: loaded in one query, in capture order.
public struct PhotoMoment: Sendable, Hashable {
    /// The relative path for display (invalid UTF-8 shown as U+FFFD).
    public var path: String
    public var captured: LocalDateTime
    public var source: DateSource
}
