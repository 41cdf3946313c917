extension MetadataError {
    /// A read of `length` bytes at `offset` that leaves its structure.
    static func truncated(_ offset: Int, _ length: Int) -> MetadataError {
        MetadataError(.truncated, "The file ends inside a structure (\(length) bytes wanted at offset \(offset)).")
    }

    static func malformed(_ message: String) -> MetadataError {
        MetadataError(.malformed, message)
    }
}
