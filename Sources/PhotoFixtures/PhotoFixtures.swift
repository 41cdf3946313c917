/// Builders of small, valid image files, made by the project itself for its tests and benchmarks.
///
/// Every builder returns the whole file. JPEG, PNG, TIFF and WebP files decode to a uniform
/// mid-grey image (`scene` draws a colour one, for the demo library); the HEIF file has a valid
/// structure but no coded image data (`codedHEIF` wraps an encoder's pictures).
public enum PhotoFixtures {
    /// A baseline JPEG of the given pixel size with an APP1 Exif segment holding `exif`, and an
    /// APP1 XMP packet holding `xmp` (the text as given) after it.
    ///
    /// Grey, one 8×8 DC-only block per MCU with minimal Huffman tables: 2 bits per block, so a
    /// 4000×3000 image takes about 47 KB.
    public static func jpeg(width: Int, height: Int, exif: ExifFields = ExifFields(), xmp: String? = nil) -> [UInt8] {
        var bytes: [UInt8] = [0xFF, 0xD8]
        let tiff = exifTIFF(exif)
        if !tiff.isEmpty {
            bytes += segment(0xE1, Array("Exif".utf8) + [0, 0] + tiff)
        }
        if let xmp {
            bytes += segment(0xE1, Array("http://ns.adobe.com/xap/1.0/".utf8) + [0] + Array(xmp.utf8))
        }
        bytes += segment(0xDB, [0x00] + [UInt8](repeating: 1, count: 64))
        bytes += segment(0xC0, [8] + be16(height) + be16(width) + [1, 1, 0x11, 0])
        // One code of length 1 each: DC category 0, AC end-of-block.
        bytes += segment(0xC4, [0x00, 1] + [UInt8](repeating: 0, count: 15) + [0x00]
                               + [0x10, 1] + [UInt8](repeating: 0, count: 15) + [0x00])
        bytes += segment(0xDA, [1, 1, 0x00, 0, 63, 0])
        let blocks = ((width + 7) / 8) * ((height + 7) / 8)
        let bits = 2 * blocks
        bytes += [UInt8](repeating: 0, count: bits / 8)
        if bits % 8 != 0 { bytes.append(UInt8(0xFF >> (bits % 8))) }
        bytes += [0xFF, 0xD9]
        return bytes
    }

    /// `jpeg` (one scan, as `jpeg(width:height:)` writes) with its frame header's height set to 0
    /// and the height given instead in a DNL (define number of lines) segment after the scan, as
    /// some scanners write them.
    public static func withHeightInDNL(_ jpeg: [UInt8]) -> [UInt8] {
        var bytes = jpeg
        var index = 2
        while index + 8 < bytes.count, bytes[index] == 0xFF, bytes[index + 1] != 0xDA {
            let marker = bytes[index + 1]
            if (0xC0...0xCF).contains(marker) && ![0xC4, 0xC8, 0xCC].contains(marker) {
                let height = Array(bytes[(index + 5)...(index + 6)])
                bytes[index + 5] = 0
                bytes[index + 6] = 0
                // The scan runs to the end-of-image marker; the DNL goes just before it.
                bytes.insert(contentsOf: [0xFF, 0xDC, 0x00, 0x04] + height, at: bytes.count - 2)
                return bytes
            }
            index += 2 + (Int(bytes[index + 2]) << 8 | Int(bytes[index + 3]))
        }
        return bytes
    }

    /// Where a PNG keeps its EXIF.
    public enum PNGExifStyle: Sendable, CaseIterable {
        /// An `eXIf` chunk before the image data, as the PNG specification asks.
        case exifChunk
        /// An `eXIf` chunk after the image data, as libpng may write it.
        case exifChunkAfterImageData
        /// A `tEXt` chunk "Raw profile type exif" holding hex digits (older ImageMagick).
        case rawProfile
        /// The same profile compressed in a `zTXt` chunk after the image data (GIMP).
        case compressedRawProfile
    }

    /// A greyscale PNG holding `exif` in the given style, or an RGB one of `scene` (a hue, as
    /// `scene(width:height:hue:)` draws it). The image data is split into IDAT chunks of 8 KiB,
    /// as libpng does.
    public static func png(
        width: Int, height: Int, exif: ExifFields = ExifFields(), exifStyle: PNGExifStyle = .exifChunk, scene hue: Double? = nil
    ) -> [UInt8] {
        var bytes: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        bytes += pngChunk("IHDR", be32(width) + be32(height) + [8, hue == nil ? 0 : 2, 0, 0, 0])
        let tiff = exifTIFF(exif)
        let profileText = Array("Raw profile type exif".utf8) + [0]
        let markedExif = Array("Exif".utf8) + [0, 0] + tiff
        var before: [UInt8] = [], after: [UInt8] = []
        if !tiff.isEmpty {
            switch exifStyle {
            case .exifChunk: before = pngChunk("eXIf", tiff)
            case .exifChunkAfterImageData: after = pngChunk("eXIf", tiff)
            case .rawProfile: before = pngChunk("tEXt", profileText + rawProfile(markedExif))
            case .compressedRawProfile: after = pngChunk("zTXt", profileText + [0] + zlibStored(rawProfile(markedExif)))
            }
        }
        bytes += before
        var rows: [UInt8] = []
        if let hue {
            let pixels = scenePixels(width: width, height: height, hue: hue, orientation: exif.orientation)
            for row in 0..<max(height, 0) { rows += [0] + pixels[(row * width * 3)..<((row + 1) * width * 3)] }
        } else {
            rows.reserveCapacity((width + 1) * height)
            for _ in 0..<max(height, 0) { rows += [0] + [UInt8](repeating: 128, count: max(width, 0)) }
        }
        let imageData = zlibStored(rows)
        for start in stride(from: 0, to: imageData.count, by: 8192) {
            bytes += pngChunk("IDAT", Array(imageData[start..<min(start + 8192, imageData.count)]))
        }
        bytes += after
        bytes += pngChunk("IEND", [])
        return bytes
    }

    /// ImageMagick's raw profile text: a name line, the byte count in 8 columns, then the bytes
    /// in hex, 36 to a line.
    static func rawProfile(_ profile: [UInt8]) -> [UInt8] {
        let count = String(profile.count)
        var text = "\nexif\n" + String(repeating: " ", count: max(0, 8 - count.count)) + count + "\n"
        let digits = Array("0123456789abcdef")
        for (index, byte) in profile.enumerated() {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
            if index % 36 == 35 { text += "\n" }
        }
        return Array((text + "\n").utf8)
    }

    /// An uncompressed 8-bit greyscale TIFF whose IFD0 also holds `exif` (with an Exif IFD), or
    /// an RGB one of `scene` (a hue, as `scene(width:height:hue:)` draws it).
    public static func tiff(width: Int, height: Int, exif: ExifFields = ExifFields(), bigEndian: Bool = false, scene hue: Double? = nil) -> [UInt8] {
        var builder = TIFFBuilder(exif: exif, bigEndian: bigEndian)
        let pixels = hue.map { scenePixels(width: width, height: height, hue: $0, orientation: exif.orientation) }
            ?? [UInt8](repeating: 128, count: max(width, 0) * max(height, 0))
        let samples = hue == nil ? 1 : 3
        builder.ifd0 += [
            (0x0100, .long(width)), (0x0101, .long(height)), (0x0102, samples == 1 ? .short(8) : .shorts([8, 8, 8])),
            (0x0103, .short(1)), (0x0106, .short(samples == 1 ? 1 : 2)), (0x0111, .dataOffset), (0x0115, .short(samples)),
            (0x0116, .long(height)), (0x0117, .long(pixels.count)),
        ]
        return builder.build(leadingData: pixels)
    }

    /// A lossless grey WebP, or one of a single colour: `scene`'s sky (a hue, as
    /// `scene(width:height:hue:)` draws it). With EXIF it is an extended file (`VP8X`, `VP8L`,
    /// `EXIF`); `exifMarker` puts `Exif\0\0` before the TIFF header, as some writers do.
    public static func webp(width: Int, height: Int, exif: ExifFields = ExifFields(), exifMarker: Bool = false, scene hue: Double? = nil) -> [UInt8] {
        let bitstream = vp8lUniform(width: width, height: height, colour: hue.map(skyColour) ?? (128, 128, 128))
        var chunks: [UInt8] = []
        let tiff = exifTIFF(exif)
        if !tiff.isEmpty {
            chunks += riffChunk("VP8X", [0x08, 0, 0, 0] + le24(width - 1) + le24(height - 1))
        }
        chunks += riffChunk("VP8L", bitstream)
        if !tiff.isEmpty {
            chunks += riffChunk("EXIF", (exifMarker ? Array("Exif".utf8) + [0, 0] : []) + tiff)
        }
        return Array("RIFF".utf8) + le32(chunks.count + 4) + Array("WEBP".utf8) + chunks
    }

    /// The EXIF TIFF structure for `exif` (no `Exif\0\0` marker), or empty when no field is set.
    public static func exifTIFF(_ exif: ExifFields, bigEndian: Bool = false) -> [UInt8] {
        let builder = TIFFBuilder(exif: exif, bigEndian: bigEndian)
        return builder.isEmpty ? [] : builder.build()
    }

    // MARK: - Pieces

    static func segment(_ marker: UInt8, _ payload: [UInt8]) -> [UInt8] {
        [0xFF, marker] + be16(payload.count + 2) + payload
    }

    static func pngChunk(_ type: StaticString, _ data: [UInt8]) -> [UInt8] {
        let typeBytes = fourCC(type)
        return be32(data.count) + typeBytes + data + be32(Int(CRC32.checksum(typeBytes + data)))
    }

    static func riffChunk(_ type: StaticString, _ data: [UInt8]) -> [UInt8] {
        fourCC(type) + le32(data.count) + data + (data.count % 2 == 1 ? [0] : [])
    }

    /// A zlib stream of stored (uncompressed) deflate blocks.
    static func zlibStored(_ data: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [0x78, 0x01]
        var start = 0
        repeat {
            let end = min(start + 65_535, data.count)
            let final: UInt8 = end == data.count ? 1 : 0
            let length = end - start
            out += [final] + le16(length) + le16(length ^ 0xFFFF) + data[start..<end]
            start = end
        } while start < data.count
        var a: UInt32 = 1, b: UInt32 = 0
        for byte in data {
            a = (a + UInt32(byte)) % 65_521
            b = (b + a) % 65_521
        }
        return out + be32(Int(b << 16 | a))
    }

    /// A VP8L bitstream of a uniform image of `colour` (red, green, blue): every prefix code has
    /// a single symbol, so the pixels take no bits at all.
    static func vp8lUniform(width: Int, height: Int, colour: (UInt8, UInt8, UInt8)) -> [UInt8] {
        var writer = BitWriter()
        writer.write(0x2F, bits: 8)
        writer.write(UInt32(max(width - 1, 0) & 0x3FFF), bits: 14)
        writer.write(UInt32(max(height - 1, 0) & 0x3FFF), bits: 14)
        writer.write(0, bits: 1)  // alpha unused
        writer.write(0, bits: 3)  // version
        writer.write(0, bits: 1)  // no transform
        writer.write(0, bits: 1)  // no colour cache
        writer.write(0, bits: 1)  // no meta prefix codes
        for symbol in [UInt32(colour.1), UInt32(colour.0), UInt32(colour.2), 255] {  // green, red, blue, alpha
            writer.write(1, bits: 1)  // simple code
            writer.write(0, bits: 1)  // one symbol
            writer.write(1, bits: 1)  // 8-bit symbol
            writer.write(symbol, bits: 8)
        }
        writer.write(1, bits: 1)  // distance: simple code,
        writer.write(0, bits: 1)  // one symbol,
        writer.write(0, bits: 1)  // 1-bit symbol
        writer.write(0, bits: 1)  // 0
        return writer.bytes
    }

    static func fourCC(_ text: StaticString) -> [UInt8] { text.withUTF8Buffer { Array($0) } }
    static func be16(_ v: Int) -> [UInt8] { [UInt8((v >> 8) & 0xFF), UInt8(v & 0xFF)] }
    static func be32(_ v: Int) -> [UInt8] { [UInt8((v >> 24) & 0xFF), UInt8((v >> 16) & 0xFF), UInt8((v >> 8) & 0xFF), UInt8(v & 0xFF)] }
    static func le16(_ v: Int) -> [UInt8] { [UInt8(v & 0xFF), UInt8((v >> 8) & 0xFF)] }
    static func le24(_ v: Int) -> [UInt8] { [UInt8(v & 0xFF), UInt8((v >> 8) & 0xFF), UInt8((v >> 16) & 0xFF)] }
    static func le32(_ v: Int) -> [UInt8] { le16(v) + le16(v >> 16) }
}
