extension PhotoFixtures {
    /// The sample levels of `cfaDNG`'s sensor data: black, white, and the lit and unlit sites
    /// of its two halves (well inside the range, so no channel clips).
    public enum CFALevels {
        public static let black = 256
        public static let white = 4095
        public static let lit = 2800
        public static let unlit = 400
    }

    /// A minimal camera raw that only a raw decoder shows properly: a DNG 1.4 (little-endian)
    /// whose sensor data is `width` × `height` 16-bit uncompressed Bayer samples (RGGB), the left
    /// half lit only at red sites and the right half only at blue sites, so a demosaiced picture
    /// is red on the left and blue on the right.
    ///
    /// Its colour tags make the camera's RGB the linear sRGB primaries (ColorMatrix1 is XYZ→sRGB
    /// under D65, AsShotNeutral 1 1 1), so the picture's colours survive any decoder's colour
    /// conversion. With a `preview`, IFD0 holds a grey JPEG of that size (for readers that show
    /// previews) and the sensor data sits in its SubIFD; without one, IFD0 is the sensor data.
    /// - Parameters:
    ///   - orientation: the EXIF orientation of IFD0 (1–8).
    ///   - dateTime: IFD0's DateTime (`YYYY:MM:DD HH:MM:SS`), when given.
    public static func cfaDNG(
        width: Int, height: Int, orientation: Int = 1, preview: (width: Int, height: Int)? = nil, dateTime: String? = nil
    ) -> [UInt8] {
        let width = max(2, width & ~1), height = max(2, height & ~1)
        var samples: [UInt8] = []
        samples.reserveCapacity(width * height * 2)
        for y in 0..<height {
            for x in 0..<width {
                // RGGB: red at even row and column, blue at odd row and column, green elsewhere.
                let red = y % 2 == 0 && x % 2 == 0, blue = y % 2 == 1 && x % 2 == 1
                let lit = x < width / 2 ? red : blue
                samples += le16(lit ? CFALevels.lit : CFALevels.unlit)
            }
        }
        let sensor: [TIFFEntry] = [
            .long(0x00FE, [0]), .long(0x0100, [width]), .long(0x0101, [height]), .short(0x0102, [16]),
            .short(0x0103, [1]), .short(0x0106, [32803]), .long(0x0111, [0]), .short(0x0115, [1]),
            .long(0x0116, [height]), .long(0x0117, [samples.count]), .short(0x011C, [1]),
            .short(0x828D, [2, 2]), .bytes(0x828E, [0, 1, 1, 2]),
            .long(0xC61A, [CFALevels.black]), .long(0xC61D, [CFALevels.white]),
        ]
        let identity: [TIFFEntry] = [
            .ascii(0x010F, "Shoebox"), .ascii(0x0110, "CFA fixture"), .short(0x0112, [orientation]),
        ] + (dateTime.map { [TIFFEntry.ascii(0x0132, $0)] } ?? []) + [
            .bytes(0xC612, [1, 4, 0, 0]), .bytes(0xC613, [1, 1, 0, 0]), .ascii(0xC614, "Shoebox CFA fixture"),
            // XYZ (D65) to linear sRGB, ten-thousandths.
            .signedRationals(0xC621, [32406, -15372, -4986, -9689, 18758, 415, 557, -2040, 10570], denominator: 10000),
            .rationals(0xC628, [1, 1, 1], denominator: 1), .short(0xC65A, [21]),
        ]
        guard let preview else {
            return TIFFLayout.build([(sensor + identity, strip: samples)])
        }
        let jpeg = jpeg(width: preview.width, height: preview.height)
        let previewDirectory: [TIFFEntry] = [
            .long(0x00FE, [1]), .long(0x0100, [preview.width]), .long(0x0101, [preview.height]), .short(0x0102, [8, 8, 8]),
            .short(0x0103, [7]), .short(0x0106, [6]), .long(0x0111, [0]), .short(0x0115, [3]),
            .long(0x0116, [preview.height]), .long(0x0117, [jpeg.count]), .short(0x011C, [1]), .subIFD(0x014A),
        ]
        return TIFFLayout.build([(previewDirectory + identity, strip: jpeg), (sensor, strip: samples)])
    }
}
