/// One JPEG stored inside another file (a raw's preview, an EXIF thumbnail): where its bytes are
/// and the size its frame header declares.
public struct EmbeddedJPEG: Sendable, Hashable {
    /// File offset of its start-of-image marker.
    public var offset: Int
    /// Its length in bytes, as the container declares it (within the file).
    public var length: Int
    /// The size its frame header declares, as stored (before any orientation).
    public var width: Int
    public var height: Int

    public var pixels: Int64 { Int64(width) * Int64(height) }
}

/// The JPEGs a file embeds, found without decoding any pixel, and the orientation of the file.
public struct EmbeddedJPEGs: Sendable, Hashable {
    /// The container the file was sniffed as.
    public var format: ImageFormat
    /// The file's own EXIF orientation (1–8); it applies to every embedded JPEG.
    public var orientation: Int
    /// Every embedded JPEG whose frame header could be read, smallest first.
    public var images: [EmbeddedJPEG]
    /// Whether the file's first image (a TIFF structure's IFD0) is sensor data, CFA or LinearRaw,
    /// rather than a picture: what a TIFF decoder shows of it is a grey mosaic.
    public var firstImageIsSensorData = false

    /// The embedded JPEG with the most pixels.
    public var largest: EmbeddedJPEG? { images.last }

    /// The smallest embedded JPEG whose short edge is at least `shortEdge` pixels, else the largest.
    public func smallest(shortEdge: Int) -> EmbeddedJPEG? {
        images.first { min($0.width, $0.height) >= shortEdge } ?? largest
    }
}

extension MetadataReader {
    /// The JPEGs embedded in the file at `path`: a raw's previews (TIFF-based raws' IFDs and
    /// SubIFDs, RW2's `JpgFromRaw`, RAF's header JPEG, X3F's preview sections, CR3's `THMB` and
    /// `PRVW` boxes) and EXIF thumbnails (IFD1), each checked by reading its frame header.
    ///
    /// Reads only headers (within the same byte and time budgets as `read(atPath:)`); a candidate
    /// that points outside the file or has no frame header is left out.
    public func embeddedJPEGs(atPath path: String) throws(MetadataError) -> EmbeddedJPEGs {
        try FileBytes.reading(atPath: path) { file throws(MetadataError) in try embeddedJPEGs(in: file) }
    }

    private func embeddedJPEGs(in file: FileBytes) throws(MetadataError) -> EmbeddedJPEGs {
        let metadata = try read(file)
        let container = FormatSniffer.container(of: file.head)
        var candidates: [(offset: Int, length: Int)] = []
        switch container {
        case .jpeg: candidates = EmbeddedJPEGFinder.exifThumbnail(file, jpegAt: 0)
        case .tiff: candidates = EmbeddedJPEGFinder.tiffCandidates(file)
        case .raf: candidates = EmbeddedJPEGFinder.rafCandidates(file)
        case .x3f: candidates = EmbeddedJPEGFinder.x3fCandidates(file)
        case .isoMedia(.cr3): candidates = EmbeddedJPEGFinder.cr3Candidates(file)
        default: break
        }
        var images: [EmbeddedJPEG] = []
        for candidate in candidates where !images.contains(where: { $0.offset == candidate.offset }) {
            guard candidate.offset >= 0, candidate.length > 4, candidate.offset <= file.size,
                  candidate.length <= file.size - candidate.offset else { continue }
            var facts = ImageFacts(format: .jpeg)
            guard (try? JPEGReader.read(file, at: candidate.offset, into: &facts)) != nil,
                  let size = facts.pixelSize, size.width > 0, size.height > 0 else { continue }
            images.append(EmbeddedJPEG(offset: candidate.offset, length: candidate.length, width: size.width, height: size.height))
        }
        images.sort { ($0.pixels, $0.length) < ($1.pixels, $1.length) }
        let orientation = metadata.orientation.flatMap { (1...8).contains($0) ? $0 : nil } ?? 1
        var found = EmbeddedJPEGs(format: metadata.format, orientation: orientation, images: images)
        if container == .tiff, let structure = try? TIFFStructure(source: .file(file, base: 0)),
           let ifd0 = try? structure.directory(at: structure.firstDirectoryOffset) {
            found.firstImageIsSensorData = TIFFReader.sensorPhotometrics.contains(structure.integer(TIFFTag.photometric, in: ifd0) ?? 0)
        }
        return found
    }
}

/// Where each container keeps its JPEGs: (file offset, length) pairs, unchecked.
enum EmbeddedJPEGFinder {
    static let jpegInterchangeFormat: UInt16 = 0x0201
    static let jpegInterchangeFormatLength: UInt16 = 0x0202
    static let stripOffsets: UInt16 = 0x0111
    static let stripByteCounts: UInt16 = 0x0117
    /// Panasonic RW2's `JpgFromRaw`.
    static let panasonicJPEG: UInt16 = 0x002E

    /// JPEGs of a TIFF structure whose offsets count from `base`: IFD0, its SubIFDs and the IFD
    /// chain (IFD1 holds the EXIF thumbnail), by JPEGInterchangeFormat or a single JPEG strip.
    static func tiffCandidates(_ file: FileBytes, base: Int = 0) -> [(offset: Int, length: Int)] {
        guard let structure = try? TIFFStructure(source: .file(file, base: base)),
              let ifd0 = try? structure.directory(at: structure.firstDirectoryOffset) else { return [] }
        var result: [(offset: Int, length: Int)] = []
        for directory in TIFFReader.imageDirectories(structure, ifd0: ifd0, followChain: true) {
            if let start = structure.integer(jpegInterchangeFormat, in: directory),
               let length = structure.integer(jpegInterchangeFormatLength, in: directory) {
                result.append((base + start, length))
            }
            let compression = structure.integer(TIFFTag.compression, in: directory) ?? 0
            if compression == 6 || compression == 7,
               let offsets = directory.entry(stripOffsets), offsets.count == 1,
               let start = structure.integer(stripOffsets, in: directory),
               let length = structure.integer(stripByteCounts, in: directory) {
                result.append((base + start, length))
            }
        }
        if let entry = ifd0.entry(panasonicJPEG), let length = entry.byteCount {
            result.append((base + entry.valueOffset, length))
        }
        return result
    }

    /// The EXIF thumbnail (IFD1) of the JPEG at `start`, from its first APP1 Exif segment.
    static func exifThumbnail(_ file: FileBytes, jpegAt start: Int) -> [(offset: Int, length: Int)] {
        guard let tiffBase = exifTIFFBase(file, jpegAt: start),
              let structure = try? TIFFStructure(source: .file(file, base: tiffBase)),
              let ifd0 = try? structure.directory(at: structure.firstDirectoryOffset),
              ifd0.next != 0, let ifd1 = try? structure.directory(at: ifd0.next),
              let offset = structure.integer(jpegInterchangeFormat, in: ifd1),
              let length = structure.integer(jpegInterchangeFormatLength, in: ifd1)
        else { return [] }
        return [(tiffBase + offset, length)]
    }

    /// The file offset of the TIFF header in the JPEG's APP1 Exif segment, walking the segments
    /// before the image data.
    static func exifTIFFBase(_ file: FileBytes, jpegAt start: Int) -> Int? {
        var position = start + 2
        for _ in 0..<64 {
            guard let header = try? file.view(at: position, count: 4, readAhead: 64 * 1024),
                  (try? header.u8(0)) == 0xFF, let marker = try? header.u8(1),
                  marker != 0xDA, marker != 0xD9, let length = try? header.u16(2), length >= 2 else { return nil }
            if marker == 0xE1, length > 16,
               let name = try? file.view(at: position + 4, count: 6), name.matches(ExifDecoder.exifMarker.prefix(4)) {
                return position + 10
            }
            position += 2 + Int(length)
        }
        return nil
    }

    /// RAF: the JPEG its header points at (offset 84), and that JPEG's EXIF thumbnail.
    static func rafCandidates(_ file: FileBytes) -> [(offset: Int, length: Int)] {
        guard let header = try? file.view(at: 84, count: 8),
              let offset = try? header.u32(0), let length = try? header.u32(4) else { return [] }
        return [(Int(offset), Int(length))] + exifThumbnail(file, jpegAt: Int(offset))
    }

    /// X3F: the JPEG preview sections (`IMA2`/`IMAG` of format 18) of its section directory.
    static func x3fCandidates(_ file: FileBytes) -> [(offset: Int, length: Int)] {
        guard let tail = try? file.view(at: file.size - 4, count: 4), let directoryOffset = try? tail.u32(0, .littleEndian),
              let directory = try? file.view(at: Int(directoryOffset), count: 12), directory.matches(Array("SECd".utf8)),
              let declared = try? directory.u32(8, .littleEndian) else { return [] }
        let count = min(Int(declared), 64)
        guard let entries = try? file.view(at: Int(directoryOffset) + 12, count: count * 12) else { return [] }
        var result: [(offset: Int, length: Int)] = []
        for index in 0..<count {
            guard let offset = try? entries.u32(index * 12, .littleEndian), let length = try? entries.u32(index * 12 + 4, .littleEndian),
                  let type = try? entries.fourCC(index * 12 + 8), type == FourCC("IMA2") || type == FourCC("IMAG"),
                  let section = try? file.view(at: Int(offset), count: 28), section.matches(Array("SECi".utf8)),
                  (try? section.u32(12, .littleEndian)) == 18, length > 28 else { continue }
            result.append((Int(offset) + 28, Int(length) - 28))
        }
        return result
    }

    /// CR3: the `THMB` box in Canon's metadata `uuid` and the `PRVW` box in the preview `uuid`;
    /// each holds a small header, then the JPEG, found by its start-of-image marker.
    static func cr3Candidates(_ file: FileBytes) -> [(offset: Int, length: Int)] {
        var result: [(offset: Int, length: Int)] = []
        func scan(_ boxes: [ISOBox], depth: Int) {
            for box in boxes {
                if box.type == FourCC("THMB") || box.type == FourCC("PRVW") {
                    guard let content = try? file.view(at: box.contentStart, upTo: min(box.contentSize, 64)),
                          let soi = (0..<max(0, content.count - 2)).first(where: { index in
                              (try? content.u8(index)) == 0xFF && (try? content.u8(index + 1)) == 0xD8 && (try? content.u8(index + 2)) == 0xFF
                          })
                    else { continue }
                    result.append((box.contentStart + soi, box.contentSize - soi))
                } else if box.type == FourCC("uuid"), depth < 3 {
                    // Canon's metadata boxes start right after the uuid; the preview uuid has 8 bytes first.
                    for skip in [0, 8] {
                        scan(ISOBox.children(of: file, from: box.contentStart + skip, to: box.end, limit: 32), depth: depth + 1)
                    }
                } else if box.type == FourCC("moov"), depth < 3 {
                    scan(ISOBox.children(of: file, from: box.contentStart, to: box.end, limit: 64), depth: depth + 1)
                }
            }
        }
        scan(ISOBox.children(of: file, from: 0, to: file.size, limit: 64), depth: 0)
        return result
    }
}
