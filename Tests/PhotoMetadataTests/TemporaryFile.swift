import Foundation
import PhotoMetadata

/// Writes bytes to a fresh temporary file, reads it with `MetadataReader`, and removes it.
enum TemporaryFile {
    static func read(_ bytes: [UInt8], name: String = "fixture") throws(MetadataError) -> PhotoMetadata {
        let path = write(bytes, name: name)
        defer { try? FileManager.default.removeItem(atPath: path) }
        return try MetadataReader().read(atPath: path)
    }

    /// The result of reading `bytes`, for tests that accept either outcome.
    static func result(_ bytes: [UInt8]) -> Result<PhotoMetadata, MetadataError> {
        Result { () throws(MetadataError) in try read(bytes) }
    }

    static func write(_ bytes: [UInt8], name: String = "fixture") -> String {
        let path = FileManager.default.temporaryDirectory
            .appendingPathComponent("shoebox-metadata-\(UUID().uuidString)-\(name)").path
        _ = FileManager.default.createFile(atPath: path, contents: Data(bytes))
        return path
    }
}
