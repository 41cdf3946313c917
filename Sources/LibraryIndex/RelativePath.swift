/// A path relative to the indexed root, kept as the file system's bytes.
///
/// Linux file names are byte strings: a name that is not valid UTF-8 is still a file to index.
/// `string` shows such bytes as `\xHH` escapes (so `a\xff.jpg` and `a\xfe.jpg` stay apart);
/// `bytes` stays exact, and is what the store keys on.
public struct RelativePath: Sendable, Hashable, Comparable, CustomStringConvertible {
    public let bytes: [UInt8]

    public init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    public init(_ string: String) {
        self.bytes = Array(string.utf8)
    }

    /// The path as text: exact when the bytes are valid UTF-8, else with every byte that is not
    /// part of a valid sequence written as `\xHH`.
    public var string: String { Self.text(bytes) }

    /// Whether `string` is the exact name (the bytes are valid UTF-8).
    public var isValidUTF8: Bool { String(validating: bytes, as: UTF8.self) != nil }

    public var description: String { string }

    /// The last component (the file name).
    public var lastComponent: String {
        guard let slash = bytes.lastIndex(of: UInt8(ascii: "/")) else { return string }
        return Self.text(bytes[(slash + 1)...])
    }

    /// `bytes` as text, invalid UTF-8 bytes as `\xHH`.
    static func text(_ bytes: some Collection<UInt8>) -> String {
        if let valid = String(validating: bytes, as: UTF8.self) { return valid }
        var result = ""
        var source = Array(bytes)[...]
        while !source.isEmpty {
            let length = Self.validSequenceLength(source)
            if length > 0 {
                result += String(decoding: source.prefix(length), as: UTF8.self)
                source = source.dropFirst(length)
            } else {
                let byte = source.first!
                result += "\\x" + (byte < 0x10 ? "0" : "") + String(byte, radix: 16)
                source = source.dropFirst()
            }
        }
        return result
    }

    /// The byte length of the valid UTF-8 sequence at the start of `bytes`, or 0 if there is none.
    private static func validSequenceLength(_ bytes: ArraySlice<UInt8>) -> Int {
        let lead = bytes.first!
        let length: Int
        switch lead {
        case 0x00...0x7F: return 1
        case 0xC2...0xDF: length = 2
        case 0xE0...0xEF: length = 3
        case 0xF0...0xF4: length = 4
        default: return 0
        }
        guard bytes.count >= length else { return 0 }
        return String(validating: bytes.prefix(length), as: UTF8.self) != nil ? length : 0
    }

    /// The folder's bytes (empty for the root), without copying them.
    var folderBytes: ArraySlice<UInt8> { bytes[..<(bytes.lastIndex(of: UInt8(ascii: "/")) ?? 0)] }

    /// The file name's bytes, without copying them.
    var nameBytes: ArraySlice<UInt8> { bytes[(bytes.lastIndex(of: UInt8(ascii: "/")).map { $0 + 1 } ?? 0)...] }

    /// The folder (empty for the root) and the file name, as bytes.
    var folderAndName: (folder: RelativePath, name: [UInt8]) {
        (RelativePath(bytes: Array(folderBytes)), Array(nameBytes))
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
