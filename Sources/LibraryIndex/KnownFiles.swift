#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

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
                while slots[slot] != 0 {
                    // A path in both tables (which no run writes): the later row stands for it, as
                    // in a dictionary, and the earlier one is never reported as gone.
                    let other = records[Int(slots[slot]) - 1]
                    if other.count == record.count, memcmp(all.baseAddress! + other.start, path.baseAddress!, path.count) == 0 {
                        records[Int(slots[slot]) - 1].seen = true
                        break
                    }
                    slot = (slot + 1) & mask
                }
                slots[slot] = Int32(i + 1)
            }
        }
    }

    /// A folder's share of the lookups of its files: its bytes and the hash state after them.
    struct Folder {
        let path: RelativePath
        fileprivate let hash: UInt64
        /// The length of `path/` (0 for the root).
        fileprivate let prefixCount: Int
    }

    /// The folder part of `find`, done once per folder rather than once per file.
    func folder(_ path: RelativePath) -> Folder {
        var hash = Self.seed
        if !path.bytes.isEmpty {
            path.bytes.withUnsafeBufferPointer { Self.mix($0, into: &hash) }
            Self.mix(CollectionOfOne(UInt8(ascii: "/")), into: &hash)
        }
        return Folder(path: path, hash: hash, prefixCount: path.bytes.isEmpty ? 0 : path.bytes.count + 1)
    }

    /// The record of the file `name` in `folder`, or nil.
    ///
    /// - Complexity: O(1) expected: one hash of the name, one probe sequence at a load of at most ½.
    func find(in folder: Folder, name: UnsafeBufferPointer<UInt8>) -> Int? {
        guard !slots.isEmpty else { return nil }
        var hash = folder.hash
        Self.mix(name, into: &hash)
        let mask = slots.count - 1
        var slot = Int(truncatingIfNeeded: Self.finish(hash)) & mask
        let length = folder.prefixCount + name.count
        return bytes.withUnsafeBufferPointer { all -> Int? in
            folder.path.bytes.withUnsafeBufferPointer { folderBytes -> Int? in
                while slots[slot] != 0 {
                    let i = Int(slots[slot]) - 1
                    let record = records[i]
                    if Int(record.count) == length {
                        let path = all.baseAddress! + record.start
                        if memcmp(path + folder.prefixCount, name.baseAddress!, name.count) == 0,
                           folder.prefixCount == 0
                            || (path[folderBytes.count] == UInt8(ascii: "/") && memcmp(path, folderBytes.baseAddress!, folderBytes.count) == 0) {
                            return i
                        }
                    }
                    slot = (slot + 1) & mask
                }
                return nil
            }
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
