/// A problem with timeline input or settings, with a message a person can act on.
public struct TimelineError: Error, Sendable, Hashable, CustomStringConvertible {
    public enum Code: String, Sendable, Hashable {
        /// One or more settings are out of range.
        case invalidSettings
        /// A photo's capture date-time names no real moment.
        case invalidDateTime
    }

    public let code: Code
    /// The settings key (e.g. `coarse.spanDays`) or photo path at fault.
    public let subject: String
    public let message: String

    public init(code: Code, subject: String, message: String) {
        self.code = code
        self.subject = subject
        self.message = message
    }

    public var description: String { message }
}
