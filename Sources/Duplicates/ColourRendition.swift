#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A picture squeezed into an `edge`×`edge` square in CIELAB colour, to confirm that two pictures
/// the grey hashes find alike are one picture: two colours of one layout, or two pages of
/// different text, are far apart here though their hashes are close.
///
/// Each pixel is three bytes: L* × 2.55, a* + 128 and b* + 128 (rounded, clamped to a byte).
public struct ColourRendition: Sendable, Hashable {
    /// The Lab bytes, row by row.
    public var bytes: [UInt8]

    /// The side of the square.
    public static let edge = 16

    /// The rendition held in `bytes`, or nil when it is not `edge`×`edge`×3 bytes.
    public init?(bytes: [UInt8]) {
        guard bytes.count == Self.edge * Self.edge * 3 else { return nil }
        self.bytes = bytes
    }

    /// The rendition of an `edge`-sided square of sRGB pixels (3 bytes each, row by row), each
    /// output pixel the mean of the source pixels it covers; nil when `rgb` has another length or
    /// `edge` is not a multiple of `ColourRendition.edge`.
    public init?(rgb: [UInt8], edge: Int) {
        let side = Self.edge
        guard edge > 0, edge % side == 0, rgb.count == edge * edge * 3 else { return nil }
        let block = edge / side
        var bytes = [UInt8](repeating: 0, count: side * side * 3)
        for y in 0..<side {
            for x in 0..<side {
                var sum = (0.0, 0.0, 0.0)
                for dy in 0..<block {
                    for dx in 0..<block {
                        let i = ((y * block + dy) * edge + x * block + dx) * 3
                        sum.0 += Self.linear[Int(rgb[i])]
                        sum.1 += Self.linear[Int(rgb[i + 1])]
                        sum.2 += Self.linear[Int(rgb[i + 2])]
                    }
                }
                let count = Double(block * block)
                let (l, a, b) = Self.lab(red: sum.0 / count, green: sum.1 / count, blue: sum.2 / count)
                let o = (y * side + x) * 3
                bytes[o] = Self.byte(l * 2.55)
                bytes[o + 1] = Self.byte(a + 128)
                bytes[o + 2] = Self.byte(b + 128)
            }
        }
        self.bytes = bytes
    }

    /// How much the picture holds: the mean L* difference between neighbouring pixels (right and
    /// below). A mostly blank page, a flat sky or a dark frame is a few units; a photo, tens.
    public var detail: Double {
        let side = Self.edge
        var sum = 0.0
        for y in 0..<side {
            for x in 0..<side {
                let here = Double(bytes[(y * side + x) * 3])
                if x + 1 < side { sum += abs(here - Double(bytes[(y * side + x + 1) * 3])) }
                if y + 1 < side { sum += abs(here - Double(bytes[((y + 1) * side + x) * 3])) }
            }
        }
        return sum / 2.55 / Double(2 * side * (side - 1))
    }

    /// How far two renditions are, in ΔE (CIE 1976): the mean over each one's pixels of the
    /// closest colour among the other's pixel at the same place and its eight neighbours, the
    /// larger of the two directions. The neighbours forgive the shift a light crop makes; a block
    /// of other text or another colour stays as far as it is.
    ///
    /// - Complexity: 9 × 2 × `edge`² colour differences.
    public static func distance(_ a: Self, _ b: Self) -> Double {
        max(directedDistance(a.bytes, b.bytes), directedDistance(b.bytes, a.bytes))
    }

    private static func directedDistance(_ a: [UInt8], _ b: [UInt8]) -> Double {
        let side = edge
        var total = 0.0
        for y in 0..<side {
            for x in 0..<side {
                let i = (y * side + x) * 3
                var closest = Double.infinity
                for ny in max(0, y - 1)...min(side - 1, y + 1) {
                    for nx in max(0, x - 1)...min(side - 1, x + 1) {
                        let j = (ny * side + nx) * 3
                        let dl = (Double(a[i]) - Double(b[j])) / 2.55
                        let da = Double(a[i + 1]) - Double(b[j + 1]), db = Double(a[i + 2]) - Double(b[j + 2])
                        closest = min(closest, dl * dl + da * da + db * db)
                    }
                }
                total += closest.squareRoot()
            }
        }
        return total / Double(side * side)
    }

    /// sRGB byte values in linear light, 0–1.
    private static let linear: [Double] = (0..<256).map { value in
        let c = Double(value) / 255
        return c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4)
    }

    /// CIELAB (D65 white) of a linear-light sRGB colour.
    private static func lab(red: Double, green: Double, blue: Double) -> (Double, Double, Double) {
        let x = (0.4124564 * red + 0.3575761 * green + 0.1804375 * blue) / 0.95047
        let y = 0.2126729 * red + 0.7151522 * green + 0.0721750 * blue
        let z = (0.0193339 * red + 0.1191920 * green + 0.9503041 * blue) / 1.08883
        func f(_ t: Double) -> Double { t > 216.0 / 24389 ? cbrt(t) : (24389.0 / 27 * t + 16) / 116 }
        let fx = f(x), fy = f(y), fz = f(z)
        return (116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz))
    }

    private static func byte(_ value: Double) -> UInt8 { UInt8(max(0, min(255, value.rounded()))) }
}
