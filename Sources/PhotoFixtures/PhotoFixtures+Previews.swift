extension PhotoFixtures {
    /// A raw-like TIFF (little-endian, sniffed as a Nikon NEF): IFD0 with `orientation` and two
    /// SubIFDs, the first holding `rawWidth` × `rawHeight` CFA sensor data (its pixels are not in
    /// the file), the second a grey JPEG preview of `preview` size; IFD1 holds a grey JPEG
    /// thumbnail of `thumbnail` size. Both JPEGs are found by JPEGInterchangeFormat(Length).
    public static func rawWithPreview(
        rawWidth: Int = 6000, rawHeight: Int = 4000, preview: (width: Int, height: Int),
        thumbnail: (width: Int, height: Int), orientation: Int = 1
    ) -> [UInt8] {
        let previewJPEG = jpeg(width: preview.width, height: preview.height)
        let thumbnailJPEG = jpeg(width: thumbnail.width, height: thumbnail.height)
        // Layout: header, IFD0, the SubIFD offset array, the make, SubIFD A, SubIFD B, IFD1, JPEGs.
        func directorySize(_ entries: Int) -> Int { 2 + entries * 12 + 4 }
        let make = Array("NIKON CORPORATION".utf8) + [0]
        let ifd0 = 8
        let subArray = ifd0 + directorySize(4)
        let makeAt = subArray + 8
        let subA = makeAt + make.count + make.count % 2
        let subB = subA + directorySize(5)
        let ifd1 = subB + directorySize(4)
        let previewAt = ifd1 + directorySize(3)
        let thumbnailAt = previewAt + previewJPEG.count + previewJPEG.count % 2

        var out: [UInt8] = [0x49, 0x49, 0x2A, 0x00] + le32(ifd0)
        out += directory([
            entry(0x00FE, 4, 1, 1), entry(0x010F, 2, make.count, makeAt), entry(0x0112, 3, 1, orientation),
            entry(0x014A, 4, 2, subArray),
        ], next: ifd1)
        out += le32(subA) + le32(subB)
        out += make + (make.count % 2 == 1 ? [0] : [])
        out += directory([
            entry(0x00FE, 4, 1, 0), entry(0x0100, 4, 1, rawWidth), entry(0x0101, 4, 1, rawHeight),
            entry(0x0103, 3, 1, 1), entry(0x0106, 3, 1, 32803),
        ], next: 0)
        out += directory([
            entry(0x00FE, 4, 1, 1), entry(0x0103, 3, 1, 6),
            entry(0x0201, 4, 1, previewAt), entry(0x0202, 4, 1, previewJPEG.count),
        ], next: 0)
        out += directory([
            entry(0x0103, 3, 1, 6), entry(0x0201, 4, 1, thumbnailAt), entry(0x0202, 4, 1, thumbnailJPEG.count),
        ], next: 0)
        out += previewJPEG + (previewJPEG.count % 2 == 1 ? [0] : [])
        out += thumbnailJPEG
        return out
    }

    /// A DNG (little-endian) with no embedded JPEG at all: IFD0 holds `orientation` and an
    /// uncompressed 8-bit RGB image of `width` × `height` (a horizontal red-to-black ramp), the
    /// only picture in the file, as in ExifTool's `DNG.dng`.
    public static func dngWithoutPreview(width: Int, height: Int, orientation: Int = 1) -> [UInt8] {
        var pixels: [UInt8] = []
        pixels.reserveCapacity(width * height * 3)
        for _ in 0..<height {
            for x in 0..<width { pixels += [UInt8(255 - 255 * x / max(1, width - 1)), 0, 0] }
        }
        let image: [TIFFEntry] = [
            .long(0x00FE, [0]), .long(0x0100, [width]), .long(0x0101, [height]), .short(0x0102, [8, 8, 8]),
            .short(0x0103, [1]), .short(0x0106, [2]), .long(0x0111, [0]), .short(0x0112, [orientation]),
            .short(0x0115, [3]), .long(0x0116, [height]), .long(0x0117, [pixels.count]), .short(0x011C, [1]),
            .bytes(0xC612, [1, 4, 0, 0]),
        ]
        return TIFFLayout.build([(image, strip: pixels)])
    }

    /// A little-endian TIFF directory entry whose value (a SHORT alone, else a LONG or offset)
    /// sits in its last four bytes.
    private static func entry(_ tag: Int, _ type: Int, _ count: Int, _ value: Int) -> [UInt8] {
        le16(tag) + le16(type) + le32(count) + (type == 3 && count == 1 ? le16(value) + [0, 0] : le32(value))
    }

    /// A little-endian TIFF directory of `entries` (sorted by tag) pointing at `next`.
    private static func directory(_ entries: [[UInt8]], next: Int) -> [UInt8] {
        le16(entries.count) + entries.flatMap { $0 } + le32(next)
    }

    /// A JPEG with no picture of its own (its start-of-image marker, an APP1 Exif segment, its
    /// end-of-image marker) whose IFD1 holds a grey JPEG thumbnail of `thumbnail` size and IFD0
    /// `orientation`, the way libexif's test files are cut, but with a thumbnail that decodes.
    public static func exifThumbnailOnly(thumbnail: (width: Int, height: Int), orientation: Int = 1) -> [UInt8] {
        insertingExifThumbnail(jpeg(width: thumbnail.width, height: thumbnail.height), orientation: orientation, into: [0xFF, 0xD8, 0xFF, 0xD9])
    }

    /// A grey baseline JPEG of `width` × `height` whose APP1 Exif holds `orientation` in IFD0
    /// and, in IFD1, a grey JPEG thumbnail of `thumbnail` size (as cameras and phones store it).
    public static func jpegWithThumbnail(width: Int, height: Int, thumbnail: (width: Int, height: Int), orientation: Int = 1) -> [UInt8] {
        insertingExifThumbnail(jpeg(width: thumbnail.width, height: thumbnail.height), orientation: orientation, into: jpeg(width: width, height: height))
    }

    /// `photo` (a JPEG without an APP1 Exif segment) with one added after its SOI: IFD0 holds
    /// `orientation`, IFD1 the JPEG `thumbnail`.
    public static func insertingExifThumbnail(_ thumbnail: [UInt8], orientation: Int, into photo: [UInt8]) -> [UInt8] {
        func entry(_ tag: Int, _ type: Int, _ value: Int) -> [UInt8] {
            be16(tag) + be16(type) + be32(1) + (type == 3 ? be16(value) + [0, 0] : be32(value))
        }
        // Big-endian TIFF: header, IFD0 (orientation), IFD1 (compression, offset, length), thumbnail.
        let ifd1 = 8 + 2 + 12 + 4
        let thumbnailAt = ifd1 + 2 + 3 * 12 + 4
        var tiff: [UInt8] = [0x4D, 0x4D, 0x00, 0x2A] + be32(8)
        tiff += be16(1) + entry(0x0112, 3, orientation) + be32(ifd1)
        tiff += be16(3) + entry(0x0103, 3, 6) + entry(0x0201, 4, thumbnailAt) + entry(0x0202, 4, thumbnail.count) + be32(0)
        tiff += thumbnail
        return [0xFF, 0xD8] + segment(0xE1, Array("Exif".utf8) + [0, 0] + tiff) + photo.dropFirst(2)
    }

    /// A grey JPEG with a restart marker after every 8×8 block, each numbered 0 (they should count
    /// 0–7): libjpeg warns at each and resynchronises, and the picture is whole, as a browser
    /// shows it; libvips gives up after its 100th warning. `corrupted.jpg` in the corpus fails so.
    public static func jpegWithMisnumberedRestarts(width: Int, height: Int) -> [UInt8] {
        var bytes: [UInt8] = [0xFF, 0xD8]
        bytes += segment(0xDB, [0x00] + [UInt8](repeating: 1, count: 64))
        bytes += segment(0xC0, [8] + be16(height) + be16(width) + [1, 1, 0x11, 0])
        bytes += segment(0xC4, [0x00, 1] + [UInt8](repeating: 0, count: 15) + [0x00]
                               + [0x10, 1] + [UInt8](repeating: 0, count: 15) + [0x00])
        bytes += segment(0xDD, be16(1))
        bytes += segment(0xDA, [1, 1, 0x00, 0, 63, 0])
        let blocks = ((width + 7) / 8) * ((height + 7) / 8)
        for index in 0..<blocks {
            // Two zero bits (DC 0, end of block), padded with ones.
            bytes.append(0x3F)
            if index < blocks - 1 { bytes += [0xFF, 0xD0] }
        }
        bytes += [0xFF, 0xD9]
        return bytes
    }
}
