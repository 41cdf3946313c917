import Duplicates
import LibraryIndex
import Synchronization
import Thumbnails

/// The duplicate finder's fingerprints, made by `shoebox thumbnails` beside each photo's thumbnail
/// (from the thumbnail just made, so the photo is not decoded again) and stored in batches.
///
/// Photos whose current version has one already are skipped; when the index cannot be written
/// (a read-only database), fingerprints are left for `shoebox duplicates` to make.
final class FingerprintRecorder: Sendable {
    private let store: LibraryStore?
    private let done: Set<Int64>
    private let pending = Mutex<[(id: Int64, fileSize: Int64, modified: Int64, fingerprint: PictureFingerprint?)]>([])

    init(databasePath: String) {
        store = try? LibraryStore(path: databasePath, mode: .readWrite)
        done = (try? store?.fingerprintedPhotoIDs()) ?? []
    }

    /// Makes and queues the fingerprint of `source` unless its version has one.
    func record(_ source: ThumbnailSource, cache: ThumbnailCache) {
        guard store != nil, !done.contains(source.id) else { return }
        let fingerprint = cache.fingerprint(for: source)
        let batch = pending.withLock { pending -> [(id: Int64, fileSize: Int64, modified: Int64, fingerprint: PictureFingerprint?)]? in
            pending.append((source.id, source.fileSize, source.modified, fingerprint))
            guard pending.count >= 500 else { return nil }
            defer { pending.removeAll() }
            return pending
        }
        if let batch { try? store?.saveFingerprints(batch) }
    }

    /// Stores what is queued.
    func finish() {
        try? store?.saveFingerprints(pending.withLock { $0 })
    }
}
