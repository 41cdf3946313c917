/// The renditions the viewer asks for.
public enum ThumbnailSize: String, Sendable, CaseIterable, Codable {
    /// Short edge 320 px, for grid cells.
    case thumbnail
    /// Short edge 800 px, for grid cells wider than 320 device pixels (desktop cells, 2× screens).
    case large
    /// Long edge 1600 px, for the full-size pager.
    case preview
    /// Short edge 120 px, from the photo's embedded EXIF thumbnail when it has one (no decoding
    /// of the photo): the grid's first paint on a cold cache, until the real thumbnail arrives.
    case tiny

    /// The target in pixels: the short edge for grid sizes and `tiny`, the long edge for `preview`.
    public var edge: Int {
        switch self {
        case .thumbnail: 320
        case .large: 800
        case .preview: 1600
        case .tiny: 120
        }
    }

    /// Whether `edge` is the short edge (a grid size, cropped to a square cell) rather than the long one.
    public var isShortEdge: Bool {
        switch self {
        case .thumbnail, .large, .tiny: true
        case .preview: false
        }
    }

    /// The box, in display orientation, that an image of `width` × `height` is shrunk into.
    ///
    /// A grid size's box is unbounded along the long edge, so the short edge lands on `edge`.
    func box(displayWidth width: Int, displayHeight height: Int) -> (width: Int, height: Int) {
        let unbounded = 10_000_000  // VIPS_MAX_COORD
        guard isShortEdge else { return (edge, edge) }
        return width <= height ? (edge, unbounded) : (unbounded, edge)
    }
}
