import Foundation
import PhotoFixtures
import PhotoMetadata
import Testing

/// A HEIF's primary image gathered as an Annex B stream for ffmpeg (`heifCodedImage(atPath:)`):
/// parameter sets once, then every tile in grid order; the grid's shape and output size; `irot`
/// and `imir` as an EXIF orientation; damaged structures refused.
@Suite struct HEIFCodedImageTests {
    // HEVC NAL units: VPS, SPS, PPS, then IDR slices whose first payload bit starts a picture.
    static let vps: [UInt8] = [0x40, 0x01, 0x0C, 0x01]
    static let sps: [UInt8] = [0x42, 0x01, 0x01, 0x01, 0x60, 0, 0, 0x03, 0, 0, 0, 0, 0, 0, 0x5D, 0xA0]
    static let pps: [UInt8] = [0x44, 0x01, 0xC1, 0x72]
    static func slice(_ marker: UInt8) -> [UInt8] { [0x26, 0x01, 0x80 | marker, 0x11, 0x22] }

    static func annexB(_ units: [[UInt8]]) -> [UInt8] { units.flatMap { [0, 0, 0, 1] + $0 } }

    static func read(_ bytes: [UInt8]) throws -> HEIFCodedImage {
        let folder = try TemporaryDirectory()
        return try MetadataReader().heifCodedImage(atPath: try folder.write("image.heic", bytes).path)
    }

    @Test func aGridBecomesOneStreamOfItsTilesInOrder() throws {
        let tiles = (1...6).map { Self.slice(UInt8($0)) }
        let file = PhotoFixtures.codedHEIF(
            stream: Self.annexB([Self.vps, Self.sps, Self.pps] + tiles), codec: .hevc(chromaFormat: 2, bitDepth: 10),
            columns: 3, width: 300, height: 190)
        let image = try Self.read(file)
        #expect(image.codec == .hevc)
        #expect((image.columns, image.rows) == (3, 2))
        #expect((image.width, image.height) == (300, 190))
        #expect(image.orientation == 1)
        #expect(image.stream == Self.annexB([Self.vps, Self.sps, Self.pps] + tiles))
    }

    @Test func aSingleH264ItemKeepsItsSPSAndPPS() throws {
        let sps: [UInt8] = [0x67, 0x64, 0x00, 0x1E, 0xAC], pps: [UInt8] = [0x68, 0xEE, 0x3C, 0x80]
        let slice: [UInt8] = [0x65, 0x88, 0x84, 0x21]
        let image = try Self.read(PhotoFixtures.codedHEIF(stream: Self.annexB([sps, pps, slice]), codec: .h264, width: 64, height: 48))
        #expect(image.codec == .h264)
        #expect((image.columns, image.rows, image.width, image.height) == (1, 1, 64, 48))
        #expect(image.stream == Self.annexB([sps, pps, slice]))
    }

    /// `irot` turns anticlockwise, `imir` 0 swaps left and right, 1 top and bottom; together in that order.
    @Test(arguments: [
        (nil, nil, 1), (1, nil, 8), (2, nil, 3), (3, nil, 6), (nil, 0, 2), (nil, 1, 4), (1, 0, 7), (1, 1, 5), (3, 0, 5),
    ] as [(Int?, Int?, Int)])
    func turnsAndMirrorsAreAnOrientation(rotation: Int?, mirror: Int?, orientation: Int) throws {
        let file = PhotoFixtures.codedHEIF(
            stream: Self.annexB([Self.vps, Self.sps, Self.pps, Self.slice(0)]), codec: .hevc(chromaFormat: 1, bitDepth: 8),
            width: 40, height: 30, rotation: rotation, mirror: mirror)
        #expect(try Self.read(file).orientation == orientation)
    }

    @Test func damagedStructuresAreRefused() throws {
        let units = [Self.vps, Self.sps, Self.pps] + (1...4).map { Self.slice(UInt8($0)) }
        let grid = PhotoFixtures.codedHEIF(stream: Self.annexB(units), codec: .hevc(chromaFormat: 1, bitDepth: 8), columns: 2, width: 64, height: 64)
        // The grid says 2 × 2 but names three tiles: "dimg" count 4 → 3.
        let dimg = try #require(grid.firstRange(of: Array("dimg".utf8)))
        var short = grid
        short[dimg.upperBound + 3] = 3
        #expect(throws: MetadataError.self) { try Self.read(short) }
        // A NAL unit length past the end of its tile.
        var long = grid
        let slice = try #require(long.firstRange(of: [0, 0, 0, 5, 0x26, 0x01]))
        long[slice.lowerBound + 3] = 0x7F
        #expect(throws: MetadataError.self) { try Self.read(long) }
        // Not HEVC or H.264 (an AVIF), and not HEIF at all.
        #expect(throws: MetadataError.self) { try Self.read(PhotoFixtures.heif(width: 10, height: 10, brand: .avif)) }
        #expect(throws: MetadataError.self) { try Self.read(PhotoFixtures.jpeg(width: 8, height: 8)) }
    }

    static let hevc = PhotoFixtures.HEIFCodec.hevc(chromaFormat: 1, bitDepth: 8)

    static func be32(_ value: Int) -> [UInt8] { (0..<4).map { UInt8((value >> (24 - 8 * $0)) & 0xFF) } }

    static func layout(_ bytes: [UInt8]) throws -> HEIFCodedLayout {
        let folder = try TemporaryDirectory()
        return try MetadataReader().heifCodedLayout(atPath: try folder.write("image.heic", bytes).path)
    }

    /// Issue 30: sides of 4,000,000,000 (an `ispe`, or a grid's 32-bit output size) multiply past
    /// `Int64.max`; the product saturates, so a pixel limit refuses it, rather than trapping.
    @Test(arguments: [1, 2])
    func sidesWhoseProductOverflowsSaturate(tiles: Int) throws {
        let side = 4_000_000_000
        let units = [Self.vps, Self.sps, Self.pps] + (1...tiles).map { Self.slice(UInt8($0)) }
        let file = PhotoFixtures.codedHEIF(stream: Self.annexB(units), codec: Self.hevc, columns: tiles, width: side, height: side)
        let layout = try Self.layout(file)
        #expect((layout.width, layout.height, layout.columns) == (side, side, tiles))
        #expect(layout.pixels == .max)
        let image = try Self.read(file)
        #expect((image.width, image.height) == (side, side))
        #expect(image.pixels == .max)
    }

    /// Issue 30: a grid whose tiles all name one extent would be gathered hundreds of times over
    /// (255 × 2 MiB from a 2 MiB file); tiles that share bytes are found from `iloc` alone, and
    /// never gathered.
    @Test func tilesSharingOneExtentAreRefused() throws {
        let big = [0x26, 0x01, 0x80] + [UInt8](repeating: 0x5A, count: 2 << 20)
        let file = PhotoFixtures.codedHEIF(
            stream: Self.annexB([Self.vps, Self.sps, Self.pps, big]), codec: Self.hevc, columns: 15,
            width: 15 * 512, height: 17 * 512, reusedTiles: 255)
        #expect(file.count < 3 << 20)
        let layout = try Self.layout(file)
        #expect(layout.tilesSharingBytes.count == 2)
        #expect((layout.columns, layout.rows) == (15, 17))
        let imageError = try #require(throws: MetadataError.self) { try Self.read(file) }
        #expect(imageError.code == .malformed)
        #expect(imageError.message.contains("share their bytes"), "\(imageError.message)")
    }

    /// Tiles whose extents overlap without being equal share bytes too; tiles side by side do
    /// not, and their coded bytes add up.
    @Test func overlappingExtentsAreRefusedAdjacentOnesAdded() throws {
        let tiles = (1...4).map { Self.slice(UInt8($0)) }
        let grid = PhotoFixtures.codedHEIF(
            stream: Self.annexB([Self.vps, Self.sps, Self.pps] + tiles), codec: Self.hevc, columns: 2, width: 64, height: 64)
        let adjacent = try Self.layout(grid)
        #expect(adjacent.codedBytes == 4 * (4 + 5))
        #expect(adjacent.tilesSharingBytes.isEmpty)
        // The second tile's extent (offset, length 9) starts 4 bytes earlier, inside the first one's.
        let mdat = try #require(grid.firstRange(of: Array("mdat".utf8))).upperBound
        var overlapping = grid
        let secondOffset = Self.be32(mdat + 9)
        let at = try #require(overlapping.firstRange(of: [0, 3, 0, 0, 0, 0, 0, 1] + secondOffset))
        overlapping.replaceSubrange((at.lowerBound + 8)..<(at.lowerBound + 12), with: Self.be32(mdat + 5))
        #expect(try Self.layout(overlapping).tilesSharingBytes == [2, 3])
        #expect(throws: MetadataError.self) { try Self.read(overlapping) }
    }

    /// An item whose extent starts or ends past the file is refused from `iloc`, before any read.
    @Test func extentsPastTheFileAreRefused() throws {
        let file = PhotoFixtures.codedHEIF(
            stream: Self.annexB([Self.vps, Self.sps, Self.pps, Self.slice(0)]), codec: Self.hevc, width: 40, height: 30)
        let mdat = try #require(file.firstRange(of: Array("mdat".utf8))).upperBound
        let at = try #require(file.firstRange(of: Self.be32(mdat) + Self.be32(9)))
        for (offset, length) in [(mdat, 0x7FFF_FFFF), (0xFFFF_FFFF, 9)] {
            var far = file
            far.replaceSubrange(at, with: Self.be32(offset) + Self.be32(length))
            let error = try #require(throws: MetadataError.self) { try Self.layout(far) }
            #expect(error.code == .truncated)
        }
    }
}

