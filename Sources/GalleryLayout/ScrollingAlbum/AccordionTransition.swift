public import Foundation

/// The timing of one fold or unfold of an accordion cell, as a pure function of elapsed time.
///
/// Drive it from a display link: keep the start time, and on every frame ask for
/// ``progress(elapsed:)`` with the time since the start.
public struct AccordionTransition: Sendable, Hashable {
    /// Which way the cell moves.
    public enum Kind: String, Sendable, Hashable {
        /// From full width (progress 1) to folded (progress 0), while the user drags the strip.
        case folding
        /// From folded (progress 0) to full width (progress 1), when scrolling ends.
        case unfolding
    }

    /// Which way the cell moves.
    public let kind: Kind
    /// Full width of the animated cell, in points.
    public let cellLength: CGFloat
    /// Length of the animation, in seconds: the minimum duration, longer for cells longer than
    /// the base length.
    public let duration: TimeInterval

    /// Creates the timing of a cell of full width `cellLength`.
    public init(kind: Kind, cellLength: CGFloat, configuration: AccordionStrip.Configuration = .init()) {
        self.kind = kind
        self.cellLength = cellLength
        let scaled = Double(cellLength / configuration.baseLength) * configuration.minimumDuration
        self.duration = max(configuration.minimumDuration, scaled)
    }

    /// The accordion progress (1 unfolded, 0 folded) after `elapsed` seconds.
    ///
    /// - Parameter elapsed: seconds since the animation started, or `nil` when it has not
    ///   started: folding then reports 1 and unfolding 0.
    public func progress(elapsed: TimeInterval?) -> CGFloat {
        switch kind {
        case .unfolding:
            guard let elapsed else { return 0 }
            if elapsed >= duration { return 1 }
            return CGFloat(elapsed / duration)
        case .folding:
            guard let elapsed else { return 1 }
            if elapsed >= duration { return 0 }
            return CGFloat(1 - elapsed / duration)
        }
    }

    /// Whether the animation is over after `elapsed` seconds.
    public func isFinished(elapsed: TimeInterval) -> Bool {
        elapsed >= duration
    }
}
