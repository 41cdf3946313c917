/// The order of multi-byte integers in a structure.
enum ByteOrder: Sendable {
    case bigEndian
    case littleEndian
}

/// A bounds-checked window on shared bytes, with integer reads relative to its start.
///
/// Making a sub-view never copies: the storage array is shared. Every read that would leave
/// the window throws `.truncated` instead of trapping.
struct ByteView {
    private let storage: [UInt8]
    private let start: Int
    let count: Int

    init(_ bytes: [UInt8]) {
        storage = bytes
        start = 0
        count = bytes.count
    }

    private init(storage: [UInt8], start: Int, count: Int) {
        self.storage = storage
        self.start = start
        self.count = count
    }

    /// Whether `length` bytes starting at `offset` lie inside the view.
    func contains(_ offset: Int, _ length: Int) -> Bool {
        offset >= 0 && length >= 0 && offset <= count && length <= count - offset
    }

    /// The `length` bytes at `offset`, sharing storage.
    func view(_ offset: Int, _ length: Int) throws(MetadataError) -> ByteView {
        guard contains(offset, length) else { throw .truncated(offset, length) }
        return ByteView(storage: storage, start: start + offset, count: length)
    }

    /// The bytes from `offset` to the end of the view (empty past the end).
    func suffix(from offset: Int) -> ByteView {
        let from = min(max(offset, 0), count)
        return ByteView(storage: storage, start: start + from, count: count - from)
    }

    /// The first `length` bytes, or all of them when the view is shorter.
    func prefix(_ length: Int) -> ByteView {
        ByteView(storage: storage, start: start, count: min(max(length, 0), count))
    }

    func u8(_ offset: Int) throws(MetadataError) -> UInt8 {
        guard contains(offset, 1) else { throw .truncated(offset, 1) }
        return storage[start + offset]
    }

    func u16(_ offset: Int, _ order: ByteOrder = .bigEndian) throws(MetadataError) -> UInt16 {
        guard contains(offset, 2) else { throw .truncated(offset, 2) }
        let a = UInt16(storage[start + offset]), b = UInt16(storage[start + offset + 1])
        return order == .bigEndian ? a << 8 | b : b << 8 | a
    }

    func u24(_ offset: Int, _ order: ByteOrder = .bigEndian) throws(MetadataError) -> UInt32 {
        guard contains(offset, 3) else { throw .truncated(offset, 3) }
        let a = UInt32(storage[start + offset]), b = UInt32(storage[start + offset + 1])
        let c = UInt32(storage[start + offset + 2])
        return order == .bigEndian ? a << 16 | b << 8 | c : c << 16 | b << 8 | a
    }

    func u32(_ offset: Int, _ order: ByteOrder = .bigEndian) throws(MetadataError) -> UInt32 {
        let high = try u16(offset, order), low = try u16(offset + 2, order)
        return order == .bigEndian ? UInt32(high) << 16 | UInt32(low) : UInt32(low) << 16 | UInt32(high)
    }

    func u64(_ offset: Int, _ order: ByteOrder = .bigEndian) throws(MetadataError) -> UInt64 {
        let high = try u32(offset, order), low = try u32(offset + 4, order)
        return order == .bigEndian ? UInt64(high) << 32 | UInt64(low) : UInt64(low) << 32 | UInt64(high)
    }

    /// An unsigned integer of `size` bytes (0, 1, 2, 4 or 8; 0 reads as 0), as used by `iloc`.
    func unsigned(_ offset: Int, size: Int, _ order: ByteOrder = .bigEndian) throws(MetadataError) -> UInt64 {
        switch size {
        case 0: return 0
        case 1: return UInt64(try u8(offset))
        case 2: return UInt64(try u16(offset, order))
        case 4: return UInt64(try u32(offset, order))
        case 8: return try u64(offset, order)
        default: throw MetadataError(.malformed, "An integer field has an unsupported size of \(size) bytes.")
        }
    }

    /// Whether the bytes at `offset` equal `expected`.
    func matches(_ expected: some Collection<UInt8>, at offset: Int = 0) -> Bool {
        guard contains(offset, expected.count) else { return false }
        var index = start + offset
        for byte in expected {
            if storage[index] != byte { return false }
            index += 1
        }
        return true
    }

    /// The index of the first `byte` at or after `offset`, or `nil`.
    func firstIndex(of byte: UInt8, from offset: Int = 0) -> Int? {
        var index = max(offset, 0)
        while index < count {
            if storage[start + index] == byte { return index }
            index += 1
        }
        return nil
    }

    /// A copy of the viewed bytes.
    var array: [UInt8] { Array(storage[start..<start + count]) }

    func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) -> R) -> R {
        storage.withUnsafeBytes { all in body(UnsafeRawBufferPointer(rebasing: all[start..<start + count])) }
    }
}
