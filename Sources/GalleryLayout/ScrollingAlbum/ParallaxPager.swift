public import Foundation

/// The full-size photo pager of ScrollingAlbum: one photo per page, the current photo shrinking
/// and the next one growing while the user swipes.
///
/// Page centres never move; only the sizes of the current and next photos change, which reads
/// as parallax. Pages other than those two take the whole page.
///
/// ```swift
/// let pager = ParallaxPager(pageSize: CGSize(width: 375, height: 600))
/// let sizes = images.map { pager.aspectFitSize(of: $0) }
/// let layout = pager.layout(contentOffsetX: scrollView.contentOffset.x, photoSizes: sizes)
/// ```
public struct ParallaxPager: Sendable, Hashable {
    /// Constants of the shrinking effect.
    public struct Configuration: Sendable, Hashable {
        /// Width, in points, a photo loses per page of scroll (100).
        public var widthReductionPerPage: CGFloat
        /// The narrowest a shrinking photo gets, in points (40).
        public var minimumPhotoWidth: CGFloat

        /// Creates a configuration; the defaults are ScrollingAlbum's.
        public init(widthReductionPerPage: CGFloat = 100, minimumPhotoWidth: CGFloat = 40) {
            self.widthReductionPerPage = widthReductionPerPage
            self.minimumPhotoWidth = minimumPhotoWidth
        }
    }

    /// One layout pass of the pager.
    public struct Layout: Sendable, Hashable {
        /// The page position the layout was computed for.
        public var position: PagerPosition
        /// Frame of every photo, in content coordinates, in index order.
        public var frames: [CGRect]
        /// `page width × count` by the page height.
        public var contentSize: CGSize
    }

    /// The size of a page (the pager's bounds), in points.
    public var pageSize: CGSize
    /// The shrinking constants.
    public var configuration: Configuration

    /// Creates a pager whose pages are `pageSize`.
    public init(pageSize: CGSize, configuration: Configuration = Configuration()) {
        self.pageSize = pageSize
        self.configuration = configuration
    }

    /// The size of an image aspect-fitted into a view.
    ///
    /// A wide image fills the view's width, a tall one its height.
    public static func aspectFitSize(of imageSize: CGSize, in viewSize: CGSize) -> CGSize {
        let ratio = imageSize.height / imageSize.width
        let viewRatio = viewSize.height / viewSize.width
        if ratio < viewRatio {
            return CGSize(width: viewSize.width, height: viewSize.width * ratio)
        }
        return CGSize(width: viewSize.height / ratio, height: viewSize.height)
    }

    /// The size of an image aspect-fitted into one page.
    public func aspectFitSize(of imageSize: CGSize) -> CGSize {
        Self.aspectFitSize(of: imageSize, in: pageSize)
    }

    /// The page index and fraction for a horizontal content offset.
    ///
    /// The index is clamped to `0..<count` (0 when empty); the fraction is what remains, so it
    /// is negative when over-scrolled left and can exceed 1 past the last page.
    /// - Parameter insetLeft: the pager's left content inset, in points.
    public func position(contentOffsetX: CGFloat, insetLeft: CGFloat = 0, count: Int) -> PagerPosition {
        let relative = (contentOffsetX + insetLeft) / pageSize.width
        let index = GalleryMath.clampedTruncatedIndex(relative, count: count)
        return PagerPosition(index: index, fraction: relative - CGFloat(index))
    }

    /// The content offset that shows page `index` in place.
    public func contentOffsetX(forPage index: Int, insetLeft: CGFloat = 0) -> CGFloat {
        pageSize.width * CGFloat(index) - insetLeft
    }

    /// The frames of all photos for a content offset.
    ///
    /// - Parameter photoSizes: each photo's aspect-fitted size (``aspectFitSize(of:)``), in
    ///   index order.
    /// - Complexity: O(*n*) in the number of photos.
    public func layout(contentOffsetX: CGFloat, insetLeft: CGFloat = 0, photoSizes: [CGSize]) -> Layout {
        let position = position(contentOffsetX: contentOffsetX, insetLeft: insetLeft, count: photoSizes.count)
        let pageWidth = pageSize.width
        let centerY = pageSize.height / 2
        var frames: [CGRect] = []
        frames.reserveCapacity(photoSizes.count)
        for (index, photo) in photoSizes.enumerated() {
            let centerX = pageWidth * CGFloat(index) + pageWidth / 2
            let size: CGSize
            if index == position.index {
                let width = photo.width - configuration.widthReductionPerPage * position.fraction
                size = CGSize(width: max(configuration.minimumPhotoWidth, width), height: photo.height)
            } else if index == position.index + 1 {
                let width = photo.width - configuration.widthReductionPerPage * (1 - position.fraction)
                size = CGSize(width: max(configuration.minimumPhotoWidth, width), height: photo.height)
            } else {
                size = pageSize
            }
            frames.append(GalleryMath.frame(centerX: centerX, centerY: centerY, width: size.width, height: size.height))
        }
        let contentSize = CGSize(width: pageWidth * CGFloat(photoSizes.count), height: pageSize.height)
        return Layout(position: position, frames: frames, contentSize: contentSize)
    }
}
