import GalleryLayout
import LibraryIndex
public import Timeline
public import ZoomMapping

/// A zoom as `shoebox zoom --json` prints it (contract: from, to, path, contentOffsetY, clamped).
public struct ZoomJSON: Encodable, Sendable {
    public struct Place: Encodable, Sendable {
        public var level: String
        public var section: Int
        public var item: Int
    }

    public var from: Place
    public var to: Place
    /// The tapped (or anchored) photo.
    public var path: String
    /// The photo shown at `to`: the same as `path` unless zooming out to a photo the sample hides.
    public var targetPath: String
    public var contentOffsetY: Double
    public var unclampedContentOffsetY: Double
    public var clamped: Bool
    /// The photo's cell top on screen before and after the zoom (viewport points).
    public var viewportY: Double
    public var targetViewportY: Double
    /// Whether any of the tapped cell is in the viewport at the request's offset: a finger can
    /// only touch a visible cell, so `false` means the question was not one a user could ask.
    public var onScreen: Bool

    public init(_ t: ZoomTransition, timeline: PhotoTimeline, viewportHeight: Double) {
        self.init(t, path: timeline.photos[t.sourcePhoto].path, targetPath: timeline.photos[t.targetPhoto].path, viewportHeight: viewportHeight)
    }

    /// The zoom `t`, whose source and target photos have the paths given, in a viewport
    /// `viewportHeight` points high.
    public init(_ t: ZoomTransition, path: String, targetPath: String, viewportHeight: Double) {
        self.init(
            from: Place(level: t.from.level.rawValue, section: t.from.section, item: t.from.item),
            to: Place(level: t.to.level.rawValue, section: t.to.section, item: t.to.item),
            path: path, targetPath: targetPath, offset: t.offset, targetViewportY: t.targetViewportY,
            sourceHeight: t.sourceFrame.height, viewportHeight: viewportHeight)
    }

    /// What both zooms (seed grid and packed) answer: the places, the paths and the offsets.
    init(
        from: Place, to: Place, path: String, targetPath: String, offset: AnchoredOffset, targetViewportY: Double,
        sourceHeight: Double, viewportHeight: Double
    ) {
        self.from = from
        self.to = to
        self.path = path
        self.targetPath = targetPath
        // `+ 0` turns a negative zero (from clamping at a zero inset) into 0.
        contentOffsetY = offset.contentOffsetY + 0
        unclampedContentOffsetY = offset.unclampedContentOffsetY + 0
        clamped = offset.clamped
        viewportY = offset.anchorY + 0
        self.targetViewportY = targetViewportY + 0
        onScreen = offset.anchorY < viewportHeight && offset.anchorY + sourceHeight > 0
    }
}

/// A zoom question, as the CLI's flags and the server's query parameters ask it.
public struct ZoomRequest: Sendable {
    /// What the user touched: a photo's cell, or a pinch's focal point in the viewport.
    public enum Anchor: Sendable {
        case item(section: Int, item: Int)
        case focalPoint(x: Double?, y: Double)
    }

    public var from: TimelineLevel
    public var anchor: Anchor
    /// The grid's current content offset y, in points (may be negative).
    public var offset: Double
    /// Viewport width and height in points; `nil` keeps the configured one.
    public var viewport: (width: Double, height: Double)?

    public init(from: TimelineLevel, anchor: Anchor, offset: Double = 0, viewport: (width: Double, height: Double)? = nil) {
        self.from = from
        self.anchor = anchor
        self.offset = offset
        self.viewport = viewport
    }

    /// The sides a viewport may have, in points.
    public static let viewportSides = 1.0...100_000.0

    /// "390x844" (or "390×844") as a viewport: two plain decimals (see `PlainNumber`) in
    /// ``viewportSides``, or `nil`.
    public static func parseViewport(_ text: String) -> (width: Double, height: Double)? {
        let parts = text.split(separator: "x", maxSplits: 2, omittingEmptySubsequences: false)
            .flatMap { $0.split(separator: "×", maxSplits: 2, omittingEmptySubsequences: false) }
        guard parts.count == 2, let width = PlainNumber.decimal(parts[0]), let height = PlainNumber.decimal(parts[1]),
              viewportSides.contains(width), viewportSides.contains(height) else { return nil }
        return (width, height)
    }

    /// Refuses what no grid can answer (negative indices, non-finite numbers), naming the value.
    public func validate() throws(LibraryError) {
        if case .item(let section, let item) = anchor {
            if section < 0 { throw LibraryError(.outOfRange, "The section must be 0 or more (got \(section)).") }
            if item < 0 { throw LibraryError(.outOfRange, "The item must be 0 or more (got \(item)).") }
        }
        if case .focalPoint(let x, let y) = anchor, !y.isFinite || !(x?.isFinite ?? true) {
            throw LibraryError(.invalidRequest, "The focal point must be finite numbers of points.")
        }
        if !offset.isFinite { throw LibraryError(.invalidRequest, "The offset must be a finite number of points (got \(offset)).") }
    }
}

extension TimelineSnapshot {
    /// Answers `request` with the zoom settings `zoom` (its viewport replaced by the request's).
    public func zoom(_ request: ZoomRequest, settings zoom: ZoomSettings) throws(LibraryError) -> ZoomJSON {
        try request.validate()
        var settings = zoom
        if let viewport = request.viewport {
            settings.viewport.width = viewport.width
            settings.viewport.height = viewport.height
        }
        let map = try zoomMap(settings: settings)
        let transition: ZoomTransition
        do {
            switch request.anchor {
            case .item(let section, let item):
                transition = try map.zoom(from: request.from, at: GridIndexPath(section: section, item: item), contentOffsetY: request.offset)
            case .focalPoint(let x, let y):
                let point = GridPoint(x: x ?? settings.viewport.width / 2, y: y)
                transition = try map.pinch(from: request.from, focalPoint: point, contentOffsetY: request.offset)
            }
        } catch {
            throw LibraryError(.outOfRange, sentence: error.message, underlyingError: error)
        }
        return ZoomJSON(transition, timeline: timeline, viewportHeight: settings.viewport.height)
    }
}

extension ZoomJSON {
    /// The packed zoom `t` (levels `years`, `coarse` or `fine`).
    public init(_ t: PackedTransition, timeline: PhotoTimeline, viewportHeight: Double) {
        self.init(
            from: Place(level: t.from.level.rawValue, section: t.from.section, item: t.from.item),
            to: Place(level: t.to.level.rawValue, section: t.to.section, item: t.to.item),
            path: timeline.photos[t.sourcePhoto].path, targetPath: timeline.photos[t.targetPhoto].path,
            offset: t.offset, targetViewportY: t.targetViewportY, sourceHeight: t.sourceFrame.height, viewportHeight: viewportHeight)
    }
}

/// A zoom question on the packed timeline: any two of its three levels.
public struct PackedZoomRequest: Sendable {
    public var from: PackedLevel
    public var to: PackedLevel
    public var anchor: ZoomRequest.Anchor
    public var offset: Double
    /// Viewport width and height in points; `nil` keeps the configured one.
    public var viewport: (width: Double, height: Double)?
    /// Picks each year's key photo (only its month and day matter).
    public var today: TimelineDay

    /// - Parameter to: the target level; by default years → coarse, coarse → fine, fine → coarse.
    public init(from: PackedLevel, to: PackedLevel? = nil, anchor: ZoomRequest.Anchor, offset: Double = 0,
                viewport: (width: Double, height: Double)? = nil, today: TimelineDay) {
        self.from = from
        self.to = to ?? from.defaultTarget
        self.anchor = anchor
        self.offset = offset
        self.viewport = viewport
        self.today = today
    }
}

extension TimelineSnapshot {
    /// Answers `request` on the packed layouts of its viewport (else `zoom`'s), with `zoom`'s content insets.
    public func packedZoom(_ request: PackedZoomRequest, settings zoom: ZoomSettings) throws(LibraryError) -> ZoomJSON {
        try ZoomRequest(from: .coarse, anchor: request.anchor, offset: request.offset).validate()
        let viewport = request.viewport.map { ViewportSize(width: $0.width, height: $0.height) } ?? zoom.viewport
        let map = try packedMap(viewport: viewport, contentInsets: zoom.contentInsets, today: request.today)
        let transition: PackedTransition
        do {
            switch request.anchor {
            case .item(let section, let item):
                transition = try map.zoom(from: request.from, to: request.to, at: GridIndexPath(section: section, item: item), contentOffsetY: request.offset)
            case .focalPoint(let x, let y):
                transition = try map.pinch(
                    from: request.from, to: request.to, focalPoint: GridPoint(x: x ?? viewport.width / 2, y: y), contentOffsetY: request.offset)
            }
        } catch {
            throw LibraryError(.outOfRange, sentence: error.message, underlyingError: error)
        }
        return ZoomJSON(transition, timeline: timeline, viewportHeight: viewport.height)
    }
}
