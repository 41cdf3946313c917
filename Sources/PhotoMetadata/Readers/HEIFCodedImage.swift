/// The coded picture of a HEIF's primary image, laid out for a video decoder (ffmpeg) rather
/// than libheif: the decoder configuration's parameter sets, then each tile's NAL units, as one
/// Annex B stream in which every tile is a picture of its own.
///
/// For the HEIF files libheif refuses (an H.264 item, which libheif 1.15 cannot decode; a camera's
/// HEVC that libde265 cannot) while their codec is one ffmpeg decodes.
public struct HEIFCodedImage: Sendable, Hashable {
    public enum Codec: String, Sendable, Hashable {
        /// `hvc1`/`hev1` items: ffmpeg's `hevc` demuxer.
        case hevc
        /// `avc1` items: ffmpeg's `h264` demuxer.
        case h264
    }

    public var codec: Codec
    /// Parameter sets and tiles, each NAL unit after a `00 00 00 01` start code.
    public var stream: [UInt8]
    /// The grid the tiles fill, in stream order, row by row (1 × 1 for an image of one item).
    public var columns: Int
    public var rows: Int
    /// The picture's size as stored (before `orientation`): the grid's output size, or the item's
    /// `ispe`; the tiles are cropped to it.
    public var width: Int
    public var height: Int
    /// The EXIF orientation (1–8) that the item's `irot` and `imir` properties amount to.
    public var orientation: Int

    /// Width × height; `Int64.max` when the declared sides overflow it (two 32-bit sides can).
    public var pixels: Int64 { PixelSize.pixels(width: width, height: height) }
}

extension MetadataReader {
    /// Most bytes of coded data gathered (a 100-megapixel HEIF holds some tens of MB).
    static let maximumCodedHEIF = 512 << 20

    /// The layout of the HEIF at `path`'s primary image (see `HEIFCodedLayout`), from its `meta`
    /// box alone: what a caller checks (the declared size, the coded bytes) before gathering.
    ///
    /// Throws as `heifCodedImage(atPath:)` does, `budgetExceeded` when the tiles hold more than
    /// `maximumCodedHEIF` bytes; tiles that share bytes are reported, not thrown.
    public func heifCodedLayout(atPath path: String) throws(MetadataError) -> HEIFCodedLayout {
        try readingHEIF(atPath: path) { meta, file throws(MetadataError) in
            try HEIFCoding.layout(meta: meta, file: file, budget: Self.maximumCodedHEIF)
        }
    }

    /// The primary image of the HEIF at `path` as an Annex B stream (see `HEIFCodedImage`).
    ///
    /// Throws when the file is not HEIF, its primary item is neither an HEVC or H.264 image nor
    /// a grid of them, or its boxes do not hold together (see `heifCodedLayout(atPath:)`); tiles
    /// that share bytes are `malformed`.
    public func heifCodedImage(atPath path: String) throws(MetadataError) -> HEIFCodedImage {
        try readingHEIF(atPath: path) { meta, file throws(MetadataError) in
            try HEIFCoding.codedImage(meta: meta, file: file, budget: Self.maximumCodedHEIF)
        }
    }

    /// `body` with the `meta` box of the HEIF (not AVIF) at `path`, and its bytes.
    private func readingHEIF<Result>(
        atPath path: String, _ body: (HEIFMeta, FileBytes) throws(MetadataError) -> Result
    ) throws(MetadataError) -> Result {
        try FileBytes.reading(atPath: path) { file throws(MetadataError) in
            guard case .isoMedia(let format) = FormatSniffer.container(of: file.head), format == .heic || format == .heif else {
                throw .malformed("The file is not HEIF.")
            }
            return try body(try HEIFReader.meta(of: file), file)
        }
    }
}

/// Gathers a HEIF's coded tiles (see `HEIFCodedImage`).
enum HEIFCoding {
    /// The primary image's layout, its tiles' extents checked: inside the file, at most `budget`
    /// bytes together; two tiles sharing bytes are found.
    static func layout(meta: HEIFMeta, file: FileBytes, budget: Int) throws(MetadataError) -> HEIFCodedLayout {
        guard let primary = meta.primaryItem, let type = meta.itemTypes[primary] else {
            throw .malformed("The HEIF file names no primary image.")
        }
        var tiles = [primary]
        var columns = 1, rows = 1
        var size = try spatialExtent(of: primary, meta: meta)
        if type == FourCC("grid") {
            guard let location = meta.locations[primary] else { throw .malformed("The HEIF grid has no data.") }
            let grid = try meta.data(of: location, file: file, limit: 64)
            let wide = try grid.u8(1) & 1 == 1
            rows = Int(try grid.u8(2)) + 1
            columns = Int(try grid.u8(3)) + 1
            size = wide
                ? (Int(try grid.u32(4)), Int(try grid.u32(8)))
                : (Int(try grid.u16(4)), Int(try grid.u16(6)))
            tiles = meta.references[primary]?[FourCC("dimg")] ?? []
            // At most 256 × 256.
            guard tiles.count == rows * columns else {
                throw .malformed("The HEIF grid of \(columns) × \(rows) names \(tiles.count) tiles.")
            }
        }
        guard size.width > 0, size.height > 0 else { throw .malformed("The HEIF image declares no size.") }

        let tileType = meta.itemTypes[tiles[0]]
        let codec: HEIFCodedImage.Codec
        let configType: FourCC
        switch tileType {
        case FourCC("hvc1"), FourCC("hev1"): (codec, configType) = (.hevc, FourCC("hvcC"))
        case FourCC("avc1"): (codec, configType) = (.h264, FourCC("avcC"))
        default: throw .malformed("The HEIF image is coded as '\(tileType.map(\.description) ?? "?")', not HEVC or H.264.")
        }

        // Every tile's bytes, by construction method (file or `idat`), to find any shared byte.
        var ranges: [(method: Int, range: Range<Int>, tile: Int)] = []
        var codedBytes = 0
        for tile in tiles {
            guard meta.itemTypes[tile] == tileType else { throw .malformed("The HEIF grid mixes codecs.") }
            guard meta.properties(of: tile).contains(where: { $0.type == configType }) else {
                throw .malformed("A HEIF tile has no '\(configType)' decoder configuration.")
            }
            guard let location = meta.locations[tile] else { throw .malformed("A HEIF tile has no location.") }
            for range in try meta.ranges(of: location, file: file) {
                // Each range lies inside the file or `idat` (below 2^63), and so do fewer than
                // 65,536 of them together once none overlaps; checked as they come all the same.
                guard range.count <= budget - codedBytes else {
                    throw MetadataError(.budgetExceeded, "The HEIF image's tiles hold more than \(budget) bytes.")
                }
                codedBytes += range.count
                ranges.append((location.method, range, tile))
            }
        }
        ranges.sort { ($0.method, $0.range.lowerBound) < ($1.method, $1.range.lowerBound) }
        let shared = zip(ranges, ranges.dropFirst()).first { previous, next in
            previous.method == next.method && next.range.lowerBound < previous.range.upperBound && !next.range.isEmpty
        }
        return HEIFCodedLayout(
            codec: codec, columns: columns, rows: rows, width: size.width, height: size.height, codedBytes: codedBytes,
            tilesSharingBytes: shared.map { [$0.0.tile, $0.1.tile] } ?? [], tiles: tiles, configType: configType)
    }

    static func codedImage(meta: HEIFMeta, file: FileBytes, budget: Int) throws(MetadataError) -> HEIFCodedImage {
        let layout = try layout(meta: meta, file: file, budget: budget)
        if let first = layout.tilesSharingBytes.first, let second = layout.tilesSharingBytes.last {
            throw .malformed("HEIF tiles \(first) and \(second) share their bytes: one picture stored once would be decoded many times over.")
        }
        var stream: [UInt8] = []
        var configured = false
        for tile in layout.tiles {
            guard let config = meta.properties(of: tile).first(where: { $0.type == layout.configType }),
                  let location = meta.locations[tile]
            else { throw .malformed("A HEIF tile has no '\(layout.configType)' decoder configuration or no location.") }
            let (parameterSets, lengthSize) = layout.codec == .hevc ? try hevcConfiguration(config.content) : try avcConfiguration(config.content)
            // Tiles of one grid share their parameter sets; they are written once.
            if !configured {
                for unit in parameterSets { stream += startCode + unit.array }
                configured = true
            }
            let data = try meta.data(of: location, file: file, limit: budget - stream.count)
            try appendUnits(of: data, lengthSize: lengthSize, to: &stream, budget: budget)
        }
        return HEIFCodedImage(
            codec: layout.codec, stream: stream, columns: layout.columns, rows: layout.rows, width: layout.width, height: layout.height,
            orientation: orientation(of: meta.properties(of: meta.primaryItem ?? 0)))
    }

    static let startCode: [UInt8] = [0, 0, 0, 1]

    /// The `ispe` of `item`, or 0 × 0.
    private static func spatialExtent(of item: Int, meta: HEIFMeta) throws(MetadataError) -> (width: Int, height: Int) {
        guard let spatial = meta.properties(of: item).first(where: { $0.type == FourCC("ispe") }) else { return (0, 0) }
        return (Int(try spatial.content.u32(4)), Int(try spatial.content.u32(8)))
    }

    /// An `hvcC`'s NAL units (VPS, SPS, PPS, SEI) and the size of the length before each unit.
    private static func hevcConfiguration(_ config: ByteView) throws(MetadataError) -> ([ByteView], Int) {
        var units: [ByteView] = []
        var position = 23
        for _ in 0..<Int(try config.u8(22)) {
            // Each array: its NAL unit type, then a 16-bit count.
            let count = Int(try config.u16(position + 1))
            position += 3
            units += try lengthPrefixedUnits(config, count: count, at: &position)
        }
        return (units, Int(try config.u8(21) & 0x03) + 1)
    }

    /// An `avcC`'s SPS and PPS units and the size of the length before each unit.
    private static func avcConfiguration(_ config: ByteView) throws(MetadataError) -> ([ByteView], Int) {
        var units: [ByteView] = []
        var position = 5
        // The SPS count in 5 bits, the PPS count in 8.
        for mask in [UInt8(0x1F), 0xFF] {
            let count = Int(try config.u8(position) & mask)
            position += 1
            units += try lengthPrefixedUnits(config, count: count, at: &position)
        }
        return (units, Int(try config.u8(4) & 0x03) + 1)
    }

    /// `count` NAL units from `position` on, each after a 16-bit length; `position` moves past them.
    private static func lengthPrefixedUnits(_ config: ByteView, count: Int, at position: inout Int) throws(MetadataError) -> [ByteView] {
        var units: [ByteView] = []
        for _ in 0..<count {
            let length = Int(try config.u16(position))
            units.append(try config.view(position + 2, length))
            position += 2 + length
        }
        return units
    }

    /// Appends an item's length-prefixed NAL units with start codes instead; the stream stays
    /// within `budget` bytes (a start code can be longer than the length it replaces).
    private static func appendUnits(of data: ByteView, lengthSize: Int, to stream: inout [UInt8], budget: Int) throws(MetadataError) {
        var position = 0
        while position + lengthSize <= data.count {
            let length = Int(try data.unsigned(position, size: lengthSize))
            guard length > 0, length <= data.count - position - lengthSize else {
                throw .malformed("A HEIF tile's NAL unit runs past its end.")
            }
            guard length <= budget - stream.count - startCode.count else {
                throw MetadataError(.budgetExceeded, "The HEIF image's coded stream is larger than \(budget) bytes.")
            }
            stream += startCode + (try data.view(position + lengthSize, length)).array
            position += lengthSize + length
        }
    }

    /// The EXIF orientation of `irot` and `imir`, applied in the order the item lists them.
    static func orientation(of properties: [HEIFMeta.Property]) -> Int {
        // Each orientation as the matrix taking stored coordinates (x right, y down) to displayed ones.
        let exif: [Int: [Int]] = [
            1: [1, 0, 0, 1], 2: [-1, 0, 0, 1], 3: [-1, 0, 0, -1], 4: [1, 0, 0, -1],
            5: [0, 1, 1, 0], 6: [0, -1, 1, 0], 7: [0, -1, -1, 0], 8: [0, 1, -1, 0],
        ]
        func times(_ a: [Int], _ b: [Int]) -> [Int] {
            [a[0] * b[0] + a[1] * b[2], a[0] * b[1] + a[1] * b[3], a[2] * b[0] + a[3] * b[2], a[2] * b[1] + a[3] * b[3]]
        }
        var matrix = exif[1]!
        for property in properties {
            if property.type == FourCC("irot"), let turns = try? property.content.u8(0) & 0x03 {
                // Quarter turns anticlockwise, as orientation 8 is one.
                for _ in 0..<turns { matrix = times(exif[8]!, matrix) }
            } else if property.type == FourCC("imir"), let axis = try? property.content.u8(0) & 0x01 {
                // 0: about the vertical axis (left and right swap); 1: about the horizontal axis.
                matrix = times(axis == 0 ? exif[2]! : exif[4]!, matrix)
            }
        }
        return exif.first { $0.value == matrix }?.key ?? 1
    }
}
