public import Foundation

/// Keeps the ScrollingAlbum pager and its accordion strip in step.
///
/// Whichever view the user drags is the master. While the pager moves, the strip follows it
/// through a *puppet* position (``stripUpdate(pagerContentOffsetX:previousPuppet:)``): its
/// visible centre moves linearly from the current cell to the next. While the strip moves, the
/// pager jumps to the strip's current cell (``pagerContentOffsetX(forThumbnail:)``).
public struct StripSynchronizer: Sendable, Hashable {
    /// Where the strip goes for a pager position.
    public struct StripOffset: Sendable, Hashable {
        /// The strip's new content offset.
        public var contentOffsetX: CGFloat
        /// The new puppet position, or `nil` to keep the previous one (pager over-scrolled left).
        public var puppet: PagerPosition?
    }

    /// Everything the strip needs after the pager moved.
    public struct StripUpdate: Sendable, Hashable {
        /// The pager's position.
        public var pagerPosition: PagerPosition
        /// The puppet position the strip is laid out for; keep it for the next update.
        public var puppet: PagerPosition
        /// The strip's layout for ``puppet``.
        public var layout: AccordionStrip.FollowingLayout
        /// Left and right content inset to set on the strip.
        public var inset: CGFloat { layout.inset }
        /// Content offset to set on the strip.
        public var contentOffsetX: CGFloat
        /// Centre of the strip's visible area, in content coordinates.
        public var visibleCenterX: CGFloat
    }

    /// The full-size pager.
    public var pager: ParallaxPager
    /// The thumbnail strip; its count is the pager's page count.
    public var strip: AccordionStrip

    /// Pairs a pager and a strip over the same photos.
    public init(pager: ParallaxPager, strip: AccordionStrip) {
        self.pager = pager
        self.strip = strip
    }

    /// The strip offset for a pager position, given the strip's current left inset.
    ///
    /// With a negative fraction (pager over-scrolled left) the strip rubber-bands by
    /// `fullWidth(index) × fraction` and the puppet is left unchanged.
    public func stripOffset(for position: PagerPosition, stripInsetLeft: CGFloat) -> StripOffset {
        let x: CGFloat
        let puppet: PagerPosition?
        if position.fraction < 0 {
            x = strip.fullWidth(at: position.index) * position.fraction
            puppet = nil
        } else {
            x = strip.configuration.pitch * (CGFloat(position.index) + position.fraction)
            puppet = position
        }
        return StripOffset(contentOffsetX: x - stripInsetLeft, puppet: puppet)
    }

    /// One full pager-to-strip update: the strip's puppet, layout, inset and offset for the
    /// pager's content offset.
    ///
    /// The offset uses the inset of the *new* layout, so the strip never lags a frame behind.
    /// - Parameters:
    ///   - pagerInsetLeft: the pager's left content inset.
    ///   - previousPuppet: the puppet of the previous update (start with the current page and
    ///     fraction 0).
    public func stripUpdate(
        pagerContentOffsetX: CGFloat,
        pagerInsetLeft: CGFloat = 0,
        previousPuppet: PagerPosition
    ) -> StripUpdate {
        let position = pager.position(contentOffsetX: pagerContentOffsetX, insetLeft: pagerInsetLeft, count: strip.count)
        let puppet = position.fraction >= 0 ? position : previousPuppet
        let layout = strip.layout(following: puppet)
        let offset = stripOffset(for: position, stripInsetLeft: layout.inset).contentOffsetX
        return StripUpdate(
            pagerPosition: position,
            puppet: puppet,
            layout: layout,
            contentOffsetX: offset,
            visibleCenterX: offset + strip.superviewWidth / 2
        )
    }

    /// The pager offset that shows the strip's current thumbnail (the strip always reports
    /// fraction 0).
    public func pagerContentOffsetX(forThumbnail index: Int, pagerInsetLeft: CGFloat = 0) -> CGFloat {
        pager.contentOffsetX(forPage: index, insetLeft: pagerInsetLeft)
    }
}
