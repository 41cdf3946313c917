/// A size in pixels. Values are 64-bit: some TIFF headers claim sizes above `UInt32.max / 2`.
public struct PixelSize: Sendable, Hashable, Codable {
    public var width: Int
    public var height: Int

    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    /// The same size with width and height exchanged.
    public var transposed: PixelSize { PixelSize(width: height, height: width) }
}
