public import Foundation

/// The accordion thumbnail strip of ScrollingAlbum: folded thumbnails, one of which unfolds to
/// its photo's aspect ratio.
///
/// While the user drags the strip its current cell folds; when scrolling ends the cell nearest
/// the visible centre unfolds (``unfold(originalInset:originalOffset:)``). While the pager is
/// dragged the strip follows it instead (``layout(following:)``, see ``StripSynchronizer``).
/// The strip is as wide as its superview and scrolls horizontally; its left and right content
/// insets are symmetric so that the first and last cells can reach the centre.
public struct AccordionStrip: Sendable, Hashable {
    /// Sizes and timings of the accordion.
    public struct Configuration: Sendable, Hashable {
        /// Width of a folded thumbnail, in points (30).
        public var foldedWidth: CGFloat
        /// Gap between folded thumbnails, in points (2).
        public var foldedSpacing: CGFloat
        /// Gap on each side of an unfolded thumbnail, in points (15).
        public var unfoldedSpacing: CGFloat
        /// The widest an unfolded thumbnail gets, in points (160).
        public var maximumWidth: CGFloat
        /// Shortest fold or unfold animation, in seconds (0.25).
        public var minimumDuration: TimeInterval
        /// Cell length animated in ``minimumDuration``, in points (80); longer cells take longer.
        public var baseLength: CGFloat

        /// Creates a configuration; the defaults are ScrollingAlbum's.
        public init(
            foldedWidth: CGFloat = 30,
            foldedSpacing: CGFloat = 2,
            unfoldedSpacing: CGFloat = 15,
            maximumWidth: CGFloat = 160,
            minimumDuration: TimeInterval = 0.25,
            baseLength: CGFloat = 80
        ) {
            self.foldedWidth = foldedWidth
            self.foldedSpacing = foldedSpacing
            self.unfoldedSpacing = unfoldedSpacing
            self.maximumWidth = maximumWidth
            self.minimumDuration = minimumDuration
            self.baseLength = baseLength
        }

        /// Distance between the centres of two folded thumbnails: width plus spacing (32).
        public var pitch: CGFloat { foldedWidth + foldedSpacing }
    }

    /// One layout pass of the strip while its cell ``animatedIndex`` folds or unfolds.
    public struct Layout: Sendable, Hashable {
        /// The folding or unfolding cell.
        public var animatedIndex: Int
        /// Gap on each side of the animated cell, in points.
        public var adjacentSpacing: CGFloat
        /// Current width of the animated cell, in points.
        public var animatedWidth: CGFloat
        /// Left and right content inset that lets the animated cell reach the visible centre.
        public var symmetricInset: CGFloat
        /// Frame of every thumbnail, in content coordinates, in index order.
        public var frames: [CGRect]
        /// Size of the scrollable content, insets excluded.
        public var contentSize: CGSize
    }

    /// Full (unfolded) width of each thumbnail, in index order; see ``fullWidth(forImageSize:cellHeight:configuration:)``.
    public var fullWidths: [CGFloat]
    /// Height of the strip and of every thumbnail, in points.
    public var cellHeight: CGFloat
    /// Width of the strip's superview (the strip is as wide), in points.
    public var superviewWidth: CGFloat
    /// Sizes and timings.
    public var configuration: Configuration

    /// Creates a strip from the full width of each thumbnail.
    public init(
        fullWidths: [CGFloat],
        cellHeight: CGFloat,
        superviewWidth: CGFloat,
        configuration: Configuration = Configuration()
    ) {
        self.fullWidths = fullWidths
        self.cellHeight = cellHeight
        self.superviewWidth = superviewWidth
        self.configuration = configuration
    }

    /// Creates a strip from the pixel (or display) size of each photo.
    public init(
        imageSizes: [CGSize],
        cellHeight: CGFloat,
        superviewWidth: CGFloat,
        configuration: Configuration = Configuration()
    ) {
        let widths = imageSizes.map {
            Self.fullWidth(forImageSize: $0, cellHeight: cellHeight, configuration: configuration)
        }
        self.init(fullWidths: widths, cellHeight: cellHeight, superviewWidth: superviewWidth, configuration: configuration)
    }

    /// The unfolded width of a thumbnail: the photo's aspect ratio at the strip's height,
    /// between the folded width and the maximum width.
    public static func fullWidth(
        forImageSize imageSize: CGSize,
        cellHeight: CGFloat,
        configuration: Configuration = Configuration()
    ) -> CGFloat {
        let ratio = imageSize.height / imageSize.width
        if ratio > cellHeight / configuration.foldedWidth {
            return configuration.foldedWidth
        }
        if ratio < cellHeight / configuration.maximumWidth {
            return configuration.maximumWidth
        }
        return cellHeight / ratio
    }

    /// The number of thumbnails.
    public var count: Int { fullWidths.count }

    /// The full width of thumbnail `index`, or 0 when there is no such thumbnail.
    public func fullWidth(at index: Int) -> CGFloat {
        fullWidths.indices.contains(index) ? fullWidths[index] : 0
    }

    /// Centre x of thumbnail `index` when every thumbnail is folded, in content coordinates.
    public func foldedCenterX(at index: Int) -> CGFloat {
        CGFloat(index) * configuration.pitch + configuration.foldedSpacing + configuration.foldedWidth / 2
    }

    /// The thumbnail nearest to the visible centre of the folded strip, clamped to `0..<count`.
    ///
    /// - Parameter insetLeft: the strip's current left content inset.
    public func currentIndex(contentOffsetX: CGFloat, insetLeft: CGFloat) -> Int {
        let pitch = configuration.pitch
        return GalleryMath.clampedTruncatedIndex((contentOffsetX + insetLeft + pitch / 2) / pitch, count: count)
    }

    /// The layout while thumbnail `animatedIndex` is unfolded to `progress`.
    ///
    /// Progress 0 is the uniform folded grid, 1 the cell at its full width with the unfolded
    /// spacing on both sides. Cells before the animated one keep their folded place; cells after
    /// it are pushed right.
    /// - Complexity: O(*n*).
    public func layout(progress: CGFloat, animatedIndex: Int) -> Layout {
        let width = configuration.foldedWidth
        let spacing = configuration.foldedSpacing
        let pitch = configuration.pitch
        let adjacentSpacing = (configuration.unfoldedSpacing - spacing) * progress + spacing
        let animatedWidth = (fullWidth(at: animatedIndex) - width) * progress + width
        let animatedCenterX = CGFloat(animatedIndex) * pitch + adjacentSpacing + animatedWidth / 2
        let centerY = cellHeight / 2

        var frames: [CGRect] = []
        frames.reserveCapacity(count)
        for index in 0..<count {
            let centerX: CGFloat
            let cellWidth: CGFloat
            if index < animatedIndex {
                centerX = foldedCenterX(at: index)
                cellWidth = width
            } else if index == animatedIndex {
                centerX = animatedCenterX
                cellWidth = animatedWidth
            } else {
                centerX = animatedCenterX + animatedWidth / 2 + adjacentSpacing
                    + pitch * CGFloat(index - animatedIndex - 1) + width / 2
                cellWidth = width
            }
            frames.append(GalleryMath.frame(centerX: centerX, centerY: centerY, width: cellWidth, height: cellHeight))
        }
        let contentWidth = 2 * adjacentSpacing + animatedWidth + CGFloat(max(0, count - 1)) * pitch
        let symmetricInset = superviewWidth / 2 - adjacentSpacing - animatedWidth / 2
        return Layout(
            animatedIndex: animatedIndex,
            adjacentSpacing: adjacentSpacing,
            animatedWidth: animatedWidth,
            symmetricInset: symmetricInset,
            frames: frames,
            contentSize: CGSize(width: contentWidth, height: cellHeight)
        )
    }

    /// A fold or unfold timing for thumbnail `index`, whose duration grows with its full width.
    public func transition(_ kind: AccordionTransition.Kind, index: Int) -> AccordionTransition {
        AccordionTransition(kind: kind, cellLength: fullWidth(at: index), configuration: configuration)
    }

    /// The unfold animation that starts when scrolling ends with the given inset and offset.
    public func unfold(originalInset: CGFloat, originalOffset: CGFloat) -> AccordionUnfold {
        AccordionUnfold(strip: self, originalInset: originalInset, originalOffset: originalOffset)
    }
}
