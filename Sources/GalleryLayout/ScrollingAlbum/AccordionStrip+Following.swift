public import Foundation

extension AccordionStrip {
    /// The strip's layout while it follows the pager (the pager is the master).
    public struct FollowingLayout: Sendable, Hashable {
        /// The puppet position, its fraction clamped to `0...1`.
        public var position: PagerPosition
        /// Width of the focused cell (`position.index`), shrinking from full to folded.
        public var focusedWidth: CGFloat
        /// Width of the next cell, growing from folded to full.
        public var nextWidth: CGFloat
        /// Gap before the focused cell.
        public var leftSpacing: CGFloat
        /// Gap after the next cell.
        public var rightSpacing: CGFloat
        /// Frame of every thumbnail, in content coordinates, in index order.
        public var frames: [CGRect]
        /// Size of the scrollable content, insets excluded.
        public var contentSize: CGSize
        /// Left and right content inset.
        public var inset: CGFloat
    }

    /// The layout driven by the pager: cell `puppet.index` shrinks from full to folded while the
    /// next cell grows from folded to full, as `puppet.fraction` goes from 0 to 1.
    ///
    /// The fraction is clamped to `0...1` (the pager's over-scroll is handled by the offset, see
    /// ``StripSynchronizer``). A missing next cell counts with full width 0.
    /// - Complexity: O(*n*).
    public func layout(following puppet: PagerPosition) -> FollowingLayout {
        let width = configuration.foldedWidth
        let spacing = configuration.foldedSpacing
        let fullSpacing = configuration.unfoldedSpacing
        let pitch = configuration.pitch
        let index = puppet.index
        let fraction = GalleryMath.clamp(puppet.fraction, 0, 1)

        let leftSpacing = (fullSpacing - spacing) * (1 - fraction) + spacing
        let rightSpacing = fullSpacing + spacing - leftSpacing
        let focusedWidth = (fullWidth(at: index) - width) * (1 - fraction) + width
        let focusedCenterX = CGFloat(index) * pitch + leftSpacing + focusedWidth / 2
        let nextWidth = (fullWidth(at: index + 1) - width) * fraction + width
        let nextCenterX = focusedCenterX + focusedWidth / 2 + nextWidth / 2 + fullSpacing
        let centerY = cellHeight / 2

        var frames: [CGRect] = []
        frames.reserveCapacity(count)
        for item in 0..<count {
            let centerX: CGFloat
            let cellWidth: CGFloat
            if item < index {
                centerX = foldedCenterX(at: item)
                cellWidth = width
            } else if item == index {
                centerX = focusedCenterX
                cellWidth = focusedWidth
            } else if item == index + 1 {
                centerX = nextCenterX
                cellWidth = nextWidth
            } else {
                centerX = nextCenterX + nextWidth / 2 + rightSpacing + pitch * CGFloat(item - index - 2) + width / 2
                cellWidth = width
            }
            frames.append(GalleryMath.frame(centerX: centerX, centerY: centerY, width: cellWidth, height: cellHeight))
        }
        let contentWidth = 2 * fullSpacing + focusedWidth + nextWidth + CGFloat(max(0, count - 2)) * pitch + spacing
        let inset = superviewWidth / 2 - fullSpacing - (focusedWidth + nextWidth - width) / 2
        return FollowingLayout(
            position: PagerPosition(index: index, fraction: fraction),
            focusedWidth: focusedWidth,
            nextWidth: nextWidth,
            leftSpacing: leftSpacing,
            rightSpacing: rightSpacing,
            frames: frames,
            contentSize: CGSize(width: contentWidth, height: cellHeight),
            inset: inset
        )
    }
}
