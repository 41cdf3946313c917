/// The position of an item in a sectioned grid.
public struct GridIndexPath: Sendable, Hashable, Comparable {
    /// The section.
    public var section: Int
    /// The item within its section.
    public var item: Int

    /// Creates an index path.
    public init(section: Int, item: Int) {
        self.section = section
        self.item = item
    }

    /// Section-major order.
    public static func < (lhs: GridIndexPath, rhs: GridIndexPath) -> Bool {
        (lhs.section, lhs.item) < (rhs.section, rhs.item)
    }
}
