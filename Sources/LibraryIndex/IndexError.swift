/// An error that stops a whole operation on the index (per-file problems are rows, not errors).
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
    }

    public var code: Code
    /// One sentence saying what happened and what to do.
    public var message: String
    public var underlyingError: (any Error)?

    public init(_ code: Code, _ message: String, underlyingError: (any Error)? = nil) {
        self.code = code
        self.message = message
        self.underlyingError = underlyingError
    }

    public var description: String { message }
}
