public import Foundation

/// The real photos and videos the conformance tests read, never copied into the project:
/// `../shared/corpus` (and its `videos/`) beside the package root, or another corpus laid out the
/// same way (`truth.json` beside the files) named by an environment variable.
public enum SharedCorpus {
    /// `$SHOEBOX_CORPUS` when set, else `../shared/corpus` when it holds a `truth.json`.
    public static let photos = locate(variable: "SHOEBOX_CORPUS", besidePackage: "shared/corpus")

    /// `$SHOEBOX_VIDEO_CORPUS` when set, else `../shared/corpus/videos` when it holds a `truth.json`.
    public static let videos = locate(variable: "SHOEBOX_VIDEO_CORPUS", besidePackage: "shared/corpus/videos")

    private static func locate(variable: String, besidePackage relative: String) -> URL? {
        if let path = ProcessInfo.processInfo.environment[variable], !path.isEmpty {
            return URL(fileURLWithPath: path)
        }
        // This file is Sources/PhotoFixtures/SharedCorpus.swift: three levels below the package's parent.
        let parent = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let corpus = parent.appendingPathComponent(relative)
        return FileManager.default.fileExists(atPath: corpus.appendingPathComponent("truth.json").path) ? corpus : nil
    }
}
