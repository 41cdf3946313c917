public import Foundation

/// The centred snapping thumbnail strip of PhotosApp: the thumbnail under the centre expands to
/// its photo's aspect ratio and pushes its neighbours aside.
///
/// The strip scrolls horizontally with a content inset of ``farInset`` on both sides, so that
/// at offset ``contentOffsetX(forIndex:)`` thumbnail `index` sits exactly in the centre. Scroll
/// offsets between two slots expand both neighbours proportionally (``cells(contentOffsetX:aspects:expandingRate:updates:)``).
public struct SnappingStrip: Sendable, Hashable {
    /// Sizes and timings of the strip.
    public struct Configuration: Sendable, Hashable {
        /// Width / height of a folded thumbnail, and aspect of photos without a size (0.5).
        public var defaultAspect: CGFloat
        /// Gap between thumbnails, in points (4).
        public var itemSpacing: CGFloat
        /// Extra gap, split between both sides, around a fully expanded thumbnail (20).
        public var focusedSpacing: CGFloat
        /// Duration of the move to a tapped thumbnail, in seconds (0.3).
        public var moveDuration: TimeInterval
        /// Duration of the collapse of a deleted thumbnail, in seconds (0.15).
        public var collapseDuration: TimeInterval
        /// Duration of the closing of the gap after a deletion, in seconds (0.15).
        public var deleteDuration: TimeInterval
        /// Duration of an expanding-rate change of 1, in seconds (0.15).
        public var expandingRateDuration: TimeInterval

        /// Creates a configuration; the defaults are PhotosApp's.
        public init(
            defaultAspect: CGFloat = 0.5,
            itemSpacing: CGFloat = 4,
            focusedSpacing: CGFloat = 20,
            moveDuration: TimeInterval = 0.3,
            collapseDuration: TimeInterval = 0.15,
            deleteDuration: TimeInterval = 0.15,
            expandingRateDuration: TimeInterval = 0.15
        ) {
            self.defaultAspect = defaultAspect
            self.itemSpacing = itemSpacing
            self.focusedSpacing = focusedSpacing
            self.moveDuration = moveDuration
            self.collapseDuration = collapseDuration
            self.deleteDuration = deleteDuration
            self.expandingRateDuration = expandingRateDuration
        }
    }

    /// Sizes and scroll range of a strip of a given count.
    public struct Metrics: Sendable, Hashable {
        /// Size of a folded thumbnail.
        public var itemSize: CGSize
        /// Distance between two slot centres.
        public var pitch: CGFloat
        /// Left and right content inset.
        public var farInset: CGFloat
        /// Width of the content, insets excluded: no gap after the last thumbnail.
        public var contentWidth: CGFloat
        /// Smallest content offset: thumbnail 0 centred.
        public var minOffsetX: CGFloat
        /// Largest content offset: the last thumbnail centred.
        public var maxOffsetX: CGFloat
    }

    /// Width of the strip's bounds, in points.
    public var boundsWidth: CGFloat
    /// Size of a folded thumbnail, in points.
    public var itemSize: CGSize
    /// Sizes and timings.
    public var configuration: Configuration

    /// Creates a strip with folded thumbnails of `itemSize`.
    public init(boundsWidth: CGFloat, itemSize: CGSize, configuration: Configuration = Configuration()) {
        self.boundsWidth = boundsWidth
        self.itemSize = itemSize
        self.configuration = configuration
    }

    /// Creates a strip `height` points high; folded thumbnails are `height × defaultAspect` wide.
    public init(boundsWidth: CGFloat, height: CGFloat, configuration: Configuration = Configuration()) {
        let size = CGSize(width: height * configuration.defaultAspect, height: height)
        self.init(boundsWidth: boundsWidth, itemSize: size, configuration: configuration)
    }

    /// Distance between two slot centres: item width plus spacing.
    public var pitch: CGFloat { itemSize.width + configuration.itemSpacing }

    /// Left and right content inset: half the bounds minus half an item, so a slot can be centred.
    public var farInset: CGFloat { (boundsWidth - itemSize.width) / 2 }

    /// Sizes and scroll range for `count` thumbnails.
    ///
    /// The scroll range is exactly `contentOffsetX(forIndex: 0)...contentOffsetX(forIndex: count − 1)`.
    public func metrics(count: Int) -> Metrics {
        let far = farInset
        let contentWidth: CGFloat
        if count >= 1 {
            contentWidth = CGFloat(count) * itemSize.width + CGFloat(count - 1) * configuration.itemSpacing
        } else {
            contentWidth = 0
        }
        let minOffset = -far
        let maxOffset = max(minOffset, contentWidth + far - boundsWidth)
        return Metrics(
            itemSize: itemSize,
            pitch: pitch,
            farInset: far,
            contentWidth: contentWidth,
            minOffsetX: minOffset,
            maxOffsetX: maxOffset
        )
    }

    /// Centre x of the (folded) slot of `row`, in content coordinates.
    public func slotCenterX(at row: Int) -> CGFloat {
        CGFloat(row) * pitch + itemSize.width / 2
    }

    /// The content offset that centres thumbnail `index`.
    public func contentOffsetX(forIndex index: Int) -> CGFloat {
        CGFloat(index) * pitch - farInset
    }

    /// The thumbnail whose slot is nearest the centre, clamped to `0..<count`; `nil` when empty.
    ///
    /// - Parameter insetLeft: the left content inset; `nil` for ``farInset``.
    public func nearestIndex(contentOffsetX: CGFloat, insetLeft: CGFloat? = nil, count: Int) -> Int? {
        guard count > 0 else { return nil }
        let inset = insetLeft ?? farInset
        let rounded = ((contentOffsetX + inset) / pitch + 0.5).rounded(.down)
        return GalleryMath.clampedTruncatedIndex(rounded, count: count)
    }

    /// Where a fling ends: the slot offset nearest the proposed offset, within the strip.
    ///
    /// Ties go right. Use it as the target content offset when dragging ends.
    /// - Parameter insetLeft: the left content inset; `nil` for ``farInset``.
    public func snapOffsetX(proposedOffsetX: CGFloat, insetLeft: CGFloat? = nil, count: Int) -> CGFloat {
        let inset = insetLeft ?? farInset
        let relative = (proposedOffsetX + inset) / pitch
        let last = CGFloat(max(count - 1, 0))
        let left = GalleryMath.clamp(relative.rounded(.down), 0, last)
        let right = GalleryMath.clamp(relative.rounded(.up), 0, last)
        let leftOffset = left * pitch - inset
        let rightOffset = right * pitch - inset
        if abs(leftOffset - proposedOffsetX) < abs(rightOffset - proposedOffsetX) {
            return leftOffset
        }
        return rightOffset
    }
}
