import SeededRandom

extension PhotoFixtures {
    /// An RGB picture (row by row, 3 bytes a pixel) of soft random blobs on a gradient: every seed
    /// a different picture, for the duplicate finder's tests. `shift` moves the view right by
    /// that many pixels, `noise` adds grain of at most that many levels.
    public static func blobPixels(width: Int, height: Int, seed: UInt64, shift: Int = 0, noise: Int = 0) -> [UInt8] {
        var random = SplitMix64(seed: seed)
        let blobs = (0..<12).map { _ in
            (x: Double.random(in: 0...Double(width), using: &random), y: Double.random(in: 0...Double(height), using: &random),
             r: Double.random(in: Double(width) / 12...Double(width) / 4, using: &random),
             colour: (0..<3).map { _ in Double.random(in: -120...120, using: &random) })
        }
        let base = (0..<3).map { _ in Double.random(in: 60...190, using: &random) }
        var grain = SplitMix64(seed: seed &+ 99)
        var out = [UInt8](repeating: 0, count: width * height * 3)
        for y in 0..<height {
            for x in 0..<width {
                let fx = Double(x + shift), fy = Double(y)
                for c in 0..<3 {
                    var value = base[c] + (fx / Double(width) - 0.5) * 40
                    for blob in blobs {
                        let d = ((fx - blob.x) * (fx - blob.x) + (fy - blob.y) * (fy - blob.y)) / (blob.r * blob.r)
                        if d < 1 { value += blob.colour[c] * (1 - d) }
                    }
                    if noise > 0 { value += Double(Int.random(in: -noise...noise, using: &grain)) }
                    out[(y * width + x) * 3 + c] = UInt8(max(0, min(255, value.rounded())))
                }
            }
        }
        return out
    }
}
