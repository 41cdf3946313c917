import ArgumentParser
import Dispatch
import Duplicates
import Foundation
import LibraryIndex
import PhotoLibrary
import Synchronization
import Thumbnails

/// `shoebox duplicates`: the same picture stored more than once, in three tiers, and the one to keep.
struct DuplicatesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "duplicates",
        abstract: "Find photos stored more than once, name the one to keep, and move the extras out (nothing is deleted).",
        discussion: """
            Tiers: exact (the same bytes: equal size and SHA-256), same-picture (the same decoded \
            picture at 16×16: a metadata edit, a lossless re-save), similar (re-encoded, resized, \
            converted or lightly cropped: dHash and pHash both close, and the colours at 16×16). Every \
            file of a group matches its kept file itself. Stacks — RAW+JPEG of one shot, \
            bursts, an edit beside its original — are never duplicates. The kept file is the \
            largest picture, then the one with the richest metadata (capture date, GPS, camera), \
            then the oldest file. Hashes are made once per file version (with the thumbnails, or \
            here for files without them) and the groups are stored for `shoebox serve`.
            """
    )

    enum Tier: String, ExpressibleByArgument, CaseIterable {
        case exact
        case samePicture = "same-picture"
        case similar

        var kind: DuplicateKind { DuplicateKind(rawValue: rawValue)! }
    }

    @Flag(help: "Print JSON: {tier, groups: [{kind, keep, reason, photos: [{id, path, folder, size, width, height, captured, match, keep}]}]}.")
    var json = false

    @Option(help: "The loosest tier to use: exact, same-picture or similar (default: similar, all three).")
    var tier: Tier = .similar

    @Option(name: .customLong("move-extras"), help: ArgumentHelp("Move every file but the kept one of each group into this folder (outside the library), keeping relative paths, with a manifest.", valueName: "dir"))
    var moveExtras: String?

    @Option(help: ArgumentHelp("Put back the files a --move-extras manifest lists, byte for byte.", valueName: "manifest"))
    var restore: String?

    @Option(name: .long, parsing: .unconditional, help: ArgumentHelp("Photos decoded in parallel for missing hashes (default: one per core).", valueName: "n"))
    var jobs: Int?

    @OptionGroup var library: LibraryOptions

    func validate() throws {
        if let jobs, !(1...64).contains(jobs) { throw ValidationError("--jobs takes 1 to 64 (e.g. --jobs 2), or leave it out to use every core.") }
        if moveExtras != nil && restore != nil { throw ValidationError("--move-extras and --restore are two different runs; give one of them.") }
        if restore != nil && json { throw ValidationError("--restore prints what it put back as text; leave out --json.") }
    }

    func run() async throws {
        if let restore {
            return try putBack(restore)
        }
        // Taken before the hashing: a second run is refused at once, not after minutes of work.
        let lock = moveExtras == nil ? nil : try Self.lock(library.databasePath)
        let configuration = try library.loadConfiguration()
        let store = try LibraryStore(path: library.databasePath, mode: .readWrite)
        guard let root = try store.root() else {
            throw CLIError("The index at \(library.databasePath) has no folder yet; run `shoebox index FOLDER` first.")
        }
        var rows = try store.duplicateRows()
        let display = ProgressDisplay(enabled: isatty(STDERR_FILENO) == 1 && !json)
        try fingerprintMissing(&rows, root: root, store: store, maxPixels: configuration.thumbnails.maxPixels, display: display)
        try digestSharedSizes(&rows, root: root, store: store, display: display)
        display.finish()

        let candidates = rows.map(Self.candidate)
        for kind in DuplicateKind.allCases {
            try store.replaceDuplicateGroups(DuplicateFinder.groups(in: candidates, loosest: kind), tier: kind)
        }
        let groups = try store.storedDuplicateGroups(tier: tier.kind)

        if let moveExtras {
            try move(groups, rows: rows, root: root, to: moveExtras)
            _ = consume lock
            return
        }
        if json {
            var data = try ContractJSON.encode(DuplicatesJSON(tier: tier.kind, groups: groups))
            data.append(0x0A)
            return try Output.write(data)
        }
        try Output.line(Self.text(groups, tier: tier.kind))
    }

    /// The duplicate finder's view of a row.
    static func candidate(_ row: DuplicateRow) -> DuplicateCandidate {
        let shot = row.camera.flatMap { camera in row.capturedMillisecond.map { DuplicateCandidate.Shot(camera: camera, millisecond: $0) } }
        return DuplicateCandidate(
            id: row.id, fileSize: row.fileSize, sha256: row.sha256, fingerprint: row.fingerprint, shot: shot, stack: row.stack,
            facts: KeepFacts(
                width: row.width ?? 0, height: row.height ?? 0, hasCaptureDate: row.capturedFromMetadata, hasPosition: row.hasPosition,
                hasCamera: row.camera != nil, modified: row.modified, path: row.path.string))
    }

    /// Makes the fingerprints the thumbnail pass has not (through the thumbnail cache, so each
    /// picture is decoded once for both), with a progress bar, and stores them.
    private func fingerprintMissing(_ rows: inout [DuplicateRow], root: String, store: LibraryStore, maxPixels: Int64, display: ProgressDisplay) throws {
        let missing = rows.indices.filter { !rows[$0].fingerprinted }
        guard !missing.isEmpty else { return }
        if let problem = ThumbnailCache.decoderProblem {
            Output.note("Only exact copies can be found: libvips could not start (\(problem)), so pictures cannot be compared.")
            return
        }
        let cache = ThumbnailCache(directory: LibraryPaths.cacheDirectory() + "/thumbnails", maxPixels: maxPixels)
        let jobs = self.jobs ?? ProcessInfo.processInfo.activeProcessorCount
        let results = Mutex<[(position: Int, fingerprint: PictureFingerprint?)]>([])
        let failure = Mutex<(any Error)?>(nil)
        let done = Atomic<Int>(0)
        let start = ContinuousClock.now
        let snapshot = rows
        DispatchQueue.concurrentPerform(iterations: jobs) { worker in
            for index in stride(from: worker, to: missing.count, by: jobs) {
                let row = snapshot[missing[index]]
                var fingerprint: PictureFingerprint?
                if let file = OpenedFile(root: root, relative: row.path), file.size == row.fileSize, file.modified == row.modified {
                    fingerprint = cache.fingerprint(for: ThumbnailSource(id: row.id, path: file.procPath, fileSize: file.size, modified: file.modified))
                }
                let batch = results.withLock { results -> [(position: Int, fingerprint: PictureFingerprint?)]? in
                    results.append((missing[index], fingerprint))
                    guard results.count >= 500 else { return nil }
                    defer { results.removeAll() }
                    return results
                }
                if let batch { save(batch, snapshot, store, failure) }
                let count = done.add(1, ordering: .relaxed).newValue
                if worker == 0 { display.show(line: ProgressDisplay.bar("Fingerprinting", done: count, total: missing.count, since: start, unit: "photos")) }
            }
        }
        save(results.withLock { $0 }, snapshot, store, failure)
        if let error = failure.withLock({ $0 }) { throw error }
        for position in missing { rows[position].fingerprinted = true }
        // Read back what was stored (a file that changed meanwhile keeps no fingerprint).
        let stored = Dictionary(uniqueKeysWithValues: try store.duplicateRows().map { ($0.id, $0) })
        for position in missing { rows[position].fingerprint = stored[rows[position].id]?.fingerprint }
    }

    private func save(
        _ batch: [(position: Int, fingerprint: PictureFingerprint?)], _ rows: [DuplicateRow], _ store: LibraryStore, _ failure: borrowing Mutex<(any Error)?>
    ) {
        do {
            try store.saveFingerprints(batch.map { (rows[$0.position].id, rows[$0.position].fileSize, rows[$0.position].modified, $0.fingerprint) })
        } catch {
            failure.withLock { stored in if stored == nil { stored = error } }
        }
    }

    /// Computes the SHA-256 of every file that shares its size with another and has none yet.
    private func digestSharedSizes(_ rows: inout [DuplicateRow], root: String, store: LibraryStore, display: ProgressDisplay) throws {
        var bySize: [Int64: Int] = [:]
        for row in rows { bySize[row.fileSize, default: 0] += 1 }
        let wanted = rows.indices.filter { rows[$0].sha256 == nil && bySize[rows[$0].fileSize, default: 0] > 1 }
        guard !wanted.isEmpty else { return }
        let start = ContinuousClock.now
        var batch: [(id: Int64, fileSize: Int64, modified: Int64, digest: SHA256Value)] = []
        for (done, position) in wanted.enumerated() {
            let row = rows[position]
            if let result = try? FileDigest.sha256(ofFileAt: Array(root.utf8) + [0x2F] + row.path.bytes), result.size == row.fileSize {
                rows[position].sha256 = result.digest
                batch.append((row.id, row.fileSize, row.modified, result.digest))
            }
            if batch.count >= 500 { try store.saveDigests(batch); batch.removeAll() }
            display.show(line: ProgressDisplay.bar("Hashing", done: done + 1, total: wanted.count, since: start, unit: "files"))
        }
        try store.saveDigests(batch)
    }

    /// Moves the non-kept files of `groups` out of the library (stack members stay) and reports.
    private func move(_ groups: [StoredDuplicateGroup], rows: [DuplicateRow], root: String, to folder: String) throws {
        let byID = Dictionary(uniqueKeysWithValues: rows.map { ($0.id, $0) })
        var extras: [ExtrasMover.Extra] = []
        var stacked: [RelativePath] = []
        for group in groups {
            guard let kept = group.members.first else { continue }
            for member in group.members.dropFirst() {
                guard let row = byID[member.id] else { continue }
                if row.stack != nil { stacked.append(row.path); continue }
                extras.append(.init(path: row.path, fileSize: row.fileSize, modified: row.modified, keptPath: kept.path))
            }
        }
        let result: (manifest: String?, moved: [ExtrasMover.Entry], skipped: [ExtrasMover.Skipped])
        do { result = try ExtrasMover(root: root).moveExtras(extras, to: folder) } catch { throw CLIError(error.message) }
        var lines = ["Moved \(result.moved.count.counted("file")) out of \(root.terminalSafe) into \(folder.terminalSafe)."]
        if let manifest = result.manifest {
            lines.append("Manifest: \(manifest.terminalSafe) (undo with `shoebox duplicates --restore \(manifest.terminalSafe)`).")
        }
        for path in stacked { lines.append("  not moved: \(path.string.terminalSafe): it belongs to a stack") }
        for skipped in result.skipped { lines.append("  not moved: \(skipped.path.string.terminalSafe): \(skipped.reason.terminalSafe)") }
        guard !result.moved.isEmpty else {
            try Output.line(lines.joined(separator: "\n"))
            throw CLIError(extras.isEmpty
                ? "Nothing to move: no group has a file to move at the \(tier.rawValue) tier (see `shoebox duplicates`)."
                : "Nothing was moved: every extra file stayed, for the reasons above.")
        }
        lines.append("Run `shoebox index` so the index forgets them.")
        try Output.line(lines.joined(separator: "\n"))
    }

    /// `--restore`: puts the files of a manifest back under the root of this index's library.
    private func putBack(_ manifest: String) throws {
        let store = try LibraryStore(path: library.databasePath, mode: .readOnly)
        guard let root = try store.root() else {
            throw CLIError("The index at \(library.databasePath) has no folder; give the --db of the library the files were moved out of.")
        }
        let lock = try Self.lock(library.databasePath)
        let result: (restored: [ExtrasMover.Entry], inPlace: [ExtrasMover.Entry], skipped: [ExtrasMover.Skipped])
        do { result = try ExtrasMover(root: root).restore(manifestPath: manifest) } catch { throw CLIError(error.message) }
        _ = consume lock
        var lines = ["Put back \(result.restored.count.counted("file")) from \(manifest.terminalSafe)."]
        if !result.inPlace.isEmpty { lines.append("\(result.inPlace.count.counted("file")) already in the library.") }
        for skipped in result.skipped { lines.append("  not restored: \(skipped.path.string.terminalSafe): \(skipped.reason.terminalSafe)") }
        guard !result.restored.isEmpty else {
            try Output.line(lines.joined(separator: "\n"))
            throw CLIError(result.skipped.isEmpty
                ? "Nothing to put back: every file of \(manifest.terminalSafe) is in the library already."
                : "Nothing was put back, for the reasons above.")
        }
        lines.append("Run `shoebox index` to see them in the library again.")
        try Output.line(lines.joined(separator: "\n"))
    }

    /// The lock that keeps a second move or restore off this library.
    private static func lock(_ databasePath: String) throws -> MoveLock {
        do { return try MoveLock(databasePath: databasePath) } catch { throw CLIError(error.message) }
    }

    /// The groups for people: one block per group, the kept file marked.
    static func text(_ groups: [StoredDuplicateGroup], tier: DuplicateKind) -> String {
        guard !groups.isEmpty else { return tier == .similar ? "No duplicates." : "No duplicates up to the \(tier.rawValue) tier." }
        var lines: [String] = []
        var extras = 0
        for group in groups {
            lines.append("\(group.kind.rawValue): keep \(group.members[0].path.string.terminalSafe) — \(group.reason)")
            for (position, member) in group.members.enumerated() {
                let size = member.width.flatMap { w in member.height.map { "\(w)×\($0)" } } ?? "?"
                let mark = position == 0 ? "keep" : member.match.rawValue
                lines.append("  \(mark.padding(toLength: 12, withPad: " ", startingAt: 0)) \(size.padding(toLength: 11, withPad: " ", startingAt: 0)) \(Self.bytes(member.fileSize).padding(toLength: 9, withPad: " ", startingAt: 0)) \(member.captured.prefix(19))  \(member.path.string.terminalSafe)")
            }
            extras += group.members.count - 1
        }
        let kinds = DuplicateKind.allCases.compactMap { kind -> String? in
            let count = groups.filter { $0.kind == kind }.count
            return count > 0 ? "\(count.grouped) \(kind.rawValue)" : nil
        }
        lines.append("\(groups.count.counted("group")) (\(kinds.joined(separator: ", "))), \(extras.counted("extra file")) (shoebox duplicates --move-extras DIR)")
        return lines.joined(separator: "\n")
    }

    static func bytes(_ count: Int64) -> String {
        count >= 1_000_000 ? String(format: "%.1f MB", Double(count) / 1e6) : count >= 1000 ? String(format: "%.0f kB", Double(count) / 1e3) : "\(count) B"
    }
}
