public import Foundation

/// The change of a snapping strip's expanding rate around a drag, as a pure function of time.
///
/// When a drag begins the rate eases to 0 (thumbnails fold while the user scrolls); when it
/// ends it eases back to 1. The duration is proportional to the change.
public struct ExpandingRateAnimation: Sendable, Hashable {
    /// The moment of the drag.
    public enum Phase: String, Sendable, Hashable {
        /// The user started dragging: fold.
        case begin
        /// The user lifted the finger: expand again.
        case end
    }

    /// The rate when the animation started.
    public var currentRate: CGFloat
    /// The rate at the end: 0 for ``Phase/begin``, 1 for ``Phase/end``.
    public var targetRate: CGFloat
    /// Length, in seconds: ``SnappingStrip/Configuration/expandingRateDuration`` × |change|.
    public var duration: TimeInterval

    /// Creates the animation from `currentRate` for a drag `phase`.
    public init(phase: Phase, currentRate: CGFloat, configuration: SnappingStrip.Configuration = .init()) {
        self.currentRate = currentRate
        let target: CGFloat = phase == .begin ? 0 : 1
        self.targetRate = target
        self.duration = configuration.expandingRateDuration * Double(abs(currentRate - target))
    }

    /// The rate at linear time `t` (0...1, not clamped), eased in and out.
    public func rate(t: CGFloat) -> CGFloat {
        currentRate + (targetRate - currentRate) * Easing.easeInOut.value(at: t)
    }

    /// The rate `elapsed` seconds after the start (clamped to the duration).
    public func rate(elapsed: TimeInterval) -> CGFloat {
        rate(t: StripMoveAnimation.normalizedTime(elapsed, duration: duration))
    }
}
