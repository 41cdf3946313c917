/// Reads HEIF, HEIC and AVIF: the primary item's `ispe` and `irot`, and the Exif item.
enum HEIFReader {
    /// Largest `meta` box read (real ones take a few KiB, up to some hundreds with many tiles).
    static let maximumMetaSize = 4 * 1024 * 1024

    static func read(_ file: FileBytes, into facts: inout ImageFacts) throws(MetadataError) {
        let top = ISOBox.children(of: file, from: 0, to: file.size, limit: 64)
        guard let metaBox = top.first(where: { $0.type == FourCC("meta") }) else {
            throw .malformed("The HEIF file has no 'meta' box.")
        }
        guard metaBox.contentSize <= maximumMetaSize else {
            throw MetadataError(.budgetExceeded, "The HEIF 'meta' box is larger than \(maximumMetaSize) bytes.")
        }
        let meta = HEIFMeta(try file.view(at: metaBox.contentStart, count: metaBox.contentSize))
        // Without associations (a damaged or missing `ipma`), fall back to the last `ispe`,
        // as ExifTool does.
        let properties = meta.associations.isEmpty ? meta.propertyBoxes.reversed() : meta.primaryItem.map(meta.properties(of:))
        if let properties {
            if let spatial = properties.first(where: { $0.type == FourCC("ispe") }) {
                facts.setSize(width: Int(try spatial.content.u32(4)), height: Int(try spatial.content.u32(8)))
            }
            if let rotation = properties.first(where: { $0.type == FourCC("irot") }) {
                facts.quarterTurns = Int(try rotation.content.u8(0) & 0x03)
            }
        }
        if let exifItem = meta.exifItem, let location = meta.locations[exifItem] {
            facts.exif = try exifValues(at: location, meta: meta, file: file)
        }
        if let damage = meta.damage { throw damage }
    }

    /// Reads the Exif item: a 32-bit offset to the TIFF header, then the EXIF block.
    private static func exifValues(at location: HEIFMeta.Location, meta: HEIFMeta, file: FileBytes) throws(MetadataError) -> ExifValues {
        if location.method == 0, location.extents.count == 1, let extent = location.extents.first {
            let start = location.baseOffset + extent.offset
            let length = extent.length == 0 ? file.size - start : extent.length
            let prefix = try file.view(at: start, count: min(length, 64))
            return try ExifBlock.values(inFile: file, at: start, length: length, tiffStart: try tiffHeaderStart(in: prefix))
        }
        let data = try meta.data(of: location, file: file, limit: ExifBlock.maximumInMemory)
        return ExifBlock.values(in: data, tiffStart: try tiffHeaderStart(in: data))
    }

    /// Where the TIFF header starts in an Exif item: after the declared offset, or where
    /// `II*\0` / `MM\0*` is found in the first bytes when the declared offset is wrong.
    static func tiffHeaderStart(in data: ByteView) throws(MetadataError) -> Int {
        let declared = Int(try data.u32(0)) + 4
        if isTIFFHeader(data, at: declared) { return declared }
        for offset in 4..<min(data.count, 64) where isTIFFHeader(data, at: offset) {
            return offset
        }
        throw .malformed("The Exif item holds no TIFF header.")
    }

    private static func isTIFFHeader(_ data: ByteView, at offset: Int) -> Bool {
        data.matches([0x49, 0x49, 0x2A, 0x00], at: offset) || data.matches([0x4D, 0x4D, 0x00, 0x2A], at: offset)
    }
}

/// The parts of a HEIF `meta` box that locate the primary image's properties and the Exif item.
struct HEIFMeta {
    struct Location {
        var method: Int
        var baseOffset: Int
        var extents: [(offset: Int, length: Int)]
    }

    /// A property box from `ipco`, with its content.
    struct Property {
        var type: FourCC
        var content: ByteView
    }

    var primaryItem: Int?
    var itemTypes: [Int: FourCC] = [:]
    var locations: [Int: Location] = [:]
    var propertyBoxes: [Property] = []
    var associations: [Int: [Int]] = [:]
    var itemData: ByteView?

    /// The first error met in a child box; the other boxes are still read.
    var damage: MetadataError?

    /// Parses the content of a `meta` box (a full box, though some writers omit version and flags).
    ///
    /// Each child box is read on its own, so a damaged `iloc` still leaves the `ispe` readable.
    init(_ meta: ByteView) {
        let start = (try? meta.fourCC(4)) == FourCC("hdlr") ? 0 : 4
        for box in ISOBox.children(of: meta, from: start) {
            do {
                let content = try meta.view(box.contentStart, box.contentSize)
                switch box.type {
                case FourCC("pitm"):
                    primaryItem = Int(try content.u8(0) == 0 ? UInt32(try content.u16(4)) : try content.u32(4))
                case FourCC("iinf"):
                    try parseItemInfo(content)
                case FourCC("iloc"):
                    try parseLocations(content)
                case FourCC("iprp"):
                    try parseProperties(content)
                case FourCC("idat"):
                    itemData = content
                default:
                    break
                }
            } catch {
                damage = damage ?? error
            }
        }
        if primaryItem == nil {
            primaryItem = itemTypes.filter { $0.value != FourCC("Exif") && $0.value != FourCC("mime") }.keys.min()
        }
    }

    /// The first item of type `Exif`.
    var exifItem: Int? {
        itemTypes.filter { $0.value == FourCC("Exif") }.keys.min()
    }

    /// The properties associated with `item`, in association order.
    func properties(of item: Int) -> [Property] {
        (associations[item] ?? []).compactMap { index in
            index >= 1 && index <= propertyBoxes.count ? propertyBoxes[index - 1] : nil
        }
    }

    /// The bytes of an item, from the file (construction method 0) or from `idat` (method 1).
    func data(of location: Location, file: FileBytes, limit: Int) throws(MetadataError) -> ByteView {
        var parts: [ByteView] = []
        var total = 0
        for extent in location.extents {
            let start = location.baseOffset + extent.offset
            let part: ByteView
            switch location.method {
            case 0:
                let length = extent.length == 0 ? file.size - start : extent.length
                guard length <= limit - total else { throw MetadataError(.budgetExceeded, "A HEIF item is larger than \(limit) bytes.") }
                part = try file.view(at: start, count: length)
            case 1:
                guard let itemData else { throw .malformed("A HEIF item lives in a missing 'idat' box.") }
                let length = extent.length == 0 ? itemData.count - start : extent.length
                guard length <= limit - total else { throw MetadataError(.budgetExceeded, "A HEIF item is larger than \(limit) bytes.") }
                part = try itemData.view(start, length)
            default:
                throw .malformed("A HEIF item uses construction method \(location.method), which is not supported.")
            }
            total += part.count
            parts.append(part)
        }
        if parts.count == 1, let only = parts.first { return only }
        return ByteView(parts.flatMap(\.array))
    }

    private mutating func parseItemInfo(_ content: ByteView) throws(MetadataError) {
        let version = try content.u8(0)
        let first = version == 0 ? 6 : 8
        for box in ISOBox.children(of: content, from: first) where box.type == FourCC("infe") {
            let infe = try content.view(box.contentStart, box.contentSize)
            switch try infe.u8(0) {
            case 2: itemTypes[Int(try infe.u16(4))] = try infe.fourCC(8)
            case 3: itemTypes[Int(try infe.u32(4))] = try infe.fourCC(10)
            default: continue
            }
        }
    }

    private mutating func parseLocations(_ content: ByteView) throws(MetadataError) {
        let version = try content.u8(0)
        guard version <= 2 else { throw .malformed("The HEIF 'iloc' box has unknown version \(version).") }
        let sizes = try content.u8(4), moreSizes = try content.u8(5)
        let offsetSize = Int(sizes >> 4), lengthSize = Int(sizes & 0x0F)
        let baseOffsetSize = Int(moreSizes >> 4), indexSize = version == 0 ? 0 : Int(moreSizes & 0x0F)
        var position = 6
        let itemCount: Int
        if version < 2 {
            itemCount = Int(try content.u16(position)); position += 2
        } else {
            itemCount = Int(try content.u32(position)); position += 4
        }
        for _ in 0..<itemCount {
            let item: Int
            if version < 2 {
                item = Int(try content.u16(position)); position += 2
            } else {
                item = Int(try content.u32(position)); position += 4
            }
            var method = 0
            if version >= 1 {
                method = Int(try content.u16(position) & 0x0F); position += 2
            }
            position += 2  // data_reference_index
            let base = try content.unsigned(position, size: baseOffsetSize); position += baseOffsetSize
            let extentCount = Int(try content.u16(position)); position += 2
            var extents: [(offset: Int, length: Int)] = []
            for _ in 0..<extentCount {
                position += indexSize
                let offset = try content.unsigned(position, size: offsetSize); position += offsetSize
                let length = try content.unsigned(position, size: lengthSize); position += lengthSize
                guard offset <= UInt64(Int32.max) * 1024, length <= UInt64(Int32.max) * 1024 else {
                    throw .malformed("A HEIF item extent is impossibly large.")
                }
                extents.append((Int(offset), Int(length)))
            }
            guard base <= UInt64(Int32.max) * 1024 else { throw .malformed("A HEIF item base offset is impossibly large.") }
            locations[item] = Location(method: method, baseOffset: Int(base), extents: extents)
        }
    }

    private mutating func parseProperties(_ content: ByteView) throws(MetadataError) {
        for box in ISOBox.children(of: content) {
            let inner = try content.view(box.contentStart, box.contentSize)
            if box.type == FourCC("ipco") {
                for property in ISOBox.children(of: inner) {
                    propertyBoxes.append(Property(type: property.type, content: try inner.view(property.contentStart, property.contentSize)))
                }
            } else if box.type == FourCC("ipma") {
                try parseAssociations(inner)
            }
        }
    }

    private mutating func parseAssociations(_ content: ByteView) throws(MetadataError) {
        let version = try content.u8(0)
        let wideIndex = try content.u8(3) & 1 == 1
        let entryCount = Int(try content.u32(4))
        var position = 8
        for _ in 0..<entryCount {
            let item: Int
            if version < 1 {
                item = Int(try content.u16(position)); position += 2
            } else {
                item = Int(try content.u32(position)); position += 4
            }
            let count = Int(try content.u8(position)); position += 1
            var indices: [Int] = []
            for _ in 0..<count {
                if wideIndex {
                    indices.append(Int(try content.u16(position) & 0x7FFF)); position += 2
                } else {
                    indices.append(Int(try content.u8(position) & 0x7F)); position += 1
                }
            }
            associations[item, default: []] += indices
        }
    }
}
