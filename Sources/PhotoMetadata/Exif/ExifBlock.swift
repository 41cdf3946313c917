/// Turns an EXIF TIFF structure, wherever it lives, into `ExifValues` through libexif.
///
/// The IFD0, Exif IFD and GPS IFD entries Shoebox reads (`TIFFTag.exifFields`, `gpsFields`) are
/// first copied into a compact block of a few hundred bytes, which libexif then decodes. Compared
/// with handing libexif the whole block, this skips its maker-note parsing and thumbnail copy
/// (about a third of the time per photo), lifts its 64 KiB limit (large HEIF/WebP blocks, IFDs at
/// the end of a TIFF file), accepts raw headers with their own magic number (RW2, ORF), follows
/// Exif and GPS IFD pointers of any integer type (some cameras write SLONG; the compact block
/// always says LONG), and ignores one stored as text or another non-integer type, which libexif
/// would follow into unrelated bytes.
enum ExifBlock {
    /// Reads the EXIF of a TIFF structure in memory that starts at `tiffStart` of `block`.
    static func values(in block: ByteView, tiffStart: Int) -> ExifValues {
        values(of: .memory(block.suffix(from: tiffStart)))
    }

    /// Largest EXIF block read into memory whole; larger ones are read field by field.
    static let maximumInMemory = 256 * 1024

    /// Reads an EXIF block stored at `offset` in a file, `length` bytes long, whose TIFF header
    /// starts `tiffStart` bytes in. Large blocks are never read whole.
    static func values(inFile file: FileBytes, at offset: Int, length: Int, tiffStart: Int) throws(MetadataError) -> ExifValues {
        if length > maximumInMemory {
            guard tiffStart < length else { return ExifValues() }
            return values(of: .file(file, base: offset + tiffStart))
        }
        return values(in: try file.view(at: offset, count: length, readAhead: 0), tiffStart: tiffStart)
    }

    /// Reads the EXIF of any TIFF structure by copying its fields into a compact block first.
    static func values(of source: TIFFSource) -> ExifValues {
        guard let structure = try? TIFFStructure(source: source),
              let ifd0 = try? structure.directory(at: structure.firstDirectoryOffset)
        else { return ExifValues() }
        return values(of: structure, ifd0: ifd0)
    }

    /// Reads a TIFF structure in memory whose first directory is a GPS IFD (Canon CR3's `CMT4`).
    static func gpsValues(in block: ByteView) -> ExifValues {
        guard let structure = try? TIFFStructure(source: .memory(block)),
              let gps = try? structure.directory(at: structure.firstDirectoryOffset)
        else { return ExifValues() }
        let compact = compactBlock(structure, ifd0: TIFFStructure.Directory(entries: [], next: 0), exif: nil, gps: gps)
        return ExifDecoder.decode(payload: ByteView(compact))
    }

    /// Reads the EXIF of a parsed TIFF structure whose IFD0 is already known.
    static func values(of structure: TIFFStructure, ifd0: TIFFStructure.Directory) -> ExifValues {
        let compact = compactBlock(
            structure, ifd0: ifd0, exif: structure.subdirectory(TIFFTag.exifIFD, in: ifd0),
            gps: structure.subdirectory(TIFFTag.gpsIFD, in: ifd0))
        return ExifDecoder.decode(payload: ByteView(compact))
    }

    /// `Exif\0\0` and a TIFF structure holding only the fields of `TIFFTag.exifFields` (IFD0 and
    /// the Exif IFD) and `TIFFTag.gpsFields` (the GPS IFD).
    ///
    /// Written straight into one array sized beforehand (`CompactBlockWriter`): the values are
    /// views on the source's bytes until they are appended, each number is appended whole in the
    /// structure's byte order, and each directory's pointer slots are patched in place.
    static func compactBlock(
        _ structure: TIFFStructure, ifd0: TIFFStructure.Directory, exif: TIFFStructure.Directory?,
        gps: TIFFStructure.Directory?
    ) -> [UInt8] {
        typealias Field = CompactBlockWriter.Field
        func fields(of directory: TIFFStructure.Directory?, _ wanted: [UInt16]) -> [Field] {
            guard let directory else { return [] }
            var result: [Field] = []
            result.reserveCapacity(wanted.count)
            var sorted = true
            for entry in directory.entries where wanted.contains(entry.tag) {
                guard !result.contains(where: { $0.tag == entry.tag }),
                      let bytes = try? structure.bytes(of: entry, limit: 256) else { continue }
                let unit = entry.unitSize ?? 1
                if let last = result.last, last.tag > entry.tag { sorted = false }
                result.append((entry.tag, entry.type, bytes.count / unit, bytes))
            }
            if !sorted { result.sort { $0.tag < $1.tag } }
            return result
        }
        let first = fields(of: ifd0, TIFFTag.exifFields)
        let second = fields(of: exif, TIFFTag.exifFields)
        let third = fields(of: gps, TIFFTag.gpsFields)
        // Only the subdirectories with fields are written, each with a pointer to it in IFD0.
        let written = zip([TIFFTag.exifIFD, TIFFTag.gpsIFD], [second, third]).filter { !$0.1.isEmpty }
        let pointers = written.map(\.0)
        let subdirectories = written.map(\.1)

        var block = CompactBlockWriter(
            littleEndian: structure.order == .littleEndian,
            directories: CompactBlockWriter.size(first, pointers: pointers.count)
                + subdirectories.reduce(0) { $0 + CompactBlockWriter.size($1, pointers: 0) })
        let slots = block.write(first, pointers: pointers)
        for (slot, fields) in zip(slots, subdirectories) {
            block.patch(slot, toPointAt: block.offset)
            _ = block.write(fields, pointers: [])
        }
        return block.written
    }
}

/// Writes the compact block of ``ExifBlock/compactBlock(_:ifd0:exif:gps:)`` into an array of
/// its final size, zeroed, at a cursor: each number is stored whole in place, and padding is
/// skipped over. (Closures sharing a captured array had Swift box it and check exclusive access at
/// every byte; appending had it check capacity and copy through a buffer at every number.)
private struct CompactBlockWriter {
    typealias Field = (tag: UInt16, type: UInt16, count: Int, value: ByteView)

    private var out: [UInt8]
    /// Where the next byte goes in `out`.
    private var position = 0
    let littleEndian: Bool

    /// Starts with `Exif\0\0` and the TIFF header, its first directory right after it, followed
    /// by `directories` bytes (``size(_:pointers:)`` of each directory to write).
    init(littleEndian: Bool, directories: Int) {
        self.littleEndian = littleEndian
        out = [UInt8](repeating: 0, count: ExifDecoder.exifMarker.count + 8 + directories)
        put(ExifDecoder.exifMarker)
        put(littleEndian ? [0x49, 0x49, 0x2A, 0x00] : [0x4D, 0x4D, 0x00, 0x2A])
        put32(8)
    }

    /// The bytes a directory of `fields` and `pointers` entries takes, its values included.
    static func size(_ fields: [Field], pointers: Int) -> Int {
        2 + 12 * (fields.count + pointers) + 4
            + fields.reduce(0) { $0 + ($1.value.count > 4 ? $1.value.count + $1.value.count % 2 : 0) }
    }

    /// Where the next byte goes, counted from the TIFF header (6 bytes into `out`).
    var offset: Int { position - 6 }

    /// The block, once every directory the size was given for has been written.
    var written: [UInt8] {
        assert(position == out.count, "the compact block was sized for \(out.count) bytes, \(position) written")
        return out
    }

    private mutating func put16(_ value: Int) {
        store(UInt16(truncatingIfNeeded: value), at: position)
        position += 2
    }

    private mutating func put32(_ value: Int) {
        store(UInt32(truncatingIfNeeded: value), at: position)
        position += 4
    }

    /// Stores `number` in the block's byte order at `index`; the cursor does not move.
    private mutating func store<Number: FixedWidthInteger>(_ number: Number, at index: Int) {
        let ordered = littleEndian ? number.littleEndian : number.bigEndian
        out.withUnsafeMutableBytes { $0.storeBytes(of: ordered, toByteOffset: index, as: Number.self) }
    }

    private mutating func put(_ bytes: [UInt8]) {
        out.replaceSubrange(position..<position + bytes.count, with: bytes)
        position += bytes.count
    }

    private mutating func put(_ value: ByteView) {
        let at = position
        value.withUnsafeBytes { source in
            out.withUnsafeMutableBytes { UnsafeMutableRawBufferPointer(rebasing: $0[at..<at + source.count]).copyMemory(from: source) }
        }
        position += value.count
    }

    /// Writes a directory of `fields` then one entry per tag of `pointers` (in tag order after the
    /// fields), then the values longer than 4 bytes; returns, for each pointer, the slot of `out`
    /// where its directory's offset goes (``patch(_:toPointAt:)``).
    mutating func write(_ fields: [Field], pointers: [UInt16]) -> [Int] {
        let count = fields.count + pointers.count
        var dataOffset = offset + 2 + 12 * count + 4
        put16(count)
        for field in fields {
            put16(Int(field.tag)); put16(Int(field.type)); put32(field.count)
            if field.value.count <= 4 {
                put(field.value)
                position += 4 - field.value.count
            } else {
                put32(dataOffset)
                dataOffset += field.value.count + field.value.count % 2
            }
        }
        var slots: [Int] = []
        slots.reserveCapacity(pointers.count)
        for tag in pointers {
            put16(Int(tag)); put16(4); put32(1)
            slots.append(position)
            put32(0)
        }
        put32(0)
        for field in fields where field.value.count > 4 {
            put(field.value)
            position += field.value.count % 2
        }
        return slots
    }

    /// Fills the pointer slot `slot` with `target`, an offset from the TIFF header.
    mutating func patch(_ slot: Int, toPointAt target: Int) {
        store(UInt32(truncatingIfNeeded: target), at: slot)
    }
}
