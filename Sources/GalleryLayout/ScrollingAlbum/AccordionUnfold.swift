public import Foundation

/// The unfold animation of an accordion strip: the cell nearest the centre grows to full
/// width while the content offset moves so that it ends exactly centred.
///
/// Create it once, when scrolling ends, from the strip's inset and offset at that moment; then
/// ask for a ``Frame`` per display-link tick.
public struct AccordionUnfold: Sendable, Hashable {
    /// One animation frame: what to apply to the strip.
    public struct Frame: Sendable, Hashable {
        /// The progress this frame was computed for.
        public var progress: CGFloat
        /// The strip's layout (frames, content size, inset).
        public var layout: AccordionStrip.Layout
        /// Left and right content inset to set.
        public var symmetricInset: CGFloat { layout.symmetricInset }
        /// Content offset to set.
        public var contentOffsetX: CGFloat
        /// Centre x of the unfolding cell, in content coordinates.
        public var animatedCenterX: CGFloat
        /// Centre of the visible area, in content coordinates; equals ``animatedCenterX`` at
        /// progress 1.
        public var visibleCenterX: CGFloat
    }

    /// The strip being animated.
    public let strip: AccordionStrip
    /// Left content inset when the animation started.
    public let originalInset: CGFloat
    /// Content offset when the animation started.
    public let originalOffset: CGFloat
    /// The unfolding cell: the one nearest the visible centre at the start.
    public let animatedIndex: Int
    /// How far, in points, the visible centre was from that cell's folded slot at the start;
    /// the animation removes it.
    public let centerOffset: CGFloat

    /// Captures the starting state of an unfold.
    public init(strip: AccordionStrip, originalInset: CGFloat, originalOffset: CGFloat) {
        self.strip = strip
        self.originalInset = originalInset
        self.originalOffset = originalOffset
        let index = strip.currentIndex(contentOffsetX: originalOffset, insetLeft: originalInset)
        self.animatedIndex = index
        self.centerOffset = (originalInset + originalOffset) - CGFloat(index) * strip.configuration.pitch
    }

    /// The timing of this unfold.
    public var transition: AccordionTransition {
        strip.transition(.unfolding, index: animatedIndex)
    }

    /// The content offset while unfolding, for a frame whose inset is `symmetricInset`.
    ///
    /// `progress` is clamped to `0...1`; at 1 the animated cell is centred.
    public static func contentOffsetX(
        progress: CGFloat,
        originalInset: CGFloat,
        originalOffset: CGFloat,
        centerOffset: CGFloat,
        symmetricInset: CGFloat
    ) -> CGFloat {
        let clamped = GalleryMath.clamp(progress, 0, 1)
        return originalOffset - (symmetricInset - originalInset) - centerOffset * clamped
    }

    /// The frame at accordion progress `progress` (0 folded, 1 unfolded).
    public func frame(progress: CGFloat) -> Frame {
        let layout = strip.layout(progress: progress, animatedIndex: animatedIndex)
        let offset = Self.contentOffsetX(
            progress: progress,
            originalInset: originalInset,
            originalOffset: originalOffset,
            centerOffset: centerOffset,
            symmetricInset: layout.symmetricInset
        )
        let pitch = strip.configuration.pitch
        let animatedCenterX = CGFloat(animatedIndex) * pitch + layout.adjacentSpacing + layout.animatedWidth / 2
        return Frame(
            progress: progress,
            layout: layout,
            contentOffsetX: offset,
            animatedCenterX: animatedCenterX,
            visibleCenterX: offset + strip.superviewWidth / 2
        )
    }

    /// The frame `elapsed` seconds after the start (`nil`: not started yet).
    public func frame(elapsed: TimeInterval?) -> Frame {
        frame(progress: transition.progress(elapsed: elapsed))
    }
}
