import Foundation
import GalleryLayout

/// Seeds every property test runs over; each seed is a separate test case.
let propertySeeds: [UInt64] = Array(1...40)

/// Whether two reals agree to `tolerance`, relative to their magnitude beyond 1.
func isClose(_ a: CGFloat, _ b: CGFloat, tolerance: CGFloat = 1e-9) -> Bool {
    abs(a - b) <= tolerance * max(1, abs(a), abs(b))
}

/// Whether consecutive frames are ordered left to right without overlapping.
func framesAreDisjoint(_ frames: [CGRect], tolerance: CGFloat = 1e-9) -> Bool {
    zip(frames, frames.dropFirst()).allSatisfy { left, right in
        left.maxX <= right.minX + tolerance
    }
}

extension AccordionStrip {
    /// A strip of 1...30 thumbnails of random aspect, in a superview 200...900 pt wide.
    static func random(using generator: inout some RandomNumberGenerator, minimumCount: Int = 1) -> AccordionStrip {
        let count = Int.random(in: minimumCount...30, using: &generator)
        let cellHeight = CGFloat.random(in: 30...80, using: &generator)
        let sizes = (0..<count).map { _ in
            CGSize(
                width: CGFloat.random(in: 100...6000, using: &generator),
                height: CGFloat.random(in: 100...6000, using: &generator)
            )
        }
        return AccordionStrip(
            imageSizes: sizes,
            cellHeight: cellHeight,
            superviewWidth: CGFloat.random(in: 200...900, using: &generator)
        )
    }
}

extension SnappingStrip {
    /// A strip 200...1000 pt wide and 40...100 pt high.
    static func random(using generator: inout some RandomNumberGenerator) -> SnappingStrip {
        SnappingStrip(
            boundsWidth: CGFloat.random(in: 200...1000, using: &generator),
            height: CGFloat.random(in: 40...100, using: &generator)
        )
    }
}

/// Photo aspects (width / height) between 0.2 and 5.
func randomAspects(count: Int, using generator: inout some RandomNumberGenerator) -> [CGFloat] {
    (0..<count).map { _ in CGFloat.random(in: 0.2...5, using: &generator) }
}
