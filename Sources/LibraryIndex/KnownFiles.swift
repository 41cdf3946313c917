/// What the index already holds for a path: its stamp and whether it is a photo row or an ignored file.
struct KnownFile: Sendable {
    var stamp: FileStamp
    var isPhoto: Bool
    /// A photo row kept by an earlier run although its file was not found.
    var isMissing = false
}

/// The stamps of every row the index holds, for comparing with a walk of the tree.
///
/// Built for a million rows: every path sits in one byte buffer, and an open-addressing table
/// finds a path from its folder and name without assembling it, so an unchanged file costs the
/// walk one hash and no allocation. Rows the walk finds are marked `seen`; the rest are what
/// disappeared.
struct KnownFiles {
    /// One row: where its path lies in `bytes`, its stamp and kind.
    struct Record {
        var start: Int
        var count: Int32
        var isPhoto: Bool
        var isMissing: Bool
        var seen = false
        var stamp: FileStamp

        var knownFile: KnownFile { KnownFile(stamp: stamp, isPhoto: isPhoto, isMissing: isMissing) }
    }

    private var bytes: [UInt8] = []
    private(set) var records: [Record] = []
    /// Record index + 1 per slot, 0 for an empty slot; the count is a power of two.
    private var slots: [Int32] = []

    /// Photo rows, missing or not.
    private(set) var photoCount = 0

    init() {}

    /// Adds a row; `path` must not be in the set yet.
    mutating func append(path: UnsafeRawBufferPointer, stamp: FileStamp, isPhoto: Bool, isMissing: Bool) {
        records.append(Record(start: bytes.count, count: Int32(path.count), isPhoto: isPhoto, isMissing: isMissing, stamp: stamp))
        bytes.append(contentsOf: path)
        if isPhoto { photoCount += 1 }
    }

    /// Builds the lookup table; call once after the last `append`.
    ///
    /// - Complexity: O(n) expected.
    mutating func index() {
        var capacity = 16
        while capacity < records.count * 2 { capacity *= 2 }
        slots = Array(repeating: 0, count: capacity)
        let mask = capacity - 1
        bytes.withUnsafeBufferPointer { all in
            for (i, record) in records.enumerated() {
                let path = UnsafeBufferPointer(rebasing: all[record.start..<(record.start + Int(record.count))])
                var hash = Self.seed
                Self.mix(path, into: &hash)
                var slot = Int(truncatingIfNeeded: Self.finish(hash)) & mask
                while slots[slot] != 0 { slot = (slot + 1) & mask }
                slots[slot] = Int32(i + 1)
            }
        }
    }

    /// The record of `folder/name`, or nil.
    func find(folder: RelativePath, name: UnsafeBufferPointer<UInt8>) -> Int? {
        guard !slots.isEmpty else { return nil }
        let folderBytes = folder.bytes
        var hash = Self.seed
        if !folderBytes.isEmpty {
            folderBytes.withUnsafeBufferPointer { Self.mix($0, into: &hash) }
            Self.mix(CollectionOfOne(UInt8(ascii: "/")), into: &hash)
        }
        Self.mix(name, into: &hash)
        let mask = slots.count - 1
        var slot = Int(truncatingIfNeeded: Self.finish(hash)) & mask
        return bytes.withUnsafeBufferPointer { all -> Int? in
            while slots[slot] != 0 {
                let i = Int(slots[slot]) - 1
                let record = records[i]
                let length = folderBytes.isEmpty ? name.count : folderBytes.count + 1 + name.count
                if Int(record.count) == length {
                    let path = UnsafeBufferPointer(rebasing: all[record.start..<(record.start + length)])
                    let nameStart = length - name.count
                    if path[nameStart...].elementsEqual(name),
                       folderBytes.isEmpty || (path[nameStart - 1] == UInt8(ascii: "/") && path[..<(nameStart - 1)].elementsEqual(folderBytes)) {
                        return i
                    }
                }
                slot = (slot + 1) & mask
            }
            return nil
        }
    }

    func path(_ i: Int) -> RelativePath {
        let record = records[i]
        return RelativePath(bytes: Array(bytes[record.start..<(record.start + Int(record.count))]))
    }

    mutating func markSeen(_ i: Int) {
        records[i].seen = true
    }

    /// The rows the walk did not find, by path.
    func unseen() -> [RelativePath: KnownFile] {
        var result: [RelativePath: KnownFile] = [:]
        for (i, record) in records.enumerated() where !record.seen {
            result[path(i)] = record.knownFile
        }
        return result
    }

    private static let seed: UInt64 = 0xcbf2_9ce4_8422_2325

    /// FNV-1a, 64 bits, fed in pieces: deterministic, and fast on short file names.
    @inline(__always)
    private static func mix(_ bytes: some Sequence<UInt8>, into hash: inout UInt64) {
        for byte in bytes {
            hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
        }
    }

    /// FNV's low bits mix poorly: the high half folded in before masking.
    private static func finish(_ hash: UInt64) -> UInt64 { hash ^ (hash >> 29) }
}
