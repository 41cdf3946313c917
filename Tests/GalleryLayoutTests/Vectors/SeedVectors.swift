import Foundation
import Testing

/// One test vector of `../shared/seed-layouts/vectors.json`.
struct SeedVector: Sendable, Decodable, CustomTestStringConvertible {
    var id: String
    var behaviour: String
    var input: JSONValue
    var expected: JSONValue
    var tolerance: Double

    var testDescription: String { id }
}

/// Loads the seed-layout vectors shared between worktrees, when they are present.
enum SeedVectors {
    private struct File: Decodable {
        var vectors: [SeedVector]
    }

    /// `<package root>/../shared/seed-layouts`, found from this source file.
    static let sharedFolder: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // Vectors
        .deletingLastPathComponent()  // GalleryLayoutTests
        .deletingLastPathComponent()  // Tests
        .deletingLastPathComponent()  // package root
        .appendingPathComponent("../shared/seed-layouts")
        .standardizedFileURL

    /// `$SHOEBOX_LAYOUT_VECTORS` when set (to run another set of vectors generated the same way),
    /// else `vectors.json` in the shared folder.
    static let url: URL = {
        if let path = ProcessInfo.processInfo.environment["SHOEBOX_LAYOUT_VECTORS"], !path.isEmpty {
            return URL(fileURLWithPath: path)
        }
        return sharedFolder.appendingPathComponent("vectors.json")
    }()

    /// `SPEC.md` in the shared folder, which names every behaviour.
    static let specURL = sharedFolder.appendingPathComponent("SPEC.md")

    /// Whether the shared vector file exists.
    static let isAvailable: Bool = FileManager.default.fileExists(atPath: url.path)

    /// Decodes every vector; throws when the file is missing or malformed.
    static func load() throws -> [SeedVector] {
        try JSONDecoder().decode(File.self, from: Data(contentsOf: url)).vectors
    }

    /// Every vector, or none when the file is absent or unreadable (the count test reports that).
    static let all: [SeedVector] = isAvailable ? ((try? load()) ?? []) : []
}
