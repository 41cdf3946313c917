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

    public init(
        path: RelativePath, fileSize: Int64, modificationTime: Int64, format: ImageFormat?,
        captureDate: CaptureDate, pixelSize: PixelSize? = nil, orientation: Int? = nil,
        displaySize: PixelSize? = nil, cameraMake: String? = nil, cameraModel: String? = nil,
        error: String? = nil
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
    }
}

/// The capture time of one photo, as the timeline needs it: loaded in one query, in capture order.
public struct PhotoMoment: Sendable, Hashable {
    /// The relative path for display (invalid UTF-8 shown as U+FFFD).
    public var path: String
    public var captured: LocalDateTime
    public var source: DateSource
}
