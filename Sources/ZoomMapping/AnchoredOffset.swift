/// The zoom offset rule: keep a cell at the same height on screen across a change of grid.
///
/// With `anchorY = sourceMinY − sourceContentOffsetY` (the cell's y in the viewport), the target
/// offset is `targetMinY − anchorY`, clamped to the scroll range. This is `MP.zoom_in_offset`
/// (corrected: no scroll-to-top first), plus the clamp.
public struct AnchoredOffset: Sendable, Hashable {
    /// The source cell's minY in viewport coordinates (`h`).
    public let anchorY: Double
    /// `targetMinY − anchorY`.
    public let unclampedContentOffsetY: Double
    /// `unclampedContentOffsetY` clamped to the scroll range.
    public let contentOffsetY: Double

    public init(sourceMinY: Double, sourceContentOffsetY: Double, targetMinY: Double, scrollRange: ClosedRange<Double>) {
        anchorY = sourceMinY - sourceContentOffsetY
        unclampedContentOffsetY = targetMinY - anchorY
        contentOffsetY = min(max(unclampedContentOffsetY, scrollRange.lowerBound), scrollRange.upperBound)
    }

    /// Whether the clamp moved the offset (the cell then lands elsewhere on screen).
    public var clamped: Bool { contentOffsetY != unclampedContentOffsetY }
}
