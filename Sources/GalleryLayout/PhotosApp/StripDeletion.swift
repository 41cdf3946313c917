public import Foundation

/// The deletion of the focused thumbnail of a snapping strip: its plan and its frames as a
/// pure function of time.
///
/// First the row collapses (``SnappingStrip/Configuration/collapseDuration``, linear); then its
/// gap closes toward ``direction`` while the neighbour that takes the focus expands
/// (``SnappingStrip/Configuration/deleteDuration``, linear). Then remove the item from the data
/// and lay the strip out at ``activeIndexAfter``: nothing moves on screen.
public struct StripDeletion: Sendable, Hashable {
    /// The deleted row.
    public let row: Int
    /// The number of thumbnails before the deletion.
    public let count: Int
    /// Which side closes the gap: `.left` when the last row is deleted, else `.right`.
    public let direction: SnappingStrip.Direction
    /// The row that takes the focus and expands, or `nil` when none is left.
    public let expandingRow: Int?
    /// The focused index once the row is removed, or `nil` when the strip becomes empty.
    public let activeIndexAfter: Int?
    /// Length of the collapse phase, in seconds.
    public let collapseDuration: TimeInterval
    /// Length of the gap-closing phase, in seconds.
    public let deleteDuration: TimeInterval

    /// Plans the deletion of `row` from `count` thumbnails.
    public init(row: Int, count: Int, configuration: SnappingStrip.Configuration = .init()) {
        self.row = row
        self.count = count
        let direction: SnappingStrip.Direction = row + 1 >= count ? .left : .right
        self.direction = direction
        let neighbour = direction == .left ? row - 1 : row + 1
        self.expandingRow = (0..<count).contains(neighbour) ? neighbour : nil
        if row < count - 1 {
            self.activeIndexAfter = row
        } else if count >= 2 {
            self.activeIndexAfter = count - 2
        } else {
            self.activeIndexAfter = nil
        }
        self.collapseDuration = configuration.collapseDuration
        self.deleteDuration = configuration.deleteDuration
    }

    /// Length of the whole animation, in seconds.
    public var duration: TimeInterval { collapseDuration + deleteDuration }

    /// Whether the animation is over after `elapsed` seconds (then remove the item).
    public func isFinished(elapsed: TimeInterval) -> Bool {
        elapsed >= duration
    }

    /// The updates to pass to ``SnappingStrip/cells(contentOffsetX:aspects:expandingRate:updates:)``
    /// `elapsed` seconds after the start (clamped to the duration).
    public func updates(elapsed: TimeInterval) -> [SnappingStrip.CellUpdate] {
        if elapsed < collapseDuration {
            let collapsing = StripMoveAnimation.normalizedTime(elapsed, duration: collapseDuration)
            return updates(collapsing: collapsing, deleting: 0)
        }
        let deleting = StripMoveAnimation.normalizedTime(elapsed - collapseDuration, duration: deleteDuration)
        return updates(collapsing: 1, deleting: deleting)
    }

    /// The updates for explicit phase progress: `collapsing` of the row, then `deleting` of the
    /// row together with `expanding` of ``expandingRow`` (same value).
    public func updates(collapsing: CGFloat, deleting: CGFloat) -> [SnappingStrip.CellUpdate] {
        var updates = [
            SnappingStrip.CellUpdate(row: row, collapsing: collapsing, deleting: deleting, direction: direction)
        ]
        if deleting > 0, let expandingRow {
            updates.append(SnappingStrip.CellUpdate(row: expandingRow, expanding: deleting))
        }
        return updates
    }
}
