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
    /// Written straight into one array: the values are views on the source's bytes until they are
    /// appended, and each directory's pointer slots are patched in place (a copy per value, a data
    /// array and a dictionary per directory were about half of this block's time).
    static func compactBlock(
        _ structure: TIFFStructure, ifd0: TIFFStructure.Directory, exif: TIFFStructure.Directory?,
        gps: TIFFStructure.Directory?
    ) -> [UInt8] {
        typealias Field = (tag: UInt16, type: UInt16, count: Int, value: ByteView)
        func fields(of directory: TIFFStructure.Directory?, _ wanted: [UInt16]) -> [Field] {
            guard let directory else { return [] }
            var result: [Field] = []
            for entry in directory.entries where wanted.contains(entry.tag) {
                guard !result.contains(where: { $0.tag == entry.tag }),
                      let bytes = try? structure.bytes(of: entry, limit: 256) else { continue }
                let unit = entry.unitSize ?? 1
                result.append((entry.tag, entry.type, bytes.count / unit, bytes))
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
        func append(_ value: ByteView) { value.withUnsafeBytes { out.append(contentsOf: $0) } }
        put32(8)

        // Offsets count from the TIFF header, which sits 6 bytes into `out`. Writes a directory of
        // `fields` then one entry per tag of `pointers` (in tag order after the fields), then the
        // values longer than 4 bytes; each pointer gets its directory's offset when that directory
        // is written, at the slot returned for it.
        func write(_ fields: [Field], pointers: [UInt16]) -> [Int] {
            let count = fields.count + pointers.count
            var dataOffset = out.count - 6 + 2 + 12 * count + 4
            put16(count)
            for field in fields {
                put16(Int(field.tag)); put16(Int(field.type)); put32(field.count)
                if field.value.count <= 4 {
                    append(field.value)
                    for _ in field.value.count..<4 { out.append(0) }
                } else {
                    put32(dataOffset)
                    dataOffset += field.value.count + field.value.count % 2
                }
            }
            var slots: [Int] = []
            for tag in pointers {
                put16(Int(tag)); put16(4); put32(1)
                slots.append(out.count)
                put32(0)
            }
            put32(0)
            for field in fields where field.value.count > 4 {
                append(field.value)
                if field.value.count % 2 == 1 { out.append(0) }
            }
            return slots
        }
        let subdirectories = [second, third]
        let pointers = zip([TIFFTag.exifIFD, TIFFTag.gpsIFD], subdirectories).filter { !$0.1.isEmpty }.map(\.0)
        let slots = write(first, pointers: pointers)
        for (slot, fields) in zip(slots, subdirectories.filter { !$0.isEmpty }) {
            let offset = UInt32(out.count - 6)
            for index in 0..<4 {
                let shift = order == .littleEndian ? 8 * index : 8 * (3 - index)
                out[slot + index] = UInt8(truncatingIfNeeded: offset >> UInt32(shift))
            }
            _ = write(fields, pointers: [])
        }
        return out
    }
}
