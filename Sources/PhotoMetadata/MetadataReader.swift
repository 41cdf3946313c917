/// Reads the metadata of one image file, touching only the bytes it needs.
///
/// Stub: replaced by the real readers.
public struct MetadataReader: Sendable {
    public init() {}

    /// Reads an open file. The descriptor is neither moved nor closed.
    public func read(fileDescriptor: Int32) throws(MetadataError) -> PhotoMetadata {
        throw MetadataError(.notAnImage, "not implemented")
    }
}
