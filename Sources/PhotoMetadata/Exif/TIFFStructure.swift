/// A TIFF header and the directories (IFDs) read from it, with bounds and loop checks.
struct TIFFStructure {
    /// One 12-byte directory entry. `valueOffset` is where the value lives (inline or not).
    struct Entry {
        var tag: UInt16
        var type: UInt16
        var count: Int
        var valueOffset: Int

        /// Bytes per value of the entry's type, or `nil` for an unknown type.
        var unitSize: Int? {
            switch type {
            case 1, 2, 6, 7: 1
            case 3, 8: 2
            case 4, 9, 11, 13: 4
            case 5, 10, 12: 8
            default: nil
            }
        }

        var byteCount: Int? {
            guard let unitSize, count <= Int(UInt32.max) else { return nil }
            return unitSize * count
        }
    }

    /// One directory: its entries in file order.
    struct Directory {
        var entries: [Entry]
        /// Offset of the next directory in the chain, or 0.
        var next: Int

        func entry(_ tag: UInt16) -> Entry? { entries.first { $0.tag == tag } }
    }

    /// Most entries read from one directory (the TIFF limit is 65535; real ones hold a few dozen).
    static let maximumEntries = 1024

    let source: TIFFSource
    let order: ByteOrder
    /// The 16-bit number after the byte-order mark: 42 for TIFF, 0x55 for RW2, `RO`/`RS` for ORF.
    let magic: UInt16
    let firstDirectoryOffset: Int

    /// Reads the 8-byte header. Throws `.notAnImage` when the byte-order mark is missing.
    init(source: TIFFSource) throws(MetadataError) {
        self.source = source
        let header = try source.view(0, 8)
        if header.matches([0x49, 0x49]) {
            order = .littleEndian
        } else if header.matches([0x4D, 0x4D]) {
            order = .bigEndian
        } else {
            throw MetadataError(.notAnImage, "No TIFF byte-order mark.")
        }
        magic = try header.u16(2, order)
        firstDirectoryOffset = Int(try header.u32(4, order))
    }

    /// The directory at `offset`. Throws when it does not fit in the source.
    func directory(at offset: Int) throws(MetadataError) -> Directory {
        guard offset >= 8 else {
            throw .malformed("A TIFF directory offset (\(offset)) points into the header.")
        }
        let countField = try source.view(offset, 2)
        let count = min(Int(try countField.u16(0, order)), Self.maximumEntries)
        let table = try source.view(offset + 2, count * 12 + 4)
        var entries: [Entry] = []
        entries.reserveCapacity(count)
        for index in 0..<count {
            let at = index * 12
            var entry = Entry(tag: try table.u16(at, order), type: try table.u16(at + 2, order),
                              count: Int(try table.u32(at + 4, order)), valueOffset: offset + 2 + at + 8)
            if let size = entry.byteCount, size > 4 {
                entry.valueOffset = Int(try table.u32(at + 8, order))
            } else if entry.byteCount == nil {
                continue
            }
            entries.append(entry)
        }
        return Directory(entries: entries, next: Int(try table.u32(count * 12, order)))
    }

    /// The raw bytes of an entry's value, at most `limit` of them.
    func bytes(of entry: Entry, limit: Int = 4096) throws(MetadataError) -> ByteView {
        guard let size = entry.byteCount else { throw .malformed("A TIFF entry has an unknown type \(entry.type).") }
        return try source.view(entry.valueOffset, min(size, limit))
    }

    /// The entry's values read as unsigned integers (BYTE, SHORT, LONG or IFD), at most `limit`.
    func integers(of entry: Entry, limit: Int = 64) throws(MetadataError) -> [Int] {
        let count = min(entry.count, limit)
        switch entry.type {
        case 1, 7:
            let bytes = try source.view(entry.valueOffset, count)
            return try (0..<count).map { (i: Int) throws(MetadataError) -> Int in Int(try bytes.u8(i)) }
        case 3, 8:
            let bytes = try source.view(entry.valueOffset, count * 2)
            return try (0..<count).map { (i: Int) throws(MetadataError) -> Int in Int(try bytes.u16(i * 2, order)) }
        case 4, 9, 13:
            let bytes = try source.view(entry.valueOffset, count * 4)
            return try (0..<count).map { (i: Int) throws(MetadataError) -> Int in Int(try bytes.u32(i * 4, order)) }
        default:
            return []
        }
    }

    /// The offset an IFD pointer holds (Exif, GPS, Interoperability): its first value, of any
    /// integer type. The standard says LONG or IFD, but some cameras write SLONG, SHORT or BYTE,
    /// which ExifTool and Exiv2 follow too. `nil` for a negative value or a non-integer type
    /// (text, rational, undefined), which does not point anywhere.
    func pointer(_ entry: Entry) -> Int? {
        guard entry.count >= 1, let size = entry.unitSize, size <= 4,
              let bytes = try? source.view(entry.valueOffset, size)
        else { return nil }
        let value: Int? = switch entry.type {
        case 1: try? Int(bytes.u8(0))
        case 3: try? Int(bytes.u16(0, order))
        case 4, 13: try? Int(bytes.u32(0, order))
        case 6: try? Int(Int8(bitPattern: bytes.u8(0)))
        case 8: try? Int(Int16(bitPattern: bytes.u16(0, order)))
        case 9: try? Int(Int32(bitPattern: bytes.u32(0, order)))
        default: nil
        }
        return value.flatMap { $0 >= 0 ? $0 : nil }
    }

    /// The directory that `directory`'s pointer `tag` leads to, or `nil` when there is none, the
    /// pointer is not an integer (see `pointer(_:)`) or the directory does not fit in the source.
    func subdirectory(_ tag: UInt16, in directory: Directory) -> Directory? {
        guard let entry = directory.entry(tag), let offset = pointer(entry) else { return nil }
        return try? self.directory(at: offset)
    }

    func integer(_ tag: UInt16, in directory: Directory) -> Int? {
        guard let entry = directory.entry(tag) else { return nil }
        return (try? integers(of: entry, limit: 1))?.first
    }

    /// An ASCII value without its NUL and padding.
    func text(_ tag: UInt16, in directory: Directory) -> String? {
        guard let entry = directory.entry(tag), let bytes = try? self.bytes(of: entry, limit: 256) else { return nil }
        let text = bytes.array.withUnsafeBufferPointer(ExifDateParser.trimmed)
        return text.isEmpty ? nil : text
    }
}
