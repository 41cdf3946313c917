public import Foundation

/// The move of a snapping strip's focus to a tapped thumbnail, as a pure function of time.
///
/// The content offset eases in and out toward the tapped slot while the tapped thumbnail
/// expands and the previously focused one folds. Scroll-driven expansion is off meanwhile.
public struct StripMoveAnimation: Sendable, Hashable {
    /// One animation frame.
    public struct Frame: Sendable, Hashable {
        /// The eased time, 0...1.
        public var easedTime: CGFloat
        /// The strip's content offset.
        public var contentOffsetX: CGFloat
        /// The expanding rate to pass to ``SnappingStrip/cells(contentOffsetX:aspects:expandingRate:updates:)`` (0).
        public var expandingRate: CGFloat
        /// The updates to pass along: the target row expanding, then the source row folding.
        public var updates: [SnappingStrip.CellUpdate]
    }

    /// The strip.
    public let strip: SnappingStrip
    /// Content offset when the tap happened.
    public let fromOffsetX: CGFloat
    /// The focused row when the tap happened.
    public let fromIndex: Int
    /// The tapped row.
    public let toIndex: Int

    /// Creates the move from `fromIndex` (at `fromOffsetX`) to `toIndex`.
    public init(strip: SnappingStrip, fromOffsetX: CGFloat, fromIndex: Int, toIndex: Int) {
        self.strip = strip
        self.fromOffsetX = fromOffsetX
        self.fromIndex = fromIndex
        self.toIndex = toIndex
    }

    /// Length of the move, in seconds.
    public var duration: TimeInterval { strip.configuration.moveDuration }

    /// The offset at the end: `toIndex` centred.
    public var targetOffsetX: CGFloat { strip.contentOffsetX(forIndex: toIndex) }

    /// The frame at linear time `t` (0...1, not clamped).
    public func frame(t: CGFloat) -> Frame {
        let eased = Easing.easeInOut.value(at: t)
        let target = targetOffsetX
        let offset = fromOffsetX + (target - fromOffsetX) * eased
        return Frame(
            easedTime: eased,
            contentOffsetX: offset,
            expandingRate: 0,
            updates: [
                SnappingStrip.CellUpdate(row: toIndex, expanding: eased),
                SnappingStrip.CellUpdate(row: fromIndex, expanding: 1 - eased),
            ]
        )
    }

    /// The frame `elapsed` seconds after the tap (clamped to the duration).
    public func frame(elapsed: TimeInterval) -> Frame {
        frame(t: Self.normalizedTime(elapsed, duration: duration))
    }

    /// `elapsed / duration` clamped to `0...1`; 1 for a zero duration.
    static func normalizedTime(_ elapsed: TimeInterval, duration: TimeInterval) -> CGFloat {
        guard duration > 0 else { return 1 }
        return CGFloat(min(max(elapsed / duration, 0), 1))
    }
}
