/// A snapshot of an indexing run, with running totals. The last one has phase `.completed` or `.stopped`.
public struct IndexProgress: Sendable, Hashable {
    public enum Phase: String, Sendable, Hashable {
        /// Walking the tree; `filesFound` grows. New and changed files are read meanwhile, as the
        /// walk hands them over folder by folder: `toRead` and `read` may grow too.
        case walking
        /// The walk has finished; opening the rest of the new and changed files: `read` grows towards `toRead`.
        case reading
        /// Every file was handled; removals are being written.
        case removing
        /// The run finished.
        case completed
        /// The run was stopped early; everything counted was committed.
        case stopped
    }

    public var phase: Phase = .walking
    /// Files found by the walk so far (excluding skipped names).
    public var filesFound = 0
    /// New or changed files that must be opened (of those the walk has found so far, see `walkCompleted`).
    public var toRead = 0
    /// Of `toRead`, how many have been handled and committed.
    public var read = 0
    public var added = 0
    public var updated = 0
    public var unchanged = 0
    public var removed = 0
    /// Files stored with an error (or left as they were because they could not be opened).
    public var failed = 0
    /// Files whose content is not an image; remembered so they are not opened again.
    public var skipped = 0
    /// Files opened in this run (0 for a re-run on an unchanged tree).
    public var opened = 0
    /// Directories that could not be read; their rows were kept.
    public var unreadableDirectories: [RelativePath] = []
    /// Photo rows whose files were not found but were kept, marked missing, because removing them
    /// would have gone past the removal limit (all rows, or more than `IndexSettings.removalLimit`).
    /// `IndexRun` started with `prune: true` removes them instead.
    public var missing = 0
    /// The photo rows the index held when the run started.
    public var photosBefore = 0
    /// Whether the walk went through the whole tree. A run stopped before that has counted in
    /// `toRead` only the new and changed files of the folders it walked.
    public var walkCompleted = false

    /// Whether the root folder itself could not be read (nothing under it was changed).
    public var rootWasUnreadable: Bool { unreadableDirectories.contains { $0.bytes.isEmpty } }

    public init() {}
}
