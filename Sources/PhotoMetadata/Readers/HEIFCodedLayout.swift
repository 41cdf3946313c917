/// What `heifCodedImage(atPath:)` would gather, read from the `meta` box alone: no tile is read.
///
/// Made only when the tiles' bytes lie inside the file. Tiles that share bytes (a grid whose every
/// tile names one extent: hundreds of decodes, and a stream hundreds of times the file's size, from
/// one picture stored once) are reported in `tilesSharingBytes`, and never gathered.
public struct HEIFCodedLayout: Sendable, Hashable {
    public var codec: HEIFCodedImage.Codec
    /// The grid the tiles fill (1 × 1 for an image of one item).
    public var columns: Int
    public var rows: Int
    /// The picture's size as stored: the grid's output size, or the item's `ispe`.
    public var width: Int
    public var height: Int
    /// Bytes of coded data in the tiles, all together (a shared byte counted each time).
    public var codedBytes: Int
    /// Two tiles (item ids) whose bytes overlap, or none: no honest writer stores a byte in two tiles.
    public var tilesSharingBytes: [Int]

    /// Width × height; `Int64.max` when the declared sides overflow it.
    public var pixels: Int64 { PixelSize.pixels(width: width, height: height) }

    /// The tiles' item ids, in stream order.
    var tiles: [Int]
    /// The decoder configuration's box type (`hvcC` or `avcC`).
    var configType: FourCC
}
