import Foundation
import GRDB
import PhotoMetadata

extension LibraryStore {
    /// Writes `photos` as rows of a library indexing `root`, without reading any file, and closes the
    /// batch as a completed run: how benchmarks and viewer tests make a library of a million photos
    /// in seconds. Not for real libraries: the rows' files need not exist.
    package func insertSynthetic(_ photos: some Sequence<IndexedPhoto>, root: String, batchSize: Int = 10_000) throws(IndexError) {
        try claimRoot(root)
        let run = try beginRun()
        var batch: [IndexChange] = []
        batch.reserveCapacity(batchSize)
        var progress = IndexProgress()
        for photo in photos {
            batch.append(.upsertPhoto(photo, wasIgnored: false))
            if batch.count == batchSize {
                try apply(batch)
                progress.added += batch.count
                batch.removeAll(keepingCapacity: true)
            }
        }
        try apply(batch)
        progress.added += batch.count
        progress.phase = .completed
        try finishRun(run, progress: progress)
        checkpoint()
    }
}

extension LibraryStore {
    /// Caps the database at `pages` pages, so the next writes fail as on a full disk. For tests.
    package func limitSize(toPages pages: Int) throws {
        try writer?.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA max_page_count = \(pages)")
        }
    }
}
