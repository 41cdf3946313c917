#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Three 64-bit hashes of a picture, made from one small grey rendition of it, and a small colour
/// rendition to confirm what the hashes find.
///
/// - `pixels`: a hash of the picture's 16×16 grey pixels; equal for files whose decoded
///   pictures are the same (a metadata edit, a lossless re-save).
/// - `dHash`: the difference hash, a bit per horizontally adjacent pair of a 9×8 grey
///   rendition (1 when the left one is darker).
/// - `pHash`: the perceptual hash, a bit per low-frequency coefficient of the 32×32 grey
///   rendition's discrete cosine transform (the 8×8 lowest, 1 when above their median).
///
/// A re-encoded, resized, converted or lightly cropped copy keeps both perceptual hashes within a
/// few bits and its colours within a few ΔE (see `DuplicateThresholds`).
public struct PictureFingerprint: Sendable, Hashable {
    public var pixels: UInt64
    public var dHash: UInt64
    public var pHash: UInt64
    public var colour: ColourRendition

    /// The side of the square a fingerprint is made from.
    public static let edge = 32

    public init(pixels: UInt64, dHash: UInt64, pHash: UInt64, colour: ColourRendition) {
        self.pixels = pixels
        self.dHash = dHash
        self.pHash = pHash
        self.colour = colour
    }

    /// The fingerprint of an `edge`×`edge` sRGB picture (3 bytes a pixel, row by row), or nil when
    /// `rgb` has another length. The hashes are of its grey levels (Rec. 601 luma, rounded).
    public init?(rgb: [UInt8]) {
        let edge = Self.edge
        guard rgb.count == edge * edge * 3, let colour = ColourRendition(rgb: rgb, edge: edge) else { return nil }
        var grey = [UInt8](repeating: 0, count: edge * edge)
        for i in grey.indices {
            let red = 299 * Int(rgb[3 * i]), green = 587 * Int(rgb[3 * i + 1]), blue = 114 * Int(rgb[3 * i + 2])
            grey[i] = UInt8((red + green + blue + 500) / 1000)
        }
        pixels = Self.pixelHash(grey)
        dHash = Self.differenceHash(grey)
        pHash = Self.perceptualHash(grey)
        self.colour = colour
    }

    /// The fingerprint of an `edge`×`edge` grey picture, row by row, or nil when `grey` has another
    /// length.
    public init?(grey: [UInt8]) {
        self.init(rgb: grey.flatMap { [$0, $0, $0] })
    }

    /// Bits in which two hashes differ.
    @inlinable
    public static func distance(_ a: UInt64, _ b: UInt64) -> Int { (a ^ b).nonzeroBitCount }

    /// FNV-1a (64-bit) of the 16×16 grey picture, each pixel the rounded mean of a 2×2 block.
    static func pixelHash(_ grey: [UInt8]) -> UInt64 {
        let edge = Self.edge
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for y in stride(from: 0, to: edge, by: 2) {
            for x in stride(from: 0, to: edge, by: 2) {
                let sum = Int(grey[y * edge + x]) + Int(grey[y * edge + x + 1])
                    + Int(grey[(y + 1) * edge + x]) + Int(grey[(y + 1) * edge + x + 1])
                hash ^= UInt64((sum + 2) / 4)
                hash = hash &* 0x0000_0100_0000_01b3
            }
        }
        return hash
    }

    /// Each row of a 9×8 area-averaged rendition gives 8 bits: bit set when a pixel is darker
    /// than its right neighbour.
    static func differenceHash(_ grey: [UInt8]) -> UInt64 {
        let small = areaAverage(grey, edge: Self.edge, width: 9, height: 8)
        var hash: UInt64 = 0
        for y in 0..<8 {
            for x in 0..<8 where small[y * 9 + x] < small[y * 9 + x + 1] {
                hash |= 1 << UInt64(y * 8 + x)
            }
        }
        return hash
    }

    /// The 8×8 lowest DCT-II coefficients of the 32×32 picture, a bit set for each above the median
    /// of the 63 that are not the mean (which is then always set).
    static func perceptualHash(_ grey: [UInt8]) -> UInt64 {
        let edge = Self.edge
        let table = cosineTable
        // Rows first: rows[y][u] = Σx f(x, y) cos((2x+1)uπ/64), then columns for 8 v's.
        var rows = [Double](repeating: 0, count: edge * 8)
        for y in 0..<edge {
            for u in 0..<8 {
                var sum = 0.0
                for x in 0..<edge { sum += Double(grey[y * edge + x]) * table[u * edge + x] }
                rows[y * 8 + u] = sum
            }
        }
        var coefficients = [Double](repeating: 0, count: 64)
        for v in 0..<8 {
            for u in 0..<8 {
                var sum = 0.0
                for y in 0..<edge { sum += rows[y * 8 + u] * table[v * edge + y] }
                coefficients[v * 8 + u] = sum
            }
        }
        let sorted = coefficients.dropFirst().sorted()
        let median = sorted[sorted.count / 2]
        var hash: UInt64 = 0
        for (i, value) in coefficients.enumerated() where value > median { hash |= 1 << UInt64(i) }
        return hash
    }

    /// cos((2x+1)uπ/64) for u in 0..<8, x in 0..<32.
    private static let cosineTable: [Double] = (0..<8).flatMap { u in
        (0..<edge).map { x in cos(Double((2 * x + 1) * u) * Double.pi / Double(2 * edge)) }
    }

    /// `grey` (edge×edge) shrunk to width×height, each output pixel the area-weighted mean of the
    /// source pixels it covers.
    static func areaAverage(_ grey: [UInt8], edge: Int, width: Int, height: Int) -> [Double] {
        let columns = weights(from: edge, to: width)
        let rowsWeights = weights(from: edge, to: height)
        var horizontal = [Double](repeating: 0, count: edge * width)
        for y in 0..<edge {
            for (x, spans) in columns.enumerated() {
                var sum = 0.0
                for (source, weight) in spans { sum += Double(grey[y * edge + source]) * weight }
                horizontal[y * width + x] = sum
            }
        }
        var out = [Double](repeating: 0, count: width * height)
        for (y, spans) in rowsWeights.enumerated() {
            for x in 0..<width {
                var sum = 0.0
                for (source, weight) in spans { sum += horizontal[source * width + x] * weight }
                out[y * width + x] = sum
            }
        }
        return out
    }

    /// For each of `count` output cells, the source cells it covers with the share of each (summing to 1).
    private static func weights(from size: Int, to count: Int) -> [[(Int, Double)]] {
        let scale = Double(size) / Double(count)
        return (0..<count).map { cell in
            let start = Double(cell) * scale, end = Double(cell + 1) * scale
            var spans: [(Int, Double)] = []
            var source = Int(start)
            while Double(source) < end, source < size {
                let covered = min(end, Double(source + 1)) - max(start, Double(source))
                if covered > 0 { spans.append((source, covered / scale)) }
                source += 1
            }
            return spans
        }
    }
}
