import Duplicates
import Testing

@Suite("Colour renditions")
struct ColourRenditionTests {
    /// A detailed rendition: a grid of colour patches (hue turned by `hue`), `lightness` L* lighter.
    static func detailed(hue: Int = 0, lightness: Int = 0) -> ColourRendition {
        let edge = ColourRendition.edge
        var bytes: [UInt8] = []
        for y in 0..<edge {
            for x in 0..<edge {
                let l = 30 + (x * 7 + y * 13) % 50 + lightness
                let a = (x / 4 + y / 4) % 3 == 0 ? 40 : -20, b = (x + y) % 5 * 10 - 20
                // Turning the hue: rotate (a, b) by `hue` degrees.
                let angle = Double(hue) * Double.pi / 180, ca = Double(a), cb = Double(b)
                let ta = ca * Self.cosine(angle) - cb * Self.sine(angle), tb = ca * Self.sine(angle) + cb * Self.cosine(angle)
                bytes += [UInt8(Double(l) * 2.55), UInt8(128 + ta.rounded()), UInt8(128 + tb.rounded())]
            }
        }
        return ColourRendition(bytes: bytes)!
    }

    /// A blank page: white with a faint grey patch at the top left, `lightness` L* lighter.
    static func page(lightness: Int = 0) -> ColourRendition {
        let edge = ColourRendition.edge
        var bytes: [UInt8] = []
        for y in 0..<edge { for x in 0..<edge { bytes += [UInt8(Double((x < 6 && y < 4 ? 88 : 95) + lightness) * 2.55), 128, 130] } }
        return ColourRendition(bytes: bytes)!
    }

    // Taylor series, enough for the small angles here (Foundation is not imported).
    static func sine(_ x: Double) -> Double { x - x * x * x / 6 + x * x * x * x * x / 120 }
    static func cosine(_ x: Double) -> Double { 1 - x * x / 2 + x * x * x * x / 24 }

    @Test("needs edge × edge × 3 bytes; an sRGB square of another multiple of the edge is averaged down")
    func sizes() throws {
        #expect(ColourRendition(bytes: [1, 2, 3]) == nil)
        #expect(ColourRendition(rgb: [UInt8](repeating: 9, count: 30), edge: 10) == nil)
        let grey = try #require(ColourRendition(rgb: [UInt8](repeating: 119, count: 32 * 32 * 3), edge: 32))
        // sRGB 119 is L* 50, a* = b* = 0.
        #expect(grey.bytes[0] == 128 || grey.bytes[0] == 127)
        #expect(grey.bytes[1] == 128 && grey.bytes[2] == 128)
        #expect(grey.detail == 0)
    }

    @Test("distance: zero to itself; a patch shifted by one pixel stays near, another colour or a missing patch is far")
    func distance() throws {
        let photo = Self.detailed()
        #expect(ColourRendition.distance(photo, photo) == 0)
        #expect(ColourRendition.distance(photo, Self.detailed(hue: 30)) > 10)
        func patch(at x0: Int, red: Bool = true) throws -> ColourRendition {
            let edge = 32
            var rgb: [UInt8] = []
            for y in 0..<edge { for x in 0..<edge { rgb += (x / 2 - x0 >= 0 && x / 2 - x0 < 4 && y >= 8 && y < 16) ? (red ? [200, 30, 30] : [30, 30, 200]) : [240, 240, 240] } }
            return try #require(ColourRendition(rgb: rgb, edge: edge))
        }
        let original = try patch(at: 5)
        #expect(ColourRendition.distance(original, try patch(at: 6)) < 1, "a one-pixel shift is forgiven")
        #expect(ColourRendition.distance(original, try patch(at: 5, red: false)) > 5, "a blue patch where the red one was")
        #expect(ColourRendition.distance(original, try patch(at: 12)) > 5, "the patch elsewhere")
        #expect(original.detail > Self.page().detail)
    }
}
