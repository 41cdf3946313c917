public import LibraryIndex

/// A problem any front end reports: a code to branch on (the CLI adds its advice, the server picks
/// an HTTP status) and a neutral sentence saying what is wrong.
public struct LibraryError: Error, Sendable, CustomStringConvertible {
    /// An extensible set of codes: new ones can be added without breaking a `switch`.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private let name: String
        private init(_ name: String) { self.name = name }
        public var description: String { name }

        /// The configuration file is missing, unreadable, not JSON or holds a bad value.
        public static let invalidConfiguration = Code("invalidConfiguration")
        /// A request names a level, section, item, viewport or photo that does not exist.
        public static let outOfRange = Code("outOfRange")
        /// A request's value is malformed (not a number, not a size).
        public static let invalidRequest = Code("invalidRequest")
        /// The settings given for sections or zoom cannot be used.
        public static let invalidSettings = Code("invalidSettings")
        /// The photo is known but its file cannot be served.
        public static let fileUnavailable = Code("fileUnavailable")
        /// The index itself failed; `underlyingError` is the `IndexError`.
        public static let index = Code("index")
    }

    public var code: Code
    /// One sentence, without advice for a particular front end.
    public var message: String
    public var underlyingError: (any Error)?

    public init(_ code: Code, _ message: String, underlyingError: (any Error)? = nil) {
        self.code = code
        self.message = message
        self.underlyingError = underlyingError
    }

    /// The `IndexError` behind this error, if the index failed.
    public var indexError: IndexError? { underlyingError as? IndexError }

    public var description: String { message }
}

extension LibraryError {
    /// The index failed: code `.index`, the index error's message, and the error itself.
    public init(_ error: IndexError) {
        self.init(.index, error.message, underlyingError: error)
    }
}

extension LibraryError {
    /// Wraps a pure module's message ("section 9 is out of range: …") as a sentence.
    init(_ code: Code, sentence message: String, underlyingError: any Error) {
        let capitalized = message.prefix(1).uppercased() + message.dropFirst()
        self.init(code, capitalized.hasSuffix(".") ? capitalized : capitalized + ".", underlyingError: underlyingError)
    }
}
