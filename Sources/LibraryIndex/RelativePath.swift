/// A path relative to the indexed root, kept as the file system's bytes.
///
/// Linux file names are byte strings: a name that is not valid UTF-8 is still a file to index.
/// `string` shows such bytes as U+FFFD; `bytes` stays exact, and is what the store keys on.
public struct RelativePath: Sendable, Hashable, Comparable, CustomStringConvertible {
    public let bytes: [UInt8]

    public init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    public init(_ string: String) {
        self.bytes = Array(string.utf8)
    }

    /// The path for display; invalid UTF-8 sequences appear as U+FFFD.
    public var string: String { String(decoding: bytes, as: UTF8.self) }

    public var description: String { string }

    /// The last component (the file name).
    public var lastComponent: String {
        guard let slash = bytes.lastIndex(of: UInt8(ascii: "/")) else { return string }
        return String(decoding: bytes[(slash + 1)...], as: UTF8.self)
    }

    /// The folder (empty for the root) and the file name, as bytes.
    var folderAndName: (folder: RelativePath, name: [UInt8]) {
        guard let slash = bytes.lastIndex(of: UInt8(ascii: "/")) else { return (RelativePath(bytes: []), bytes) }
        return (RelativePath(bytes: Array(bytes[..<slash])), Array(bytes[(slash + 1)...]))
    }

    /// Whether `self` lies inside the directory `directory` (or is it). The empty path is the root.
    public func isInside(_ directory: RelativePath) -> Bool {
        if directory.bytes.isEmpty { return true }
        guard bytes.starts(with: directory.bytes) else { return false }
        return bytes.count == directory.bytes.count || bytes[directory.bytes.count] == UInt8(ascii: "/")
    }

    /// This path followed by `/` and `name` (no separator for the root).
    func appending(_ name: [UInt8]) -> RelativePath {
        bytes.isEmpty ? RelativePath(bytes: name) : RelativePath(bytes: bytes + [UInt8(ascii: "/")] + name)
    }

    /// Hashes the bytes in one go (the synthesized conformance feeds them to the hasher one by one).
    public func hash(into hasher: inout Hasher) {
        bytes.withUnsafeBytes { hasher.combine(bytes: $0) }
    }

    public static func < (lhs: RelativePath, rhs: RelativePath) -> Bool {
        lhs.bytes.lexicographicallyPrecedes(rhs.bytes)
    }
}
