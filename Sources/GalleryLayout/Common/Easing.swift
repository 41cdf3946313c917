public import Foundation

/// Timing curves mapping linear time to animation progress.
///
/// Inputs are not clamped: pass a time in `0...1`.
public enum Easing: String, Sendable, Hashable, CaseIterable {
    /// `y = x`.
    case linear
    /// `y = x²`: slow start. (The PhotosApp original called this curve "easeOut".)
    case easeIn
    /// `y = 2x²` below one half, `−2x² + 4x − 1` above: slow start and end.
    case easeInOut

    /// The eased progress for linear time `x`.
    public func value(at x: CGFloat) -> CGFloat {
        switch self {
        case .linear:
            return x
        case .easeIn:
            return x * x
        case .easeInOut:
            if x < 0.5 {
                return 2 * x * x
            }
            return -2 * x * x + 4 * x - 1
        }
    }
}
