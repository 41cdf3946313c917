/// Why a correction was refused, with the request field or the file at fault.
///
/// Nothing is written when one is thrown before the first sidecar, and a failure while writing puts
/// back what was written before it is thrown.
public struct AdjustError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of failure; an extensible set, so adding one breaks nobody.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        private let name: String
        private init(_ name: String) { self.name = name }
        public var description: String { name }

        /// A value of the request is not one Shoebox can use (`field` names it).
        public static let invalidValue = Code("invalid-value")
        /// No photo, batch or place matches what was asked for.
        public static let notFound = Code("not-found")
        /// A name matches several places; the message lists them.
        public static let ambiguous = Code("ambiguous")
        /// A path lies outside the indexed library.
        public static let outsideLibrary = Code("outside-library")
        /// An existing sidecar cannot be merged: not XML, not XMP, or too large.
        public static let unusableSidecar = Code("unusable-sidecar")
        /// A sidecar or a folder on its way is a symbolic link, or not what it should be.
        public static let notAFile = Code("not-a-file")
        /// A folder to write in is read-only.
        public static let notWritable = Code("not-writable")
        /// A folder or file disappeared while the batch ran.
        public static let vanished = Code("vanished")
        /// Undo found sidecars changed since the batch wrote them.
        public static let changedSince = Code("changed-since")
        /// Reading, writing or the index failed otherwise.
        public static let failed = Code("failed")
    }

    public var code: Code
    /// The request field at fault (`ids`, `shift`, `setDate`, `timeZone`, `keepInstant`, `place`,
    /// `position`, `batch`), or `nil` when a file is.
    public var field: String?
    /// The path (relative to the library root) or value at fault, when there is one.
    public var subject: String?
    /// One sentence that says what is wrong and what to do.
    public var message: String

    public init(_ code: Code, field: String? = nil, subject: String? = nil, _ message: String) {
        self.code = code
        self.field = field
        self.subject = subject
        self.message = message
    }

    public var description: String { message }
}
