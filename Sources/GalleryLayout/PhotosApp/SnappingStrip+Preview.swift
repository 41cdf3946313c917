public import Foundation

extension SnappingStrip {
    /// Where the strip goes when it follows the preview pager.
    public struct PreviewFollow: Sendable, Hashable {
        /// The strip's content offset.
        public var contentOffsetX: CGFloat
        /// The thumbnail nearest the centre at that offset; `nil` when empty.
        public var activeIndex: Int?
    }

    /// Offsets that keep the active photo in place across a rotation or the first layout.
    public struct RotationOffsets: Sendable, Hashable {
        /// The strip with its new size.
        public var strip: SnappingStrip
        /// Content offset of the strip: the active thumbnail centred.
        public var stripContentOffsetX: CGFloat
        /// Content offset of the preview pager: the active page in place.
        public var previewContentOffsetX: CGFloat
    }

    /// The strip offset that mirrors the preview pager: one pitch per page.
    ///
    /// - Parameter previewItemWidth: width of a preview page.
    public func follow(previewContentOffsetX: CGFloat, previewItemWidth: CGFloat, count: Int) -> PreviewFollow {
        let offset = (previewContentOffsetX / previewItemWidth) * pitch - farInset
        return PreviewFollow(contentOffsetX: offset, activeIndex: nearestIndex(contentOffsetX: offset, insetLeft: farInset, count: count))
    }

    /// The strip and preview offsets that show `activeIndex` after the views took new sizes.
    ///
    /// - Parameters:
    ///   - stripBoundsWidth: the strip's new width.
    ///   - stripHeight: the strip's new height; thumbnails are `height × defaultAspect` wide.
    ///   - previewItemWidth: the preview's new page width.
    public static func rotationOffsets(
        activeIndex: Int,
        stripBoundsWidth: CGFloat,
        stripHeight: CGFloat,
        previewItemWidth: CGFloat,
        configuration: Configuration = Configuration()
    ) -> RotationOffsets {
        let strip = SnappingStrip(boundsWidth: stripBoundsWidth, height: stripHeight, configuration: configuration)
        return RotationOffsets(
            strip: strip,
            stripContentOffsetX: strip.contentOffsetX(forIndex: activeIndex),
            previewContentOffsetX: CGFloat(activeIndex) * previewItemWidth
        )
    }

    /// The animation that moves the focus from `fromIndex` to a tapped thumbnail `toIndex`.
    public func moveAnimation(fromOffsetX: CGFloat, fromIndex: Int, toIndex: Int) -> StripMoveAnimation {
        StripMoveAnimation(strip: self, fromOffsetX: fromOffsetX, fromIndex: fromIndex, toIndex: toIndex)
    }

    /// The animation that deletes the focused `row` of a strip of `count` thumbnails.
    public func deletion(row: Int, count: Int) -> StripDeletion {
        StripDeletion(row: row, count: count, configuration: configuration)
    }
}
