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

    /// Most items read from `iloc` or `ipma`, and most extents in `iloc` (all items together).
    /// An extent whose offset and length sizes are 0 takes no bytes, so without this bound a
    /// small box could announce billions of them.
    static let maximumItems = 65536

    var primaryItem: Int?
    var itemTypes: [Int: FourCC] = [:]
    var locations: [Int: Location] = [:]
    var propertyBoxes: [Property] = []
    var associations: [Int: [Int]] = [:]
    /// `iref`'s references: from an item, by type (`dimg`, `thmb`, `cdsc`…), to items in order.
    var references: [Int: [FourCC: [Int]]] = [:]
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
                case FourCC("iref"):
                    try parseReferences(content)
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
        for range in try ranges(of: location, file: file) {
            guard range.count <= limit - total else { throw MetadataError(.budgetExceeded, "A HEIF item is larger than \(limit) bytes.") }
            let part = location.method == 0
                ? try file.view(at: range.lowerBound, count: range.count)
                : try (itemData ?? ByteView([])).view(range.lowerBound, range.count)
            total += part.count
            parts.append(part)
        }
        if parts.count == 1, let only = parts.first { return only }
        return ByteView(parts.flatMap(\.array))
    }

    /// Where an item's bytes lie: each extent as a range of the file (construction method 0) or
    /// of `idat` (method 1), checked to lie inside it; nothing is read.
    func ranges(of location: Location, file: FileBytes) throws(MetadataError) -> [Range<Int>] {
        let space: Int
        switch location.method {
        case 0:
            space = file.size
        case 1:
            guard let itemData else { throw .malformed("A HEIF item lives in a missing 'idat' box.") }
            space = itemData.count
        default:
            throw .malformed("A HEIF item uses construction method \(location.method), which is not supported.")
        }
        var ranges: [Range<Int>] = []
        for extent in location.extents {
            // Both below 2^41 (`parseLocations`): the sum cannot overflow.
            let start = location.baseOffset + extent.offset
            guard start <= space else { throw .truncated(start, extent.length) }
            let length = extent.length == 0 ? space - start : extent.length
            guard length <= space - start else { throw .truncated(start, length) }
            ranges.append(start..<start + length)
        }
        return ranges
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

    private mutating func parseReferences(_ content: ByteView) throws(MetadataError) {
        let wide = try content.u8(0) != 0
        var total = 0
        for box in ISOBox.children(of: content, from: 4) {
            let reference = try content.view(box.contentStart, box.contentSize)
            let size = wide ? 4 : 2
            let from = Int(try reference.unsigned(0, size: size))
            let count = Int(try reference.u16(size))
            total += count
            guard total <= Self.maximumItems else { throw .malformed("The HEIF 'iref' box lists more than \(Self.maximumItems) references.") }
            var targets: [Int] = []
            for index in 0..<count {
                targets.append(Int(try reference.unsigned(size + 2 + index * size, size: size)))
            }
            references[from, default: [:]][box.type, default: []] += targets
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
        guard itemCount <= Self.maximumItems else { throw .malformed("The HEIF 'iloc' box lists \(itemCount) items.") }
        var extentTotal = 0
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
            extentTotal += extentCount
            guard extentTotal <= Self.maximumItems else { throw .malformed("The HEIF 'iloc' box lists more than \(Self.maximumItems) extents.") }
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
        guard entryCount <= Self.maximumItems else { throw .malformed("The HEIF 'ipma' box lists \(entryCount) items.") }
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
