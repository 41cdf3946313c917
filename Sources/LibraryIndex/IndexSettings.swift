import Foundation

/// What the crawler skips and how hard it works. Decodes from the `index` part of the config file.
public struct IndexSettings: Sendable, Hashable, Codable {
    /// Folder names never entered (e.g. NAS thumbnail caches).
    public var skipFolders: [String]
    /// File names never read (e.g. `Thumbs.db`).
    public var skipFiles: [String]
    /// Skip files and folders whose name starts with a dot.
    public var skipHidden: Bool
    /// Reader threads; 0 (the default) means `defaultJobs`, growing to `coldJobs` while files come from the disk.
    public var jobs: Int
    /// Rows written per transaction (1–100,000).
    public var batchSize: Int
    /// The largest share of a library (0–1) one run may remove without `--prune`: beyond it, rows
    /// whose files were not found are kept and marked missing, as when a drive is not mounted.
    public var removalLimit: Double
    /// Libraries with fewer photos than this may lose any share in one run, but never all of it.
    public var removalLimitFrom: Int

    public static let `default` = IndexSettings(
        skipFolders: ["@eaDir", "#recycle", "#snapshot", "$RECYCLE.BIN", "System Volume Information", "lost+found"],
        skipFiles: ["Thumbs.db", "desktop.ini", ".DS_Store"],
        skipHidden: true,
        jobs: 0,
        batchSize: 500,
        removalLimit: 0.1,
        removalLimitFrom: 100
    )

    public init(
        skipFolders: [String], skipFiles: [String], skipHidden: Bool, jobs: Int, batchSize: Int,
        removalLimit: Double = 0.1, removalLimitFrom: Int = 100
    ) {
        self.skipFolders = skipFolders
        self.skipFiles = skipFiles
        self.skipHidden = skipHidden
        self.jobs = jobs
        self.batchSize = batchSize
        self.removalLimit = removalLimit
        self.removalLimitFrom = removalLimitFrom
    }

    /// The largest `jobs` and `batchSize` accepted.
    public static let maximumJobs = 256
    public static let maximumBatchSize = 100_000

    /// Refuses values no run can work with, naming the key and the accepted range.
    public func validate() throws(IndexError) {
        var problems: [String] = []
        if !(0...Self.maximumJobs).contains(jobs) {
            problems.append("jobs must be 0 (the default: \(Self.defaultJobs)) to \(Self.maximumJobs) (got \(jobs))")
        }
        if !(1...Self.maximumBatchSize).contains(batchSize) {
            problems.append("batchSize must be 1 to \(Self.maximumBatchSize) (got \(batchSize))")
        }
        if !(removalLimit >= 0 && removalLimit <= 1) {
            problems.append("removalLimit must be a share from 0 to 1, e.g. 0.1 for 10% (got \(removalLimit))")
        }
        if removalLimitFrom < 0 {
            problems.append("removalLimitFrom must be 0 or more (got \(removalLimitFrom))")
        }
        if skipFolders.contains(where: \.isEmpty) || skipFiles.contains(where: \.isEmpty) {
            problems.append("skipFolders and skipFiles must not contain empty names")
        }
        guard problems.isEmpty else {
            throw IndexError(.invalidSettings, "Invalid index settings: " + problems.joined(separator: "; ") + ".")
        }
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
        removalLimit = try c.decodeIfPresent(Double.self, forKey: .removalLimit) ?? d.removalLimit
        removalLimitFrom = try c.decodeIfPresent(Int.self, forKey: .removalLimitFrom) ?? d.removalLimitFrom
    }

    /// The reader threads a run starts when `jobs` is 0: one per core, and at least 2; it adds
    /// more, up to `coldJobs`, while their files come from the disk.
    ///
    /// A warm first index waits on the cores: more readers than cores only take turns on them and
    /// slow the one writer thread down. A cold one waits on the disk, not on computing: with one
    /// reader per core a disk sees one or two requests at a time, while it serves many about as
    /// fast as one.
    public static var defaultJobs: Int {
        min(maximumJobs, max(2, cores))
    }

    /// The most reader threads a run with the default jobs grows to while its reads go to the
    /// disk: 8 per core, and at least 32.
    public static var coldJobs: Int {
        min(maximumJobs, max(32, 8 * cores))
    }

    /// The cores this process may use, read once: Foundation reads the cgroup's quota files at
    /// every `activeProcessorCount`, and the walk asks once per folder it hands over (820 file
    /// reads on the walk's threads in a first index of 410 folders).
    static let cores = ProcessInfo.processInfo.activeProcessorCount

    /// The reader threads a run with these settings starts.
    public var readerThreads: Int { jobs > 0 ? jobs : Self.defaultJobs }

    /// Whether the run adds readers while their reads go to the disk (the default jobs); a run
    /// with `jobs` set keeps that many.
    public var growsReaders: Bool { jobs == 0 }

    /// The reader threads a run with these settings may reach.
    public var maximumReaderThreads: Int { jobs > 0 ? jobs : Self.coldJobs }
}
