import Foundation

/// A colour picture for the demo library, so that a newcomer's first grid tells its photos apart.
extension PhotoFixtures {
    /// A baseline colour JPEG of a small landscape in `hue` (degrees): a sky shading towards the
    /// horizon, a sun, darker ground, upright once its EXIF `orientation` (1, 3, 6 or 8) is applied.
    ///
    /// One DC-only 8×8 block per colour component and MCU (no subsampling), with the standard DC
    /// Huffman table and an end-of-block code for the rest: the picture is a mosaic of 8-pixel
    /// squares, and a 96×64 file takes well under a kilobyte beside its EXIF.
    public static func scene(width: Int, height: Int, hue: Double, exif: ExifFields = ExifFields()) -> [UInt8] {
        var bytes: [UInt8] = [0xFF, 0xD8]
        let tiff = exifTIFF(exif)
        if !tiff.isEmpty { bytes += segment(0xE1, Array("Exif".utf8) + [0, 0] + tiff) }
        bytes += segment(0xDB, [0x00] + [UInt8](repeating: 1, count: 64))
        bytes += segment(0xC0, [8] + be16(height) + be16(width) + [3, 1, 0x11, 0, 2, 0x11, 0, 3, 0x11, 0])
        bytes += segment(0xC4, [0x00] + dcCodeLengths + Array(0...11) + [0x10, 1] + [UInt8](repeating: 0, count: 15) + [0x00])
        bytes += segment(0xDA, [3, 1, 0x00, 2, 0x00, 3, 0x00, 0, 63, 0])

        let columns = (width + 7) / 8, rows = (height + 7) / 8
        let quarterTurns = quarterTurns(orientation: exif.orientation)
        var writer = JPEGBitWriter()
        var previous = [0, 0, 0]
        for row in 0..<rows {
            for column in 0..<columns {
                let colour = sceneColour(displayed(column, row, columns, rows, quarterTurns: quarterTurns), hue: hue)
                for (component, value) in ycbcr(colour).enumerated() {
                    // DC coefficient of a flat block with all-ones quantisation: 8 × (value − 128).
                    let dc = Int((8 * (value - 128)).rounded())
                    writer.writeDC(dc - previous[component])
                    previous[component] = dc
                    writer.write(0, bits: 1)  // end of block
                }
            }
        }
        return bytes + writer.finish() + [0xFF, 0xD9]
    }

    /// The same landscape as RGB samples, row by row (for PNG and TIFF, which hold pixels).
    static func scenePixels(width: Int, height: Int, hue: Double, orientation: Int?) -> [UInt8] {
        let turns = quarterTurns(orientation: orientation)
        var pixels: [UInt8] = []
        pixels.reserveCapacity(max(0, width * height * 3))
        for row in 0..<max(height, 0) {
            for column in 0..<max(width, 0) {
                let (r, g, b) = sceneColour(displayed(column, row, width, height, quarterTurns: turns), hue: hue)
                pixels += [UInt8(r.rounded()), UInt8(g.rounded()), UInt8(b.rounded())]
            }
        }
        return pixels
    }

    /// The landscape's sky halfway down, for a picture of one colour (WebP).
    static func skyColour(hue: Double) -> (UInt8, UInt8, UInt8) {
        let (r, g, b) = sceneColour((0.1, 0.3), hue: hue)
        return (UInt8(r.rounded()), UInt8(g.rounded()), UInt8(b.rounded()))
    }

    /// Clockwise quarter turns that EXIF `orientation` (1, 3, 6, 8; others as 1) applies.
    private static func quarterTurns(orientation: Int?) -> Int {
        [3: 2, 6: 1, 8: 3][orientation ?? 1] ?? 0
    }

    /// The standard DC table's code counts by length (ITU T.81 Annex K.3), categories 0–11.
    private static let dcCodeLengths: [UInt8] = [0, 1, 5, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0]

    /// Where cell (`column`, `row`) of a `columns` × `rows` grid (8×8 blocks, or pixels) lands once
    /// the picture is turned `quarterTurns` clockwise, as fractions of the displayed width and height.
    private static func displayed(_ column: Int, _ row: Int, _ columns: Int, _ rows: Int, quarterTurns: Int) -> (x: Double, y: Double) {
        let x = (Double(column) + 0.5) / Double(columns), y = (Double(row) + 0.5) / Double(rows)
        switch quarterTurns {
        case 1: return (1 - y, x)
        case 2: return (1 - x, 1 - y)
        case 3: return (y, 1 - x)
        default: return (x, y)
        }
    }

    /// The landscape's colour at (`x`, `y`) (fractions of the displayed picture), as RGB 0–255.
    private static func sceneColour(_ point: (x: Double, y: Double), hue: Double) -> (Double, Double, Double) {
        let horizon = 0.62
        let sun = (x: 0.72, y: 0.28)
        if hypot((point.x - sun.x) * 1.5, point.y - sun.y) < 0.16 { return (255, 236, 170) }
        if point.y < horizon {
            let depth = point.y / horizon
            return hsv(hue, 0.25 + 0.45 * depth, 1 - 0.15 * depth)
        }
        let depth = (point.y - horizon) / (1 - horizon)
        return hsv(hue + 140, 0.55, 0.55 - 0.25 * depth)
    }

    private static func hsv(_ hue: Double, _ saturation: Double, _ value: Double) -> (Double, Double, Double) {
        let h = (hue.truncatingRemainder(dividingBy: 360) + 360).truncatingRemainder(dividingBy: 360) / 60
        let chroma = value * saturation
        let second = chroma * (1 - abs(h.truncatingRemainder(dividingBy: 2) - 1))
        let (r, g, b): (Double, Double, Double) = switch Int(h) {
        case 0: (chroma, second, 0)
        case 1: (second, chroma, 0)
        case 2: (0, chroma, second)
        case 3: (0, second, chroma)
        case 4: (second, 0, chroma)
        default: (chroma, 0, second)
        }
        let m = value - chroma
        return ((r + m) * 255, (g + m) * 255, (b + m) * 255)
    }

    /// JFIF's RGB to YCbCr.
    private static func ycbcr(_ rgb: (Double, Double, Double)) -> [Double] {
        let (r, g, b) = rgb
        return [0.299 * r + 0.587 * g + 0.114 * b,
                128 - 0.168736 * r - 0.331264 * g + 0.5 * b,
                128 + 0.5 * r - 0.418688 * g - 0.081312 * b]
    }
}
