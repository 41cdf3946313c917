/// The position of an item in a sectioned grid: the seed browsers' grids and both timeline levels.
public struct GridIndexPath: Sendable, Hashable, Comparable, Codable, CustomStringConvertible {
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

    /// `(section, item)`.
    public var description: String { "(\(section), \(item))" }
}
