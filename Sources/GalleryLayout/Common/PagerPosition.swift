public import Foundation

/// A scroll position measured in pages: the current page and how far the next one has come in.
///
/// `fraction` is 0 when page `index` is exactly in place and 1 when page `index + 1` is.
/// It is negative while the pager is over-scrolled before its first page (the strip uses it
/// for its rubber band), and may reach or pass 1 past the last page.
public struct PagerPosition: Sendable, Hashable {
    /// The current page, in `0..<count` (0 for an empty pager).
    public var index: Int
    /// Progress toward page `index + 1`, in pages.
    public var fraction: CGFloat

    /// Creates a position from a page index and a fraction of a page.
    public init(index: Int, fraction: CGFloat) {
        self.index = index
        self.fraction = fraction
    }
}
