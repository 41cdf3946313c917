public import WallClock
/// One photo as the timeline sees it: where it is and when it was taken.
public struct TimelinePhoto: Sendable, Hashable, Codable {
    /// Path relative to the indexed root; it keys the stable sample and breaks capture-time ties.
    public var path: String
    /// Local wall-clock capture time.
    public var captured: LocalDateTime
    /// Where `captured` came from; kept so people can find photos dated only by their file.
    public var dateOrigin: DateOrigin

    public init(path: String, captured: LocalDateTime, dateOrigin: DateOrigin = .recorded) {
        self.path = path
        self.captured = captured
        self.dateOrigin = dateOrigin
    }

    /// Convenience for rows that carry a flag instead of a `DateOrigin`.
    public init(path: String, captured: LocalDateTime, isFromModificationTime: Bool) {
        self.init(path: path, captured: captured, dateOrigin: isFromModificationTime ? .fileModified : .recorded)
    }
}

/// Whether a photo's capture date was recorded (EXIF or file name) or guessed from the file.
public enum DateOrigin: String, Sendable, Hashable, Codable, CaseIterable {
    /// Taken from the image's metadata or its file name.
    case recorded
    /// Only the file's modification time was available.
    case fileModified
}

/// The two zoom levels of the timeline.
public enum TimelineLevel: String, Sendable, Hashable, Codable, CaseIterable, CustomStringConvertible {
    /// Fixed multi-day windows showing a capped sample.
    case coarse
    /// One or two days showing every photo.
    case fine

    public var description: String { rawValue }

    /// The level a zoom from this one goes to.
    public var other: TimelineLevel { self == .coarse ? .fine : .coarse }
}
