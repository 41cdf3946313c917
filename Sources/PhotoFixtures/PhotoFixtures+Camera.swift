import SeededRandom

extension PhotoFixtures {
    /// The part of a camera JPEG after its metadata: quantisation, frame, Huffman tables, one
    /// grey baseline scan of `width` × `height` with `coefficients` AC values in every 8×8 block
    /// (random, 4 bits each), and the end marker. About `width × height × (6 × coefficients + 2) / 512`
    /// bytes: 4000 × 3000 with 20 coefficients is some 3 MB, a camera file's size. It decodes
    /// (to noise); made once and shared by many files, since making it costs a bit per bit.
    public static func cameraPicture(width: Int, height: Int, coefficients: Int = 20, seed: UInt64 = 1) -> [UInt8] {
        precondition((0...63).contains(coefficients))
        var bytes = segment(0xDB, [0x00] + [UInt8](repeating: 1, count: 64))
        bytes += segment(0xC0, [8] + be16(height) + be16(width) + [1, 1, 0x11, 0])
        // DC: one code of length 1, category 0. AC: end-of-block `0`, (run 0, size 4) `10`.
        bytes += segment(0xC4, [0x00, 1] + [UInt8](repeating: 0, count: 15) + [0x00]
                               + [0x10, 1, 1] + [UInt8](repeating: 0, count: 14) + [0x00, 0x04])
        bytes += segment(0xDA, [1, 1, 0x00, 0, 63, 0])
        var random = SplitMix64(seed: seed)
        var writer = JPEGBitWriter()
        for _ in 0..<(((width + 7) / 8) * ((height + 7) / 8)) {
            writer.write(0, bits: 1)
            for _ in 0..<coefficients {
                // Size 4: magnitudes 8…15 or −15…−8 (the top bit says which).
                writer.write(0b10, bits: 2)
                writer.write(Int(random.next() & 0xF), bits: 4)
            }
            if coefficients < 63 { writer.write(0, bits: 1) }
        }
        bytes += writer.finish()
        return bytes + [0xFF, 0xD9]
    }

    /// A JPEG laid out as a camera writes one: SOI, an APP1 Exif segment with `exif` (a maker
    /// note, pixel dimensions and an IFD1 thumbnail when `exif` has them), then `picture` (from
    /// `cameraPicture`, whose frame gives the size).
    public static func cameraJPEG(exif: ExifFields, picture: [UInt8]) -> [UInt8] {
        [0xFF, 0xD8] + segment(0xE1, Array("Exif".utf8) + [0, 0] + exifTIFF(exif)) + picture
    }
}
