public import WallClock
public import PhotoMetadata
public import Timeline

/// One section as the command line reports it, from a snapshot or from the persisted tables.
public struct SectionReport: Sendable, Hashable {
    /// A shown photo: what a listing and the JSON contract print of it.
    public struct Photo: Sendable, Hashable {
        public var path: String
        public var captured: LocalDateTime
        public var source: DateSource
        /// The exact bytes of a path that is not valid UTF-8.
        public var pathBytes: [UInt8]?
    }

    public var level: TimelineLevel
    public var index: Int
    public var start: TimelineDay
    public var end: TimelineDay
    public var count: Int
    /// Items shown (all photos at the fine level).
    public var shown: Int
    /// Of the shown photos, those dated only by their file's modification time.
    public var fileDated: Int
    /// The shown photos in capture order, when asked for.
    public var photos: [Photo]?

    /// "8 – 9 Mar 2025" (see ``TimelineDay/rangeLabel(from:to:)``).
    public var label: String { TimelineDay.rangeLabel(from: start, to: end) }
}

extension TimelineSnapshot {
    /// The sections of `level`, or one of them, with their shown photos when `withPhotos`.
    public func reports(_ level: TimelineLevel, section: Int? = nil, withPhotos: Bool) throws(LibraryError) -> [SectionReport] {
        try summaries(level, section: section).map { summary in
            let fileDated = summary.shown.count { timeline.photos[$0].dateOrigin == .fileModified }
            return SectionReport(
                level: summary.level, index: summary.index, start: summary.start, end: summary.end, count: summary.count,
                shown: summary.shown.count, fileDated: fileDated,
                photos: withPhotos ? summary.shown.map { position in
                    let photo = timeline.photos[position]
                    return SectionReport.Photo(
                        path: photo.path, captured: photo.captured, source: source(ofPhoto: position), pathBytes: pathBytes(ofPhoto: position))
                } : nil)
        }
    }
}

extension SectionJSON {
    /// The section as `shoebox sections --json` prints it (photos with path, captured and date source).
    public init(_ report: SectionReport) {
        self.init(
            level: report.level.rawValue, index: report.index, start: report.start.isoString, end: report.end.isoString,
            count: report.count, shown: report.shown, label: report.label,
            photos: report.photos?.map { photo in
                Photo(path: photo.path, captured: photo.captured.description, dateSource: photo.source.rawValue,
                      pathBytes: photo.pathBytes.map { ContractJSON.base64($0) })
            })
    }
}
