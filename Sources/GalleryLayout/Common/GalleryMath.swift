import Foundation

/// Small numeric helpers shared by every layout; see SPEC §0.
enum GalleryMath {
    /// `max(0, min(count − 1, index))`; 0 when `count` is 0.
    static func clampIndex(_ index: Int, count: Int) -> Int {
        max(0, min(count - 1, index))
    }

    /// `min(max(value, lower), upper)`.
    static func clamp(_ value: CGFloat, _ lower: CGFloat, _ upper: CGFloat) -> CGFloat {
        min(max(value, lower), upper)
    }

    /// Truncation toward zero (Swift `Int(x)`), saturating instead of trapping.
    ///
    /// NaN gives 0; values beyond the range of `Int` give `Int.min` or `Int.max`.
    static func truncatedInt(_ value: CGFloat) -> Int {
        if value.isNaN { return 0 }
        if value >= 9.223372036854775807e18 { return Int.max }
        if value <= -9.223372036854775808e18 { return Int.min }
        return Int(value)
    }

    /// `clampIndex(trunc(value), count)`.
    static func clampedTruncatedIndex(_ value: CGFloat, count: Int) -> Int {
        clampIndex(truncatedInt(value), count: count)
    }

    /// A frame from its centre and size.
    static func frame(centerX: CGFloat, centerY: CGFloat, width: CGFloat, height: CGFloat) -> CGRect {
        CGRect(x: centerX - width / 2, y: centerY - height / 2, width: width, height: height)
    }
}
