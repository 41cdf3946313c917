/// Why a file's metadata could not be read.
public struct MetadataError: Error, Sendable, Hashable, CustomStringConvertible {
    public enum Code: String, Sendable, Hashable, Codable {
        /// The first bytes match no supported image format: the file is not a photo.
        case notAnImage
        /// The operating system refused or failed a read (`errno` in the message).
        case unreadable
        /// The file ends before the structure it announces.
        case truncated
        /// A structure is inconsistent (bad length, loop, impossible value).
        case malformed
        /// The per-file read budget (bytes or time) ran out.
        case budgetExceeded
    }

    public var code: Code
    /// A sentence for people, without the path.
    public var message: String
    /// The container, when the first bytes were recognised before the read failed.
    public var format: ImageFormat?

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { message }
}
