public import GalleryLayout
public import Timeline

/// A point in points; in content coordinates unless a parameter says viewport.
public struct GridPoint: Sendable, Hashable, Codable {
    public var x: Double
    public var y: Double

    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }
}

/// An axis-aligned rectangle in content coordinates (y grows downwards).
public struct GridRect: Sendable, Hashable, Codable {
    public var minX: Double
    public var minY: Double
    public var width: Double
    public var height: Double

    public init(minX: Double, minY: Double, width: Double, height: Double) {
        self.minX = minX
        self.minY = minY
        self.width = width
        self.height = height
    }

    public var maxX: Double { minX + width }
    public var maxY: Double { minY + height }
    public var midX: Double { minX + width / 2 }
    public var midY: Double { minY + height / 2 }

    /// Half-open containment: `minX ≤ x < maxX` and `minY ≤ y < maxY`.
    public func contains(_ point: GridPoint) -> Bool {
        point.x >= minX && point.x < maxX && point.y >= minY && point.y < maxY
    }

    /// Squared distance from `point` to the nearest point of the rectangle (0 inside).
    public func distanceSquared(to point: GridPoint) -> Double {
        let dx = max(minX - point.x, 0, point.x - maxX)
        let dy = max(minY - point.y, 0, point.y - maxY)
        return dx * dx + dy * dy
    }
}

/// A (section, item) position together with its level.
public struct LevelIndexPath: Sendable, Hashable, Codable, CustomStringConvertible {
    public var level: TimelineLevel
    public var section: Int
    public var item: Int

    public init(level: TimelineLevel, section: Int, item: Int) {
        self.level = level
        self.section = section
        self.item = item
    }

    public init(level: TimelineLevel, _ indexPath: GridIndexPath) {
        self.init(level: level, section: indexPath.section, item: indexPath.item)
    }

    public var indexPath: GridIndexPath { GridIndexPath(section: section, item: item) }

    public var description: String { "\(level) (\(section), \(item))" }
}
