import WallClock
import Foundation
public import Timeline
import PhotoMetadata

/// One section as `shoebox sections --json` prints it (contract: level, index, start, end, count,
/// photos); the server answers the same, with more fields per photo when asked for one section.
public struct SectionJSON: Encodable, Sendable {
    /// A shown photo. `path`, `captured` and `dateSource` always; the server adds the rest.
    public struct Photo: Encodable, Sendable {
        public var path: String
        public var captured: String
        public var dateSource: String
        public var pathBytes: String?
        public var id: Int64?
        public var width: Int?
        public var height: Int?
        public var mediaType: String?
        /// For a stack's cover (one item standing for a burst, RAW+JPEG or an edit): the stack's id
        /// (the cover's) and how many photos it holds; absent otherwise.
        public var stack: Int64?
        public var stackCount: Int?
        /// In a search result, for a stack found only through a member: that member's id, where
        /// the pager opens the stack; absent otherwise.
        public var matchedMember: Int64?

        public init(
            path: String, captured: String, dateSource: String, pathBytes: String? = nil, id: Int64? = nil,
            width: Int? = nil, height: Int? = nil, mediaType: String? = nil, stack: Int64? = nil, stackCount: Int? = nil
        ) {
            self.path = path
            self.captured = captured
            self.dateSource = dateSource
            self.pathBytes = pathBytes
            self.id = id
            self.width = width
            self.height = height
            self.mediaType = mediaType
            self.stack = stack
            self.stackCount = stackCount
        }

        /// The explicit-null fields are written only when the photo is in detail (`id` set).
        public func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(path, forKey: .path)
            try c.encode(captured, forKey: .captured)
            try c.encode(dateSource, forKey: .dateSource)
            try c.encodeIfPresent(pathBytes, forKey: .pathBytes)
            if let id {
                try c.encode(id, forKey: .id)
                try c.encode(width, forKey: .width)
                try c.encode(height, forKey: .height)
                try c.encode(mediaType, forKey: .mediaType)
                try c.encodeIfPresent(stack, forKey: .stack)
                try c.encodeIfPresent(stackCount, forKey: .stackCount)
                try c.encodeIfPresent(matchedMember, forKey: .matchedMember)
            }
        }

        enum CodingKeys: String, CodingKey {
            case path, captured, dateSource, pathBytes, id, width, height, mediaType, stack, stackCount, matchedMember
        }
    }

    public var level: String
    public var index: Int
    public var start: String
    public var end: String
    public var count: Int
    /// The photos of its items when a stack is among them (a stack is one item of `count` but all
    /// of its photos here), else nil: what its header says.
    public var photoCount: Int?
    public var shown: Int
    public var label: String
    /// Where its photos were taken: up to three names, most photos first (see `SectionPlaces`).
    public var places: [String] = []
    /// The shown photos; `nil` in section lists that leave them out (the server's `/api/sections`).
    public var photos: [Photo]?

    /// - Parameters:
    ///   - photos: `.none` leaves them out, `.summary` gives path, captured and date source (the
    ///     CLI's contract), `.detail` adds id, display size and media type.
    /// - Parameter items: which of the shown photos to include (all by default): a viewer pages
    ///   through a day of thousands of photos.
    public init(_ summary: SectionSummary, snapshot: TimelineSnapshot, photos: PhotoFields, items: Range<Int>? = nil) {
        level = summary.level.rawValue
        index = summary.index
        start = summary.start.isoString
        end = summary.end.isoString
        count = summary.count
        let photoCount = snapshot.photoCount(summary.level, section: summary.index)
        self.photoCount = photoCount == summary.count ? nil : photoCount
        shown = summary.shown.count
        label = summary.label
        guard photos != .none else {
            self.photos = nil
            return
        }
        let shownItems = items.map { $0.clamped(to: summary.shown.indices) } ?? summary.shown.indices
        self.photos = summary.shown[shownItems].map { snapshot.photoJSON(ofPhoto: $0, detail: photos == .detail) }
    }

    init(level: String, index: Int, start: String, end: String, count: Int, shown: Int, label: String, photos: [Photo]?) {
        self.level = level
        self.index = index
        self.start = start
        self.end = end
        self.count = count
        self.shown = shown
        self.label = label
        self.photos = photos
    }

    /// How much of each shown photo a section carries.
    public enum PhotoFields: Sendable {
        case none, summary, detail
    }
}

extension TimelineSnapshot {
    /// The photo at `position` as section answers carry it: path, captured and date source, and
    /// with `detail` its id, display size and media type.
    public func photoJSON(ofPhoto position: Int, detail: Bool) -> SectionJSON.Photo {
        let photo = timeline.photos[position]
        var entry = SectionJSON.Photo(
            path: photo.path, captured: photo.captured.description,
            dateSource: source(ofPhoto: position).rawValue,
            pathBytes: pathBytes(ofPhoto: position).map { Data($0).base64EncodedString() })
        if detail {
            entry.id = id(ofPhoto: position)
            let size = displaySize(ofPhoto: position)
            entry.width = size?.width
            entry.height = size?.height
            entry.mediaType = mediaType(ofPhoto: position).rawValue
            if let count = stackCount(ofPhoto: position) {
                entry.stack = entry.id
                entry.stackCount = count
                entry.matchedMember = matchedMember(ofPhoto: position)
            }
        }
        return entry
    }
}
