/// The renditions the viewer asks for.
public enum ThumbnailSize: String, Sendable, CaseIterable, Codable {
    /// Short edge 320 px, for grid cells.
    case thumbnail
    /// Long edge 1600 px, for the full-size pager.
    case preview
    /// Short edge 120 px, from the photo's embedded EXIF thumbnail when it has one (no decoding
    /// of the photo): the grid's first paint on a cold cache, until the real thumbnail arrives.
    case tiny

    /// The target in pixels: the short edge for `thumbnail` and `tiny`, the long edge for `preview`.
    public var edge: Int {
        switch self {
        case .thumbnail: 320
        case .preview: 1600
        case .tiny: 120
        }
    }

    /// The box, in display orientation, that an image of `width` × `height` is shrunk into.
    ///
    /// A thumbnail's box is unbounded along the long edge, so the short edge lands on 320.
    func box(displayWidth width: Int, displayHeight height: Int) -> (width: Int, height: Int) {
        let unbounded = 10_000_000  // VIPS_MAX_COORD
        switch self {
        case .thumbnail, .tiny: return width <= height ? (edge, unbounded) : (unbounded, edge)
        case .preview: return (edge, edge)
        }
    }
}
