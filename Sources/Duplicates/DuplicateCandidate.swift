/// What the duplicate finder knows of one file.
public struct DuplicateCandidate: Sendable, Hashable {
    /// The photo's row id.
    public var id: Int64
    public var fileSize: Int64
    /// The file's SHA-256, when it was computed (only files that share their size need one).
    public var sha256: SHA256Value?
    /// The picture's hashes, when it could be decoded.
    public var fingerprint: PictureFingerprint?
    /// The shot it records (camera and capture instant from its metadata), when known: two files
    /// of different shots are never `similar` duplicates however alike they look (burst frames).
    public var shot: Shot?
    /// The stack it belongs to: two members of one stack are never duplicates.
    public var stack: Int64?
    /// What decides which file of a group to keep.
    public var facts: KeepFacts

    public init(
        id: Int64, fileSize: Int64, sha256: SHA256Value? = nil, fingerprint: PictureFingerprint? = nil,
        shot: Shot? = nil, stack: Int64? = nil, facts: KeepFacts
    ) {
        self.id = id
        self.fileSize = fileSize
        self.sha256 = sha256
        self.fingerprint = fingerprint
        self.shot = shot
        self.stack = stack
        self.facts = facts
    }

    /// One exposure: the camera that made it and when, to the millisecond (local wall clock).
    public struct Shot: Sendable, Hashable {
        public var camera: String
        public var millisecond: Int64

        public init(camera: String, millisecond: Int64) {
            self.camera = camera
            self.millisecond = millisecond
        }
    }
}

/// A SHA-256 digest, as four big-endian words.
public struct SHA256Value: Sendable, Hashable, Comparable {
    public var words: (UInt64, UInt64, UInt64, UInt64)

    /// The digest of 32 bytes, or nil for another length.
    public init?(bytes: some Collection<UInt8>) {
        guard bytes.count == 32 else { return nil }
        var words = [UInt64](repeating: 0, count: 4)
        for (i, byte) in bytes.enumerated() { words[i / 8] = words[i / 8] << 8 | UInt64(byte) }
        self.words = (words[0], words[1], words[2], words[3])
    }

    public var bytes: [UInt8] {
        [words.0, words.1, words.2, words.3].flatMap { word in (0..<8).map { UInt8(truncatingIfNeeded: word >> UInt64(56 - 8 * $0)) } }
    }

    /// Lowercase hexadecimal, 64 digits.
    public var hex: String {
        let digits = Array("0123456789abcdef".utf8)
        return String(decoding: bytes.flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 15)]] }, as: UTF8.self)
    }

    public static func == (a: Self, b: Self) -> Bool { a.words == b.words }
    public static func < (a: Self, b: Self) -> Bool { a.words < b.words }
    public func hash(into hasher: inout Hasher) {
        hasher.combine(words.0)
        hasher.combine(words.1)
        hasher.combine(words.2)
        hasher.combine(words.3)
    }
}
