import SeededRandom

/// Different pictures that look alike to a grey perceptual hash, for the duplicate finder's tests
/// and benchmark: none of a set is a duplicate of another.
public enum LookAlikeSet: String, Sendable, CaseIterable {
    /// Scanned-looking pages: white paper with a block of different text at the top left.
    case textPages = "text pages"
    /// The demo's landscape layout (sky, sun, ground) in different colours.
    case colours = "one layout in colours"
    /// Near-black frames of different scenes (a lens cap, a dark room), with sensor noise.
    case darkFrames = "dark frames"

    /// The `index`-th picture of the set (from 0), as RGB bytes of `width` × `height` pixels.
    public func pixels(_ index: Int, width: Int, height: Int) -> [UInt8] {
        switch self {
        case .textPages: PhotoFixtures.textPagePixels(width: width, height: height, seed: UInt64(index + 1))
        case .colours: PhotoFixtures.scenePixels(width: width, height: height, hue: Double(index * 360 / 12 % 360), orientation: nil)
        case .darkFrames: PhotoFixtures.darkFramePixels(width: width, height: height, seed: UInt64(index + 1))
        }
    }
}

extension PhotoFixtures {
    /// A scanned-looking page: off-white paper with grain and a block of text at the top left,
    /// lines of words of made-up glyphs wrapped at about two fifths of the width, paragraphs
    /// between; the rest of the page is blank. The text, and so its line lengths and the number
    /// of lines, depends on `seed`.
    public static func textPagePixels(width: Int, height: Int, seed: UInt64) -> [UInt8] {
        var random = SplitMix64(seed: seed &* 0x9E37_79B9)
        var ink = [Bool](repeating: false, count: width * height)
        let glyphWidth = max(3, width / 90), lineHeight = max(6, height / 40)
        let left = width / 12, top = height / 12, right = left + width * 2 / 5
        let lines = Int.random(in: 5...9, using: &random)
        var x = left, line = 0
        while line < lines {
            let letters = Int.random(in: 2...9, using: &random)
            if x + letters * glyphWidth > right || Int.random(in: 0..<40, using: &random) == 0 {
                line += Int.random(in: 0..<6, using: &random) == 0 ? 2 : 1  // a wrap, or a new paragraph
                x = left
                continue
            }
            for _ in 0..<letters {
                let glyph = Self.glyphs[Int.random(in: 0..<Self.glyphs.count, using: &random)]
                // The glyph's 5×7 cells scaled onto its box (a gap column and row left blank).
                for gy in 0..<(lineHeight * 2 / 3) {
                    for gx in 0..<(glyphWidth - 1) {
                        let cell = (gy * 7 / (lineHeight * 2 / 3)) * 5 + gx * 5 / (glyphWidth - 1)
                        let px = x + gx, py = top + line * lineHeight + gy
                        if glyph & (1 << UInt64(cell)) != 0, px < width, py < height { ink[py * width + px] = true }
                    }
                }
                x += glyphWidth
            }
            x += glyphWidth  // the space
        }
        var grain = SplitMix64(seed: seed &+ 7)
        var out = [UInt8](repeating: 0, count: width * height * 3)
        for i in 0..<width * height {
            let paper = ink[i] ? 40 : 238
            let noise = Int.random(in: -4...4, using: &grain)
            out[3 * i] = UInt8(clamping: paper + noise + 2)
            out[3 * i + 1] = UInt8(clamping: paper + noise)
            out[3 * i + 2] = UInt8(clamping: paper + noise - 6)
        }
        return out
    }

    /// A near-black frame: the lens's vignetting (a centre a few levels brighter than the
    /// corners), sensor noise, and a seeded scene of blobs (as `blobPixels`) at a fortieth of its
    /// brightness, the only thing that tells two frames apart.
    public static func darkFramePixels(width: Int, height: Int, seed: UInt64) -> [UInt8] {
        var noise = SplitMix64(seed: seed &+ 13)
        let scene = blobPixels(width: width, height: height, seed: seed &+ 500)
        return scene.indices.map { i in
            let x = Double(i / 3 % width) / Double(width) - 0.5, y = Double(i / 3 / width) / Double(height) - 0.5
            let vignetting = 10 * (1 - 2 * (x * x + y * y))
            return UInt8(clamping: Int(vignetting) + Int(scene[i]) / 40 + Int.random(in: 0...3, using: &noise))
        }
    }

    /// 5×7 glyphs (bit `row × 5 + column`), made once from a fixed seed: text that is not any
    /// script but reads as print at a glance.
    private static let glyphs: [UInt64] = {
        var random = SplitMix64(seed: 26)
        return (0..<26).map { _ in
            var glyph: UInt64 = 0
            for bit in 0..<35 where Int.random(in: 0..<5, using: &random) < 2 { glyph |= 1 << UInt64(bit) }
            return glyph | 0b11111 << 30  // a baseline stroke
        }
    }()
}
