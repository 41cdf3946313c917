import Foundation
import Duplicates
public import Corrections
public import Places
import PhotoMetadata
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Corrects dates, time zones and positions of indexed photos in their XMP sidecars, with a
/// journal and undo; the index is brought up to date by the same call.
///
/// ```swift
/// let corrector = Corrector(store: store, places: .installed { _ in })
/// let result = try await corrector.adjust(.ids([12, 13]), AdjustRequest(shift: "+1h"), dryRun: false)
/// try await corrector.undo(batch: result.batch)
/// ```
public struct Corrector: Sendable {
    /// What to correct.
    public enum Selection: Sendable, Hashable {
        /// Photo ids of the index (the API's `ids`).
        case ids([Int64])
        /// Files or folders (everything below them), absolute or relative to the working folder,
        /// inside the indexed root.
        case paths([String])
        /// The photos a search finds (`undated` finds those dated by their file's time).
        case search(SearchQuery)
    }

    /// The contract's answer: `{"batch", "photos": [{"path", "sidecar", "before", "after"}]}`.
    public struct Result: Sendable, Encodable {
        /// The journal's id of the batch; `nil` for a dry run.
        public var batch: Int64?
        public var photos: [AdjustPlan.PhotoChange]
        /// Selected photos that already said so, left out of `photos` (nothing written for them).
        public var unchanged = 0
        /// Why the index was not brought up to date, when it was not (another run holds it).
        public var indexNote: String?

        private enum CodingKeys: String, CodingKey { case batch, photos }

        /// `batch` is `null` for a dry run, never left out.
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(batch, forKey: .batch)
            try container.encode(photos, forKey: .photos)
        }
    }

    /// What an undo did.
    public struct UndoResult: Sendable, Encodable {
        public var batch: Int64
        /// Sidecars put back to their bytes before the batch.
        public var restored: [String]
        /// Sidecars the batch had created, removed.
        public var removed: [String]
        /// Sidecars the batch never got to write (it was killed), left as they are.
        public var untouched: [String]
        public var indexNote: String?

        private enum CodingKeys: String, CodingKey { case batch, restored, removed, untouched }
    }

    public let store: LibraryStore
    public let places: LazyPlaceTable
    public let settings: IndexSettings
    /// The working folder relative paths are taken from; the process's by default.
    public var workingFolder: String
    /// Stops writing after this many sidecars as a killed process would (tests of the journal).
    package var abandonAfter: Int?

    /// A corrector of the library in `store` (opened `.readWrite`); `places` resolves `place`
    /// names and names the places of new positions; `settings` are the index run's.
    public init(store: LibraryStore, places: LazyPlaceTable, settings: IndexSettings = .default) {
        self.store = store
        self.places = places
        self.settings = settings
        self.workingFolder = FileManager.default.currentDirectoryPath
    }

    /// Plans the correction and, unless `dryRun`, journals it, writes the sidecars all or nothing
    /// and indexes them.
    ///
    /// - Throws: `AdjustError`, naming the request field (`ids`, `shift`, `setDate`, `timeZone`,
    ///   `keepInstant`, `place`, `position`) or the file at fault; nothing is written then.
    public func adjust(_ selection: Selection, _ request: AdjustRequest, dryRun: Bool) async throws(AdjustError) -> Result {
        var modes = try request.modes()
        if let name = modes.place { modes.position = try resolve(place: name) }
        let root = try libraryRoot()
        let folders = try NoFollowFolders(root: root)
        let photos = try selectedPhotos(selection, root: root)
        let inputs = try planInputs(photos, folders: folders)
        let plan = try AdjustPlanner.plan(inputs, modes: modes)
        // A dry run, or nothing to write: no batch.
        guard !dryRun, !plan.files.isEmpty else { return Result(batch: nil, photos: plan.photos, unchanged: plan.unchanged) }

        let arguments = Self.argumentsText(selection, request)
        let batch = try indexCall { () throws(IndexError) in
            try store.beginAdjustment(arguments: arguments, photos: plan.photos.count, files: plan.files)
        }
        var writer = SidecarWriter(folders: folders, batch: batch)
        writer.abandonAfter = abandonAfter
        do {
            try writer.apply(plan.files.map { SidecarWriter.Change(sidecar: $0.sidecar, expected: $0.before, target: $0.after) })
        } catch {
            try? store.forgetAdjustment(batch)
            throw error
        }
        if abandonAfter != nil { return Result(batch: batch, photos: plan.photos, unchanged: plan.unchanged) }
        try indexCall { () throws(IndexError) in try store.finishAdjustment(batch, state: "applied") }
        return Result(batch: batch, photos: plan.photos, unchanged: plan.unchanged, indexNote: try await reindex(root: root))
    }

    /// Puts back every sidecar of `batch` (the last one not undone when `nil`) byte for byte and
    /// removes those it created; one changed since is left and named unless `force`.
    public func undo(batch: Int64? = nil, force: Bool = false) async throws(AdjustError) -> UndoResult {
        let history = try indexCall { () throws(IndexError) in try store.adjustmentHistory() }
        let chosen: AdjustBatch
        if let batch {
            guard let found = history.first(where: { $0.batch == batch }) else {
                throw AdjustError(.notFound, field: "batch", subject: String(batch), "There is no correction batch \(batch): shoebox adjust --history lists them.")
            }
            guard !found.undone else {
                throw AdjustError(.invalidValue, field: "batch", subject: String(batch), "Batch \(batch) was already undone.")
            }
            chosen = found
        } else {
            guard let last = history.last(where: { !$0.undone }) else {
                throw AdjustError(.notFound, field: "batch", "There is no correction to undo: shoebox adjust --history lists the batches.")
            }
            chosen = last
        }
        let root = try libraryRoot()
        let folders = try NoFollowFolders(root: root)
        let files = try indexCall { () throws(IndexError) in try store.adjustmentFiles(chosen.batch) }
        var changes: [SidecarWriter.Change] = []
        var result = UndoResult(batch: chosen.batch, restored: [], removed: [], untouched: [])
        var changed: [String] = []
        for file in files {
            let path = RelativePath(bytes: file.sidecar)
            let (folderPath, name) = path.folderAndName
            let folder = try folders.folder(folderPath.bytes)
            // A killed batch may have left its temporary file.
            _ = FileSystem.withCPath(SidecarWriter.temporaryName(name, batch: chosen.batch)) { unlinkat(folder, $0, 0) }
            let current = try folders.read(name, in: folder, shown: path.string, limit: SidecarReader.maximumSize * 4)
            let written = current.map { FileDigest.sha256(of: $0).bytes == file.sha256 } ?? false
            if !written && current == file.previous {
                result.untouched.append(path.string)
                continue
            }
            if !written {
                changed.append(path.string)
                guard force else { continue }
            }
            changes.append(SidecarWriter.Change(sidecar: file.sidecar, expected: current, target: file.previous))
            if file.previous == nil { result.removed.append(path.string) } else { result.restored.append(path.string) }
        }
        if !changed.isEmpty && !force {
            let shown = changed.prefix(5).joined(separator: ", ") + (changed.count > 5 ? " and \(changed.count - 5) more" : "")
            throw AdjustError(.changedSince, field: "batch", subject: changed[0], "\(changed.count == 1 ? "A sidecar was" : "\(changed.count) sidecars were") changed since batch \(chosen.batch) wrote \(changed.count == 1 ? "it" : "them") (\(shown)): nothing was undone. --force puts them back anyway.")
        }
        // Marked before the first write, so that a kill midway still leaves them to be read again.
        try indexCall { () throws(IndexError) in try store.markForReading(sidecars: files.map(\.sidecar)) }
        try SidecarWriter(folders: folders, batch: chosen.batch).apply(changes)
        try indexCall { () throws(IndexError) in try store.finishAdjustment(chosen.batch, state: "undone") }
        result.indexNote = try await reindex(root: root)
        return result
    }

    /// The journal's batches, oldest first.
    public func history() throws(AdjustError) -> [AdjustBatch] {
        try indexCall { () throws(IndexError) in try store.adjustmentHistory() }
    }

    // MARK: - Steps

    private func libraryRoot() throws(AdjustError) -> String {
        guard let stored = try indexCall({ () throws(IndexError) in try store.root() }) else {
            throw AdjustError(.notFound, "The library has not been indexed yet: run shoebox index FOLDER first.")
        }
        do {
            return try Indexer.resolveRoot(stored)
        } catch {
            throw AdjustError(.vanished, subject: stored, "The library folder \(stored) cannot be reached (\(error.message)): is it mounted?")
        }
    }

    /// The position of the one place called `name`.
    private func resolve(place name: String) throws(AdjustError) -> GeoPosition {
        guard let table = places.table else {
            throw AdjustError(.notFound, field: "place", subject: name, "No places table is installed, so \"\(name)\" cannot be looked up: install it (scripts/places-data) or give --position LAT,LON.")
        }
        let found = table.places(named: name)
        guard let first = found.first else {
            throw AdjustError(.notFound, field: "place", subject: name, "No place is called \"\(name)\" in the places table: check the spelling, or give --position LAT,LON.")
        }
        guard found.count == 1 else {
            let listed = found.prefix(8).map(\.label).joined(separator: "; ") + (found.count > 8 ? "; and \(found.count - 8) more" : "")
            throw AdjustError(.ambiguous, field: "place", subject: name, "\"\(name)\" names \(found.count) places: \(listed). Add the region or country, e.g. \"\(first.name), \(first.country)\".")
        }
        guard let position = GeoPosition(latitude: first.latitude, longitude: first.longitude) else {
            throw AdjustError(.invalidValue, field: "place", subject: name, "The places table has no usable position for \(first.label).")
        }
        return position
    }

    /// The rows of the selection with their stacks' other members, in capture order.
    private func selectedPhotos(_ selection: Selection, root: String) throws(AdjustError) -> [IndexedPhoto] {
        var ids: [Int64]
        switch selection {
        case .ids(let given):
            guard !given.isEmpty else { throw AdjustError(.notFound, field: "ids", "No photo is selected: give at least one.") }
            ids = given
        case .search(let query):
            guard !query.isEmpty else { throw AdjustError(.invalidValue, field: "search", "The search is empty: give words, e.g. --search undated.") }
            ids = try indexCall { () throws(IndexError) in try store.photoIDs(matching: query) }
            guard !ids.isEmpty else { throw AdjustError(.notFound, field: "search", subject: query.normalized, "No photo matches \"\(query.normalized)\": nothing to change.") }
        case .paths(let paths):
            guard !paths.isEmpty else { throw AdjustError(.notFound, field: "paths", "Give the photos or folders to correct, or --search QUERY.") }
            ids = []
            for path in paths {
                let relative = try relativePath(path, root: root)
                let found = try indexCall { () throws(IndexError) in try store.photoIDs(atOrBelow: relative) }
                guard !found.isEmpty else {
                    throw AdjustError(.notFound, field: "paths", subject: path, "\(path) is not in the index: run shoebox index first, or check the path.")
                }
                ids += found
            }
        }
        let all = try indexCall { () throws(IndexError) in try store.withStackMembers(ids) }
        let photos = try indexCall { () throws(IndexError) in try store.photos(ids: all) }
        if case .ids(let given) = selection, let unknown = Set(given).subtracting(photos.compactMap(\.id)).min() {
            throw AdjustError(.notFound, field: "ids", subject: String(unknown), "There is no photo \(unknown) in the index.")
        }
        return photos.sorted { ($0.captureDate.local, $0.path) < ($1.captureDate.local, $1.path) }
    }

    /// `path` (absolute, or relative to `workingFolder`) relative to `root`, as bytes.
    private func relativePath(_ path: String, root: String) throws(AdjustError) -> [UInt8] {
        let absolute = path.hasPrefix("/") ? path : workingFolder + "/" + path
        var components: [Substring] = []
        for component in absolute.split(separator: "/") {
            if component == "." { continue }
            if component == ".." { _ = components.popLast() } else { components.append(component) }
        }
        let normalized = "/" + components.joined(separator: "/")
        if normalized == root { return [] }
        if normalized.hasPrefix(root == "/" ? "/" : root + "/") { return Array(normalized.dropFirst(root == "/" ? 1 : root.count + 1).utf8) }
        throw AdjustError(.outsideLibrary, field: "paths", subject: path, "\(path) is outside the library (\(root)): Shoebox writes only beside the photos it indexes.")
    }

    /// Each photo with the sidecar it reads (`NAME.EXT.xmp`, else `NAME.xmp`, else a new
    /// `NAME.EXT.xmp`) and that sidecar's bytes.
    private func planInputs(_ photos: [IndexedPhoto], folders: NoFollowFolders) throws(AdjustError) -> [AdjustPlanner.Photo] {
        var namesByFolder: [[UInt8]: [[UInt8]]] = [:]
        var inputs: [AdjustPlanner.Photo] = []
        inputs.reserveCapacity(photos.count)
        for photo in photos {
            let (folderPath, name) = photo.path.folderAndName
            let folder = try folders.folder(folderPath.bytes)
            let names = namesByFolder[folderPath.bytes] ?? folders.xmpNames(in: folder)
            namesByFolder[folderPath.bytes] = names
            let sidecarName = SidecarNames.sidecars(of: name, among: names).first ?? name + Array(".xmp".utf8)
            let sidecar = folderPath.appending(sidecarName)
            let existing = try folders.read(sidecarName, in: folder, shown: sidecar.string, limit: SidecarReader.maximumSize)
            let date = photo.captureDate
            inputs.append(AdjustPlanner.Photo(
                path: photo.path.string, sidecar: sidecar.bytes, existing: existing,
                before: PhotoDating(captured: date.local, offset: date.offset, position: photo.position),
                offsetStated: date.offsetSource == .exif))
        }
        return inputs
    }

    /// Indexes the root again, so the rows show what the sidecars now say; a note instead when
    /// another run holds the index (a `serve --watch` reads the sidecars itself).
    private func reindex(root: String) async throws(AdjustError) -> String? {
        do {
            let indexer = try Indexer(root: root, store: store, settings: settings, places: places)
            for try await _ in indexer.run() {}
            return nil
        } catch let error as IndexError where error.code == .indexInProgress {
            return "Another index run is writing the index; it reads the new sidecars itself."
        } catch {
            throw AdjustError(.failed, "The sidecars were written, but updating the index failed (\(error)): run shoebox index.")
        }
    }

    /// The request as the journal keeps it.
    static func argumentsText(_ selection: Selection, _ request: AdjustRequest) -> String {
        struct Arguments: Encodable {
            var ids: [Int64]?
            var paths: [String]?
            var search: String?
            var request: AdjustRequest
        }
        var arguments = Arguments(request: request)
        switch selection {
        case .ids(let ids): arguments.ids = ids
        case .paths(let paths): arguments.paths = paths
        case .search(let query): arguments.search = query.normalized
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(arguments)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }

    private func indexCall<T>(_ body: () throws(IndexError) -> T) throws(AdjustError) -> T {
        do {
            return try body()
        } catch {
            throw AdjustError(.failed, subject: store.path, error.message)
        }
    }
}
