extension PhotoFixtures {
    /// How an Adobe APP14 segment says a four-component JPEG's samples are coded.
    public enum AdobeTransform: UInt8, Sendable, CaseIterable {
        /// The samples are C, M, Y and K themselves.
        case cmyk = 0
        /// C, M and Y turned into R, G and B and coded in YCbCr, then K.
        case ycck = 2
    }

    /// A baseline four-component JPEG with an Adobe APP14 segment, every pixel holding `samples`
    /// as stored: Adobe writes CMYK inverted, so 255 is no ink and 0 full ink (for `.ycck`, the
    /// first three are Y, Cb and Cr of R, G, B = 255 − the stored C, M, Y: of the ink itself).
    ///
    /// DC-only: each component's first block carries the value, every later block repeats it.
    public static func adobeJPEG(width: Int, height: Int, samples: [UInt8], transform: AdobeTransform) -> [UInt8] {
        precondition(samples.count == 4, "four samples: C, M, Y, K (or Y, Cb, Cr, K)")
        var bytes: [UInt8] = [0xFF, 0xD8]
        bytes += segment(0xEE, Array("Adobe".utf8) + be16(100) + be16(0) + be16(0) + [transform.rawValue])
        // DC quantised by 8, so a coefficient step is one sample step.
        bytes += segment(0xDB, [0x00, 8] + [UInt8](repeating: 1, count: 63))
        bytes += segment(0xC0, [8] + be16(height) + be16(width) + [4] + (1...4).flatMap { [UInt8($0), 0x11, 0] })
        // DC: categories 0–11, each a 4-bit code equal to the category. AC: end-of-block, 1 bit.
        bytes += segment(0xC4, [0x00, 0, 0, 0, 12] + [UInt8](repeating: 0, count: 12) + Array(0...11)
                               + [0x10, 1] + [UInt8](repeating: 0, count: 15) + [0x00])
        bytes += segment(0xDA, [4] + (1...4).flatMap { [UInt8($0), 0x00] } + [0, 63, 0])
        var bits = JPEGBitWriter()
        let blocks = ((width + 7) / 8) * ((height + 7) / 8)
        for block in 0..<blocks {
            for sample in samples {
                let difference = block == 0 ? Int(sample) - 128 : 0
                bits.write(JPEGBitWriter.category(of: difference), bits: 4)
                bits.writeMagnitude(difference)
                bits.write(0, bits: 1)  // end of block
            }
        }
        bytes += bits.finish() + [0xFF, 0xD9]
        return bytes
    }
}
