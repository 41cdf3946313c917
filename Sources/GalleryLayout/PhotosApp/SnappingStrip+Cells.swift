public import Foundation

extension SnappingStrip {
    /// The side toward which a deleted thumbnail's gap closes.
    public enum Direction: String, Sendable, Hashable {
        /// The thumbnails before the deleted one move right (the last row was deleted).
        case left
        /// The thumbnails after the deleted one move left.
        case right

        /// The other side.
        public var opposite: Direction {
            self == .left ? .right : .left
        }
    }

    /// An animation's override of one row's state; each non-`nil` field replaces the
    /// scroll-driven value.
    public struct CellUpdate: Sendable, Hashable {
        /// The row it applies to.
        public var row: Int
        /// Expansion toward the photo's aspect, 0...1.
        public var expanding: CGFloat?
        /// Collapse of a deleted thumbnail, 0...1 (1: invisible).
        public var collapsing: CGFloat?
        /// Closing of a deleted thumbnail's gap, 0...1.
        public var deleting: CGFloat?
        /// Side toward which the gap closes.
        public var direction: Direction?

        /// Creates an override for `row`.
        public init(
            row: Int,
            expanding: CGFloat? = nil,
            collapsing: CGFloat? = nil,
            deleting: CGFloat? = nil,
            direction: Direction? = nil
        ) {
            self.row = row
            self.expanding = expanding
            self.collapsing = collapsing
            self.deleting = deleting
            self.direction = direction
        }
    }

    /// The geometry of one thumbnail.
    public struct Cell: Sendable, Hashable {
        /// The thumbnail's row.
        public var row: Int
        /// Expansion toward the photo's aspect, 0...1.
        public var expanding: CGFloat
        /// Collapse, 0...1.
        public var collapsing: CGFloat
        /// Closing of the gap, 0...1.
        public var deleting: CGFloat
        /// Side toward which the gap closes.
        public var direction: Direction
        /// Centre x of the row's folded slot.
        public var slotCenterX: CGFloat
        /// Displacement from the slot caused by the other rows' expansion and deletion.
        public var translateX: CGFloat
        /// Centre x, in content coordinates: slot plus translation.
        public var centerX: CGFloat
        /// Size (the width rounded up to whole points).
        public var size: CGSize
        /// Opacity, 0...1.
        public var alpha: CGFloat
        /// Frame in content coordinates, vertically centred in the strip.
        public var frame: CGRect
    }

    /// The per-row animation state before translations are applied.
    private struct RowState {
        var expanding: CGFloat
        var collapsing: CGFloat = 0
        var deleting: CGFloat = 0
        var direction: Direction = .left
    }

    /// The geometry of every thumbnail for a content offset and the running animations.
    ///
    /// Rows within one pitch of the centre expand in proportion to their closeness, scaled by
    /// `expandingRate`; `updates` (applied in order) then replace fields of a row's state. An
    /// expanded row widens to `item height × aspect` and pushes the rows on each side by half its
    /// extra width plus half of ``Configuration/focusedSpacing``; a deleting row pulls the rows
    /// on its ``Direction`` side by one pitch.
    /// - Parameters:
    ///   - aspects: width / height of each row's photo (not clamped); the count of the strip.
    ///   - expandingRate: 0...1, scales the scroll-driven expansion (0 while dragging).
    /// - Complexity: O(*n* × *k*), *k* the number of rows that push others (at most a few).
    public func cells(
        contentOffsetX: CGFloat,
        aspects: [CGFloat],
        expandingRate: CGFloat = 1,
        updates: [CellUpdate] = []
    ) -> [Cell] {
        let count = aspects.count
        let itemWidth = itemSize.width
        let itemHeight = itemSize.height
        let pitch = pitch
        let offset = contentOffsetX + farInset

        var states: [RowState] = (0..<count).map { row in
            let distance = abs((slotCenterX(at: row) - itemWidth / 2) - offset)
            let expanding = distance < pitch ? (1 - distance / pitch) * expandingRate : 0
            return RowState(expanding: expanding)
        }
        for update in updates where states.indices.contains(update.row) {
            if let expanding = update.expanding { states[update.row].expanding = expanding }
            if let collapsing = update.collapsing { states[update.row].collapsing = collapsing }
            if let deleting = update.deleting { states[update.row].deleting = deleting }
            if let direction = update.direction { states[update.row].direction = direction }
        }

        let extras = (0..<count).map { row in
            (itemHeight * aspects[row] - itemWidth) * states[row].expanding
        }
        func shift(_ row: Int, _ direction: Direction) -> CGFloat {
            let state = states[row]
            let symmetric = (extras[row] + configuration.focusedSpacing * state.expanding) / 2 * (1 - state.deleting)
            switch direction {
            case .left: return symmetric
            case .right: return symmetric - pitch * state.deleting
            }
        }
        // Rows that push no one add exactly zero; skipping them keeps the sums bit-identical.
        let pushers = (0..<count).filter { states[$0].expanding != 0 || states[$0].deleting != 0 }
        let pushes = pushers.map { row in
            (row: row, toward: shift(row, states[row].direction), against: shift(row, states[row].direction.opposite))
        }

        return (0..<count).map { row in
            let state = states[row]
            var translate: CGFloat = 0
            for push in pushes where push.row != row {
                if row < push.row {
                    translate -= push.against
                } else {
                    translate += push.toward
                }
            }
            let slot = slotCenterX(at: row)
            let width = ((itemWidth + extras[row]) * (1 - state.collapsing)).rounded(.up)
            let height = itemHeight * (1 - state.collapsing)
            let centerX = slot + translate
            return Cell(
                row: row,
                expanding: state.expanding,
                collapsing: state.collapsing,
                deleting: state.deleting,
                direction: state.direction,
                slotCenterX: slot,
                translateX: translate,
                centerX: centerX,
                size: CGSize(width: width, height: height),
                alpha: 1 - state.collapsing,
                frame: GalleryMath.frame(centerX: centerX, centerY: itemHeight / 2, width: width, height: height)
            )
        }
    }
}
