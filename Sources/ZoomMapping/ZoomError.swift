public import Timeline

/// A request the zoom map cannot answer, with a message naming the valid range.
public struct ZoomError: Error, Sendable, Hashable, CustomStringConvertible {
    public enum Code: String, Sendable, Hashable {
        /// No such section at that level.
        case sectionOutOfRange
        /// No such item in that section.
        case itemOutOfRange
        /// The level has no photos at all, so nothing can be anchored.
        case emptyLevel
        /// A pinch's focal point outside the viewport.
        case focalPointOutsideViewport
        /// Grid metrics, insets or viewport out of range.
        case invalidSettings
    }

    public let code: Code
    /// The level the request was about, when there is one.
    public let level: TimelineLevel?
    public let message: String

    public init(code: Code, level: TimelineLevel?, message: String) {
        self.code = code
        self.level = level
        self.message = message
    }

    public var description: String { message }

    /// "section 12 is out of range: the coarse level has sections 0–9".
    static func section(_ section: Int, level: TimelineLevel, count: Int) -> ZoomError {
        let valid = count == 0 ? "has no sections" : count == 1 ? "has only section 0" : "has sections 0–\(count - 1)"
        return ZoomError(
            code: .sectionOutOfRange, level: level,
            message: "section \(section) is out of range: the \(level) level \(valid)")
    }

    /// "item 7 is out of range: section 3 of the coarse level has items 0–4".
    static func item(_ item: Int, section: Int, level: TimelineLevel, count: Int) -> ZoomError {
        let valid = count == 0 ? "has no items" : count == 1 ? "has only item 0" : "has items 0–\(count - 1)"
        return ZoomError(
            code: .itemOutOfRange, level: level,
            message: "item \(item) is out of range: section \(section) of the \(level) level \(valid)")
    }
}
