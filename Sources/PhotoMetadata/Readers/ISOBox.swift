/// The header of one ISO base media file format box (HEIF, AVIF, CR3).
struct ISOBox {
    var type: FourCC
    /// Offset of the box's first byte, in the file or in the enclosing view.
    var start: Int
    var headerSize: Int
    /// The whole box, header included.
    var size: Int

    var contentStart: Int { start + headerSize }
    var contentSize: Int { size - headerSize }
    var end: Int { start + size }

    /// Reads the header at `offset` from the first bytes of a box (`header` holds 8 or 16 bytes).
    /// `limit` is where the enclosing container ends; a box that claims more throws.
    static func parse(_ header: ByteView, at offset: Int, limit: Int) throws(MetadataError) -> ISOBox {
        let size32 = try header.u32(0)
        let type = try header.fourCC(4)
        var size = Int(size32)
        var headerSize = 8
        if size32 == 1 {
            let large = try header.u64(8)
            guard large <= UInt64(Int.max) else { throw .malformed("A box is larger than any file.") }
            size = Int(large)
            headerSize = 16
        } else if size32 == 0 {
            size = limit - offset
        }
        if type == FourCC("uuid") { headerSize += 16 }
        guard size >= headerSize, offset <= limit, size <= limit - offset else {
            throw .malformed("The '\(type)' box at offset \(offset) claims \(size) bytes, beyond its container.")
        }
        return ISOBox(type: type, start: offset, headerSize: headerSize, size: size)
    }

    /// The boxes in `view` between `from` and `to`, in order. Stops quietly at a broken box.
    static func children(of view: ByteView, from: Int = 0, to: Int? = nil, limit: Int = 1024) -> [ISOBox] {
        let end = min(to ?? view.count, view.count)
        var boxes: [ISOBox] = []
        var offset = from
        while offset + 8 <= end, boxes.count < limit {
            guard let box = try? parse(view.suffix(from: offset).prefix(32), at: offset, limit: end) else { break }
            boxes.append(box)
            offset = box.end
        }
        return boxes
    }

    /// The boxes of a file region, reading only their headers.
    static func children(of file: FileBytes, from: Int, to: Int, limit: Int = 256) -> [ISOBox] {
        var boxes: [ISOBox] = []
        var offset = from
        while offset + 8 <= to, boxes.count < limit {
            guard let header = try? file.view(at: offset, upTo: min(32, to - offset)),
                  let box = try? parse(header, at: offset, limit: to)
            else { break }
            boxes.append(box)
            offset = box.end
        }
        return boxes
    }
}
