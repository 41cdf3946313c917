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
    /// When a run last found this row's file missing and kept the row (see `IndexSettings.removalLimit`),
    /// as an ISO 8601 timestamp; `nil` while the file is there.
    public var missingSince: String?

    public init(
        path: RelativePath, fileSize: Int64, modificationTime: Int64, format: ImageFormat?,
        captureDate: CaptureDate, pixelSize: PixelSize? = nil, orientation: Int? = nil,
        displaySize: PixelSize? = nil, cameraMake: String? = nil, cameraModel: String? = nil,
        error: String? = nil, missingSince: String? = nil
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
        self.missingSince = missingSince
    }
}

/// The capture time of one photo, as the timeline needs it: loaded in one query, in capture order.
public struct PhotoMoment: Sendable, Hashable {
    /// The relative path as text (`RelativePath.string`: invalid UTF-8 bytes as `\xHH`).
    public var path: String
    public var captured: LocalDateTime
    public var source: DateSource
}
