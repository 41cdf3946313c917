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

    /// The package root, found from this source file.
    static let packageRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // Vectors
        .deletingLastPathComponent()  // GalleryLayoutTests
        .deletingLastPathComponent()  // Tests
        .deletingLastPathComponent()

    /// `<package root>/../shared/seed-layouts`.
    static let sharedFolder = packageRoot.appendingPathComponent("../shared/seed-layouts").standardizedFileURL

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
    static func load(_ file: URL = url) throws -> [SeedVector] {
        try JSONDecoder().decode(File.self, from: Data(contentsOf: file)).vectors
    }

    /// Every vector, or none when the file is absent or unreadable (the count test reports that).
    static let all: [SeedVector] = isAvailable ? ((try? load()) ?? []) : []

    /// 228 more vectors, in the same format, that `Tools/LayoutReference/generate.py` draws from
    /// an independent Python reference written from SPEC.md alone. Part of the package.
    static let independentURL = packageRoot.appendingPathComponent("Tools/LayoutReference/vectors.json")

    /// The independent vectors (empty if the file is unreadable; the count test reports that).
    static let independent: [SeedVector] = (try? load(independentURL)) ?? []
}
