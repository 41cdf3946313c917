/// An error that stops a whole operation on the index (per-file problems are rows, not errors).
///
/// Messages state the problem without advice for a particular front end: the command line adds
/// what to type, the server picks an HTTP status, both from `code`.
public struct IndexError: Error, Sendable, CustomStringConvertible {
    public enum Code: String, Sendable {
        case rootNotFound
        case rootNotDirectory
        case rootUnreadable
        case databaseIsDirectory
        case databaseNotWritable
        case databaseNotFound
        case notAShoeboxDatabase
        case databaseTooNew
        case otherRootIndexed
        case indexInProgress
        case diskFull
        case databaseFailure
        case databaseIncomplete
        case databaseReadOnly
        case databaseUnreadable
        case invalidSettings
        case backupFailed
        case relocationMismatch
        case destinationExists
        /// A backup's destination folder does not exist (or is not a folder).
        case destinationFolderMissing
        /// A backup's destination is the database itself or one of its companion files.
        case destinationIsDatabase
        /// A stored row holds a value the store never writes (a capture date it cannot parse).
        case unreadableRow
    }

    public var code: Code
    /// One neutral sentence saying what happened; each front end adds what to do from `code`.
    public var message: String
    /// The path the error is about (a database, a root, a destination), when there is one.
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
