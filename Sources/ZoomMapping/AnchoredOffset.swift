/// The zoom offset rule: keep a cell at the same height on screen across a change of grid.
///
/// With `anchorY = sourceMinY − sourceContentOffsetY` (the cell's y in the viewport), the target
/// offset is `targetMinY − (anchorY + shift)`, clamped to the scroll range. With `shift` 0 (tops
/// kept level) this is `MP.zoom_in_offset` (corrected: no scroll-to-top first), plus the clamp.
public struct AnchoredOffset: Sendable, Hashable {
    /// The source cell's minY in viewport coordinates (`h`).
    public let anchorY: Double
    /// `targetMinY − (anchorY + shift)`.
    public let unclampedContentOffsetY: Double
    /// `unclampedContentOffsetY` clamped to the scroll range.
    public let contentOffsetY: Double

    /// - Parameter shift: how far below the source cell's top the target cell's top lands on
    ///   screen (unless clamped); 0 keeps the tops level.
    public init(sourceMinY: Double, sourceContentOffsetY: Double, targetMinY: Double, scrollRange: ClosedRange<Double>, shift: Double = 0) {
        anchorY = sourceMinY - sourceContentOffsetY
        unclampedContentOffsetY = targetMinY - (anchorY + shift)
        contentOffsetY = min(max(unclampedContentOffsetY, scrollRange.lowerBound), scrollRange.upperBound)
    }

    /// Whether the clamp moved the offset (the cell then lands elsewhere on screen).
    public var clamped: Bool { contentOffsetY != unclampedContentOffsetY }
}
