import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension ThumbnailCache {
    /// Removes every entry that belongs to none of `sources` as they are now (a photo gone
    /// from the library, or an older version of its file), and temporary files left by a
    /// write that did not finish (older than `temporaryAge` seconds).
    ///
    /// Returns how many files were removed. A cache folder that does not exist yet is empty.
    /// - Complexity: O(*n* + *m*) for *n* sources and *m* cached files.
    @discardableResult
    public func sweep(keeping sources: some Sequence<ThumbnailSource>, temporaryAge: Double = 3600) throws(ThumbnailError) -> Int {
        var current: [Int64: (fileSize: Int64, modified: Int64)] = [:]
        for source in sources { current[source.id] = (source.fileSize, source.modified) }
        let buckets: [String]
        do {
            buckets = try FileManager.default.contentsOfDirectory(atPath: directory)
        } catch {
            if !FileManager.default.fileExists(atPath: directory) { return 0 }
            throw ThumbnailError(.cacheNotWritable, path: directory, "Cannot list the thumbnail cache \(directory): \(error.localizedDescription)")
        }
        let now = time(nil)
        var removed = 0
        for bucket in buckets where Int64(bucket) != nil {
            let folder = directory + "/" + bucket
            guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { continue }
            var kept = 0
            for name in names {
                let path = folder + "/" + name
                let stale: Bool
                if let entry = CacheEntry(fileName: name) {
                    let wanted = current[entry.id]
                    stale = wanted == nil || wanted!.fileSize != entry.fileSize || wanted!.modified != entry.modified
                        || entry.version != CacheEntry.formatVersion
                } else if name.hasPrefix(CacheEntry.temporaryPrefix) {
                    var status = stat()
                    stale = stat(path, &status) == 0 && Double(now - status.st_mtim.tv_sec) > temporaryAge
                } else {
                    stale = false
                }
                if stale && unlink(path) == 0 {
                    removed += 1
                } else {
                    kept += 1
                }
            }
            if kept == 0 { rmdir(folder) }
        }
        return removed
    }
}
