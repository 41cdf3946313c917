import Duplicates
import SeededRandom
import Testing

@Suite("Picture fingerprints")
struct PictureFingerprintTests {
    /// A 32×32 grey scene: a gradient with a bright disc, shifted by `dx` pixels, plus noise.
    static func scene(dx: Double = 0, noise: Int = 0, seed: UInt64 = 1, invert: Bool = false) -> [UInt8] {
        var random = SplitMix64(seed: seed)
        return (0..<32 * 32).map { i in
            let x = Double(i % 32) + dx, y = Double(i / 32)
            var value = 40 + x * 3 + y * 2
            if (x - 12) * (x - 12) + (y - 18) * (y - 18) < 40 { value += 90 }
            if noise > 0 { value += Double(Int.random(in: -noise...noise, using: &random)) }
            let clamped = UInt8(max(0, min(255, value)))
            return invert ? 255 - clamped : clamped
        }
    }

    @Test("needs exactly 32×32 grey pixels")
    func size() {
        #expect(PictureFingerprint(grey: [UInt8](repeating: 0, count: 100)) == nil)
        #expect(PictureFingerprint(grey: Self.scene()) != nil)
    }

    @Test("the same pixels give the same fingerprint; one changed pixel level changes only the pixel hash's input")
    func samePixels() throws {
        let a = try #require(PictureFingerprint(grey: Self.scene()))
        let b = try #require(PictureFingerprint(grey: Self.scene()))
        #expect(a == b)
        var changed = Self.scene()
        changed[100] &+= 9
        let c = try #require(PictureFingerprint(grey: changed))
        #expect(c.pixels != a.pixels)
        #expect(PictureFingerprint.distance(a.pHash, c.pHash) <= 2)
    }

    @Test("noise and a one-pixel shift stay within the default thresholds; an inverted picture does not")
    func nearAndFar() throws {
        let thresholds = DuplicateThresholds.default
        let a = try #require(PictureFingerprint(grey: Self.scene()))
        let noisy = try #require(PictureFingerprint(grey: Self.scene(noise: 4, seed: 9)))
        let shifted = try #require(PictureFingerprint(grey: Self.scene(dx: 1)))
        let inverted = try #require(PictureFingerprint(grey: Self.scene(invert: true)))
        #expect(thresholds.areSimilar(a, noisy))
        #expect(thresholds.areSimilar(a, shifted))
        #expect(!thresholds.areSimilar(a, inverted))
    }
}
