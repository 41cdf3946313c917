public import WallClock
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
    /// The row id (`nil` for a photo not yet stored).
    public var id: Int64?
    /// When a run last found this row's file missing and kept the row (see `IndexSettings.removalLimit`),
    /// as an ISO 8601 timestamp; `nil` while the file is there.
    public var missingSince: String?
    /// Photo or video (a file read too little to tell counts as a photo).
    public var mediaType: MediaType
    /// Seconds of playback, for videos whose container says.
    public var duration: Double?
    /// For a Live Photo, the other half: the still's path on the video's row, the video's on the still's.
    public var pairedWith: RelativePath?
    /// Where it was taken: from the file, else from its sidecar.
    public var position: GeoPosition?
    /// The names of the nearest place to `position`, when a places table was installed.
    public var place: PhotoPlace?
    /// It has a position but was read while no places table was at hand: a later run that has one
    /// names its place (see `LibraryStore.namePendingPlaces`).
    public var placePending = false

    public init(
        path: RelativePath, fileSize: Int64, modificationTime: Int64, format: ImageFormat?,
        captureDate: CaptureDate, pixelSize: PixelSize? = nil, orientation: Int? = nil,
        displaySize: PixelSize? = nil, cameraMake: String? = nil, cameraModel: String? = nil,
        error: String? = nil, mediaType: MediaType? = nil, duration: Double? = nil, pairedWith: RelativePath? = nil,
        position: GeoPosition? = nil, place: PhotoPlace? = nil, id: Int64? = nil, missingSince: String? = nil
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
        self.id = id
        self.missingSince = missingSince
        self.mediaType = mediaType ?? format?.mediaType ?? .photo
        self.duration = duration
        self.pairedWith = pairedWith
        self.position = position
        self.place = place
    }
}

/// The capture time of one photo or video, as the timeline needs it: loaded in one query, in capture order.
public struct PhotoMoment: Sendable, Hashable {
    /// The row id, stable while the file stays at its path.
    public var id: Int64
    /// The relative path as text (`RelativePath.string`: invalid UTF-8 bytes as `\xHH`).
    public var path: String
    /// The exact bytes of a path that is not valid UTF-8; `nil` when `path` is exact.
    public var pathBytes: [UInt8]?
    public var captured: LocalDateTime
    public var source: DateSource
    /// Display size, when the file could be read.
    public var width: Int?
    public var height: Int?
    public var mediaType: MediaType
    /// Whether the file was read without an error and its format recognised: what a Years card
    /// may show as its key photo.
    public var isReadable = true
}

/// Counts for a library overview, and the last run that finished.
public struct LibraryStatistics: Sendable, Hashable {
    /// Rows that are photos (or files read too little to tell).
    public var photos: Int
    public var videos: Int
    /// Rows stored with an error.
    public var errors: Int
    /// Changes whenever a run finishes: compare to notice another process's run.
    public var lastRunID: Int64?
    /// When that run finished (ISO 8601), or `nil` before the first.
    public var lastIndexed: String?
}
