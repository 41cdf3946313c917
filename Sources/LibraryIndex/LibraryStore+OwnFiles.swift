import Foundation

extension LibraryStore {
    /// The database's own files beside it, by the suffix on its name, with what each one is.
    static let ownFileSuffixes: [(suffix: String, name: String)] = [
        ("", "the database itself"), ("-wal", "the database's write-ahead log"),
        ("-shm", "the database's shared-memory index"), ("-journal", "the database's rollback journal name"),
        ("-lock", "the database's index lock"),
    ]

    /// The database and its companion files relative to `root`, when the user keeps the index
    /// inside the folder it indexes. They change with every write and are not photos, so neither
    /// the walk nor the watcher looks at them: a watcher reacting to them would run for ever, and
    /// reading one would open a descriptor whose close drops this process's SQLite locks on it.
    func ownFiles(inside root: String) -> Set<RelativePath> {
        guard let database = Self.resolvingFolder(of: path), database.hasPrefix(root + "/") else { return [] }
        let relative = String(database.dropFirst(root.count + 1))
        return Set(Self.ownFileSuffixes.map { RelativePath(relative + $0.suffix) })
    }

    /// `path` with its folder's real path (links and `..` resolved), so that two spellings of a
    /// file compare equal; `nil` when the folder does not exist.
    static func resolvingFolder(of path: String) -> String? {
        let url = URL(fileURLWithPath: path)
        guard let folder = realpath(url.deletingLastPathComponent().path, nil) else { return nil }
        defer { free(folder) }
        return String(cString: folder) + "/" + url.lastPathComponent
    }
}
