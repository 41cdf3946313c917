import Foundation

/// What the crawler skips and how hard it works. Decodes from the `index` part of the config file.
public struct IndexSettings: Sendable, Hashable, Codable {
    /// Folder names never entered (e.g. NAS thumbnail caches).
    public var skipFolders: [String]
    /// File names never read (e.g. `Thumbs.db`).
    public var skipFiles: [String]
    /// Skip files and folders whose name starts with a dot.
    public var skipHidden: Bool
    /// Reader threads; 0 means one per core.
    public var jobs: Int
    /// Rows written per transaction.
    public var batchSize: Int

    public static let `default` = IndexSettings(
        skipFolders: ["@eaDir", "#recycle", "#snapshot", "$RECYCLE.BIN", "System Volume Information", "lost+found"],
        skipFiles: ["Thumbs.db", "desktop.ini", ".DS_Store"],
        skipHidden: true,
        jobs: 0,
        batchSize: 500
    )

    public init(skipFolders: [String], skipFiles: [String], skipHidden: Bool, jobs: Int, batchSize: Int) {
        self.skipFolders = skipFolders
        self.skipFiles = skipFiles
        self.skipHidden = skipHidden
        self.jobs = jobs
        self.batchSize = batchSize
    }

    /// Missing keys take their default, so a config file may name only what it changes.
    public init(from decoder: any Decoder) throws {
        let d = Self.default
        let c = try decoder.container(keyedBy: CodingKeys.self)
        skipFolders = try c.decodeIfPresent([String].self, forKey: .skipFolders) ?? d.skipFolders
        skipFiles = try c.decodeIfPresent([String].self, forKey: .skipFiles) ?? d.skipFiles
        skipHidden = try c.decodeIfPresent(Bool.self, forKey: .skipHidden) ?? d.skipHidden
        jobs = try c.decodeIfPresent(Int.self, forKey: .jobs) ?? d.jobs
        batchSize = try c.decodeIfPresent(Int.self, forKey: .batchSize) ?? d.batchSize
    }

    /// The number of reader threads to start.
    var effectiveJobs: Int { jobs > 0 ? jobs : max(1, ProcessInfo.processInfo.activeProcessorCount) }
}
