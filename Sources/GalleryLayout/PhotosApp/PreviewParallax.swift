public import Foundation

/// The paging preview of PhotosApp: neighbouring pages slide a little and their image shifts
/// against the scroll, for a parallax effect.
public struct PreviewParallax: Sendable, Hashable {
    /// Strength of the effect.
    public struct Configuration: Sendable, Hashable {
        /// Translation of a page one page away from the centre, in points (44).
        public var maximumPageTranslation: CGFloat
        /// Counter-shift of the image inside its page, as a fraction of the page width per page
        /// of distance (0.3).
        public var imageParallax: CGFloat

        /// Creates a configuration; the defaults are PhotosApp's.
        public init(maximumPageTranslation: CGFloat = 44, imageParallax: CGFloat = 0.3) {
            self.maximumPageTranslation = maximumPageTranslation
            self.imageParallax = imageParallax
        }
    }

    /// Width of a preview page, in points.
    public var itemWidth: CGFloat
    /// Strength of the effect.
    public var configuration: Configuration

    /// Creates the parallax of a pager whose pages are `itemWidth` wide.
    public init(itemWidth: CGFloat, configuration: Configuration = Configuration()) {
        self.itemWidth = itemWidth
        self.configuration = configuration
    }

    /// Signed distance of a page from the visible one, in pages, or `nil` when it is a whole page
    /// or more away (no effect).
    ///
    /// - Parameter cellCenterX: the page's centre in content coordinates.
    public func parallax(cellCenterX: CGFloat, contentOffsetX: CGFloat) -> CGFloat? {
        let relative = ((cellCenterX - contentOffsetX) - itemWidth / 2) / itemWidth
        if abs(relative) >= 1 {
            return nil
        }
        return relative
    }

    /// Horizontal translation of the page itself for a parallax value (0 for `nil`).
    public func pageTranslationX(parallax: CGFloat?) -> CGFloat {
        guard let parallax else { return 0 }
        return parallax * configuration.maximumPageTranslation
    }

    /// Horizontal translation of the image inside its page, against the scroll.
    public func imageTranslationX(cellWidth: CGFloat, parallax: CGFloat?) -> CGFloat {
        -(cellWidth * configuration.imageParallax * (parallax ?? 0))
    }
}
