/// Why a places table could not be loaded.
public struct PlaceTableError: Error, Sendable, CustomStringConvertible {
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private let name: String
        private init(_ name: String) { self.name = name }
        public var description: String { name }

        /// No table at the path (or at any of the places Shoebox looks): the set-up was not run.
        public static let missing = Code("missing")
        /// The file exists but could not be read.
        public static let unreadable = Code("unreadable")
        /// The file is not a places table of this version, or is cut short or inconsistent.
        public static let malformed = Code("malformed")
    }

    public var code: Code
    /// One sentence saying what happened.
    public var message: String
    /// The table's path, or the paths looked at.
    public var subject: String?
    public var underlyingError: (any Error)?

    public init(_ code: Code, _ message: String, subject: String? = nil, underlyingError: (any Error)? = nil) {
        self.code = code
        self.message = message
        self.subject = subject
        self.underlyingError = underlyingError
    }

    public var description: String { message }
}
