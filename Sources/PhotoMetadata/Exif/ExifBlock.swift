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
    static func compactBlock(
        _ structure: TIFFStructure, ifd0: TIFFStructure.Directory, exif: TIFFStructure.Directory?,
        gps: TIFFStructure.Directory?
    ) -> [UInt8] {
        typealias Field = (tag: UInt16, type: UInt16, count: Int, value: [UInt8])
        func fields(of directory: TIFFStructure.Directory?, _ wanted: [UInt16]) -> [Field] {
            guard let directory else { return [] }
            var result: [Field] = []
            for entry in directory.entries where wanted.contains(entry.tag) {
                guard !result.contains(where: { $0.tag == entry.tag }),
                      let bytes = try? structure.bytes(of: entry, limit: 256) else { continue }
                let unit = entry.unitSize ?? 1
                result.append((entry.tag, entry.type, bytes.count / unit, bytes.array))
            }
            return result.sorted { $0.tag < $1.tag }
        }
        let order = structure.order
        let first = fields(of: ifd0, TIFFTag.exifFields)
        let second = fields(of: exif, TIFFTag.exifFields)
        let third = fields(of: gps, TIFFTag.gpsFields)

        var out = ExifDecoder.exifMarker
        out.reserveCapacity(512)
        out += order == .littleEndian ? [0x49, 0x49, 0x2A, 0x00] : [0x4D, 0x4D, 0x00, 0x2A]
        // Appended byte by byte: an array per value made this block a third of a JPEG's read.
        func put(_ value: UInt32, _ width: Int) {
            for index in 0..<width {
                let shift = order == .littleEndian ? 8 * index : 8 * (width - 1 - index)
                out.append(UInt8(truncatingIfNeeded: value >> UInt32(shift)))
            }
        }
        func put16(_ value: Int) { put(UInt32(truncatingIfNeeded: value), 2) }
        func put32(_ value: Int) { put(UInt32(truncatingIfNeeded: value), 4) }
        put32(8)

        // Offsets count from the TIFF header, which sits 6 bytes into `out`. Pointer entries
        // (`pointers`, in tag order after the fields) get a zero, filled in once their directory
        // is written; their slots are returned by tag.
        func write(_ fields: [Field], pointers: [UInt16]) -> [UInt16: Int] {
            let count = fields.count + pointers.count
            let start = out.count - 6
            var dataOffset = start + 2 + 12 * count + 4
            var data: [UInt8] = []
            var slots: [UInt16: Int] = [:]
            put16(count)
            let pending = (fields.map { Optional($0) } + pointers.map { _ in nil }).enumerated()
            for (index, field) in pending {
                guard let field else {
                    let tag = pointers[index - fields.count]
                    put16(Int(tag)); put16(4); put32(1)
                    slots[tag] = out.count
                    put32(0)
                    continue
                }
                put16(Int(field.tag)); put16(Int(field.type)); put32(field.count)
                if field.value.count <= 4 {
                    out += field.value
                    for _ in field.value.count..<4 { out.append(0) }
                } else {
                    put32(dataOffset)
                    data += field.value
                    if field.value.count % 2 == 1 { data.append(0) }
                    dataOffset = start + 2 + 12 * count + 4 + data.count
                }
            }
            put32(0)
            out += data
            return slots
        }
        var pointers: [UInt16] = []
        if !second.isEmpty { pointers.append(TIFFTag.exifIFD) }
        if !third.isEmpty { pointers.append(TIFFTag.gpsIFD) }
        let slots = write(first, pointers: pointers)
        for (tag, fields) in [(TIFFTag.exifIFD, second), (TIFFTag.gpsIFD, third)] {
            guard let slot = slots[tag] else { continue }
            out.replaceSubrange(slot..<slot + 4, with: bytes(UInt32(out.count - 6), 4, order))
            _ = write(fields, pointers: [])
        }
        return out
    }

    private static func bytes(_ value: UInt32, _ width: Int, _ order: ByteOrder) -> [UInt8] {
        let little = (0..<width).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
        return order == .littleEndian ? little : little.reversed()
    }
}
