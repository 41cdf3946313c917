/// Reads TIFF and TIFF-based raw files (DNG, CR2, NEF, ARW, ORF, RW2, PEF, IIQ, SRW, ...).
///
/// A plain TIFF reports the size of IFD0. A raw file reports the size of its full-resolution
/// CFA image (NewSubfileType 0, in IFD0, a SubIFD or the IFD chain) or no size at all, never the
/// size of a preview.
enum TIFFReader {
    /// Most directories visited when looking for the raw image.
    static let maximumDirectories = 16

    /// Photometric interpretations of sensor data: CFA and LinearRaw.
    static let sensorPhotometrics: Set<Int> = [32803, 34892]

    static func read(_ file: FileBytes, into facts: inout ImageFacts) throws(MetadataError) {
        let structure = try TIFFStructure(source: .file(file))
        let ifd0 = try structure.directory(at: structure.firstDirectoryOffset)
        facts.format = format(of: structure, ifd0: ifd0, head: file.head)
        facts.exif = ExifBlock.values(of: structure, ifd0: ifd0)
        if facts.format == .tiff {
            if let width = structure.integer(TIFFTag.imageWidth, in: ifd0), let height = structure.integer(TIFFTag.imageLength, in: ifd0) {
                facts.setSize(width: width, height: height)
            }
        } else if let raw = rawImage(structure, ifd0: ifd0, isDNG: facts.format == .dng) {
            facts.pixelSize = raw
        }
        if facts.format == .rw2, facts.exif.captureDate == nil {
            try readEmbeddedJPEG(structure, ifd0: ifd0, file: file, into: &facts)
        }
    }

    /// The raw format from the header's magic number, DNGVersion, or the camera make of a file
    /// that holds sensor data; `.tiff` otherwise.
    static func format(of structure: TIFFStructure, ifd0: TIFFStructure.Directory, head: ByteView) -> ImageFormat {
        switch structure.magic {
        case 0x55: return .rw2
        case 0x4F52, 0x5352: return .orf
        default: break
        }
        if head.matches([0x43, 0x52, 0x02], at: 8) { return .cr2 }
        if head.matches([0x49, 0x49, 0x49, 0x49], at: 8) { return .iiq }
        if ifd0.entry(TIFFTag.dngVersion) != nil { return .dng }
        guard holdsSensorData(structure, ifd0: ifd0) else { return .tiff }
        let make = (structure.text(TIFFTag.make, in: ifd0) ?? "").uppercased()
        let byMake: [(String, ImageFormat)] = [
            ("NIKON", .nef), ("SONY", .arw), ("PENTAX", .pef), ("RICOH", .pef), ("SAMSUNG", .srw),
            ("CANON", .cr2), ("OLYMPUS", .orf), ("OM DIGITAL", .orf), ("PANASONIC", .rw2),
            ("LEAF", .iiq), ("PHASE ONE", .iiq),
        ]
        return byMake.first { make.hasPrefix($0.0) }?.1 ?? .tiff
    }

    /// Whether IFD0 or one of its SubIFDs stores CFA or LinearRaw data.
    private static func holdsSensorData(_ structure: TIFFStructure, ifd0: TIFFStructure.Directory) -> Bool {
        imageDirectories(structure, ifd0: ifd0, followChain: false).contains { directory in
            sensorPhotometrics.contains(structure.integer(TIFFTag.photometric, in: directory) ?? 0)
        }
    }

    /// IFD0, its SubIFDs, and (when asked) the rest of the IFD chain, each visited once.
    static func imageDirectories(_ structure: TIFFStructure, ifd0: TIFFStructure.Directory, followChain: Bool) -> [TIFFStructure.Directory] {
        var result = [ifd0]
        var visited: Set<Int> = [structure.firstDirectoryOffset]
        func addSubIFDs(of directory: TIFFStructure.Directory) {
            guard let entry = directory.entry(TIFFTag.subIFDs),
                  let offsets = try? structure.integers(of: entry, limit: 8) else { return }
            for offset in offsets where result.count < maximumDirectories && visited.insert(offset).inserted {
                if let sub = try? structure.directory(at: offset) { result.append(sub) }
            }
        }
        addSubIFDs(of: ifd0)
        guard followChain else { return result }
        var next = ifd0.next
        while next != 0, result.count < maximumDirectories, visited.insert(next).inserted {
            guard let directory = try? structure.directory(at: next) else { break }
            result.append(directory)
            addSubIFDs(of: directory)
            next = directory.next
        }
        return result
    }

    /// The size of the full-resolution image: NewSubfileType 0 and, except for DNG, sensor data.
    private static func rawImage(_ structure: TIFFStructure, ifd0: TIFFStructure.Directory, isDNG: Bool) -> PixelSize? {
        for directory in imageDirectories(structure, ifd0: ifd0, followChain: !isDNG) {
            guard (structure.integer(TIFFTag.newSubfileType, in: directory) ?? 0) == 0 else { continue }
            if !isDNG, !sensorPhotometrics.contains(structure.integer(TIFFTag.photometric, in: directory) ?? 0) { continue }
            if let width = structure.integer(TIFFTag.imageWidth, in: directory),
               let height = structure.integer(TIFFTag.imageLength, in: directory), width > 0, height > 0 {
                return PixelSize(width: width, height: height)
            }
        }
        return nil
    }

    /// Panasonic RW2 files may keep their EXIF only in the JPEG preview (tag 0x002E).
    private static func readEmbeddedJPEG(_ structure: TIFFStructure, ifd0: TIFFStructure.Directory, file: FileBytes, into facts: inout ImageFacts) throws(MetadataError) {
        guard let entry = ifd0.entry(0x002E), entry.byteCount ?? 0 > 4 else { return }
        var embedded = ImageFacts(format: .jpeg)
        try JPEGReader.read(file, at: entry.valueOffset, into: &embedded)
        facts.exif = facts.exif.filling(from: embedded.exif)
    }
}
