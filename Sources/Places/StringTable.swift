/// The names of a places table as one block of UTF-8 and an offset per name, made into a `String`
/// only when a lookup answers with it: turning every one of a quarter million names into a
/// `String` was a third of loading the table, which the first photo with a position waits for.
struct StringTable: Sendable {
    private var bytes: [UInt8]
    /// `count + 1` offsets into `bytes`, ascending: name `i` is `bytes[offsets[i]..<offsets[i + 1]]`.
    private var offsets: [UInt32]

    init() {
        bytes = []
        offsets = [0]
    }

    /// The names `block` holds at `offsets`, which must start at 0, never decrease and end at most
    /// at the block's end (checked by the caller).
    init(block: UnsafeRawBufferPointer, offsets: [UInt32]) {
        bytes = Array(block)
        self.offsets = offsets
    }

    var count: Int { offsets.count - 1 }

    subscript(index: Int) -> String {
        String(decoding: bytes[Int(offsets[index])..<Int(offsets[index + 1])], as: UTF8.self)
    }

    /// Adds `name`; returns its index.
    @discardableResult
    mutating func append(_ name: String) -> UInt32 {
        bytes.append(contentsOf: name.utf8)
        offsets.append(UInt32(bytes.count))
        return UInt32(count - 1)
    }
}
