/// A size in pixels. Values are 64-bit: some TIFF headers claim sizes above `UInt32.max / 2`.
public struct PixelSize: Sendable, Hashable, Codable {
    public var width: Int
    public var height: Int

    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    /// Width × height, or `Int64.max` when the product does not fit (a header's sides are
    /// untrusted: two 32-bit sides can overflow 64 bits), so a comparison with a limit refuses it.
    public var pixels: Int64 { Self.pixels(width: width, height: height) }

    /// `width` × `height` without trapping: `Int64.max` when the product does not fit.
    public static func pixels(width: Int, height: Int) -> Int64 {
        let (product, overflow) = Int64(width).multipliedReportingOverflow(by: Int64(height))
        return overflow ? .max : product
    }

    /// The same size with width and height exchanged.
    public var transposed: PixelSize { PixelSize(width: height, height: width) }
}
