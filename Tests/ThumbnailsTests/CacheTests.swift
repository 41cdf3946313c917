import Foundation
import PhotoFixtures
import Synchronization
import Testing
import Thumbnails

/// The disk cache: hits, keys, sweeping, atomic writes, ETags and threads.
@Suite struct CacheTests {
    @Test func aSecondRequestIsAHitWithTheSameBytesAndETag() throws {
        let scratch = try Scratch()
        let source = try scratch.photo("a.jpg", PhotoFixtures.jpeg(width: 1200, height: 900), id: 1)
        let first = scratch.cache.image(for: source, size: .thumbnail)
        let second = scratch.cache.image(for: source, size: .thumbnail)
        #expect(second.bytes == first.bytes)
        #expect(second.etag == first.etag)
        #expect(scratch.cache.statistics.generated == 1)
        #expect(scratch.cache.statistics.hits == 1)
        #expect(first.etag.hasPrefix("\"") && first.etag.hasSuffix("\"") && !first.etag.hasPrefix("W/"))
        #expect(first.matches(ifNoneMatch: first.etag))
        #expect(first.matches(ifNoneMatch: "\"other\", W/\(first.etag)"))
        #expect(first.matches(ifNoneMatch: "*"))
        #expect(!first.matches(ifNoneMatch: "\"other\""))
    }

    @Test func sizesAreSeparateEntriesWithSeparateETags() throws {
        let scratch = try Scratch()
        let source = try scratch.photo("a.jpg", PhotoFixtures.jpeg(width: 4000, height: 3000), id: 1)
        let thumbnail = scratch.cache.image(for: source, size: .thumbnail)
        let preview = scratch.cache.image(for: source, size: .preview)
        #expect(thumbnail.etag != preview.etag)
        #expect(scratch.cachedFiles.count == 2)
    }

    @Test func aChangedFileIsMadeAgainAndItsOldEntrySwept() throws {
        let scratch = try Scratch()
        let old = try scratch.photo("a.jpg", PhotoFixtures.jpeg(width: 1200, height: 900), id: 1)
        let before = scratch.cache.image(for: old, size: .thumbnail)
        #expect(scratch.cachedFiles.count == 1)

        // Touch: same bytes, a new modification time.
        var touched = old
        touched.modified += 1_000_000_000
        let after = scratch.cache.image(for: touched, size: .thumbnail)
        #expect(after.etag != before.etag)
        #expect(scratch.cache.statistics.generated == 2)
        let files = scratch.cachedFiles
        #expect(files.count == 1, "\(files)")
        #expect(files.first?.contains("_\(touched.modified)_") == true)

        // A new size (the photo was edited) too.
        let edited = try scratch.photo("a.jpg", PhotoFixtures.jpeg(width: 900, height: 1200), id: 1)
        let portrait = try #require(jpegSize(scratch.cache.image(for: edited, size: .thumbnail).bytes))
        #expect(portrait.width == 320)
        #expect(scratch.cachedFiles.count == 1)
    }

    @Test func writesLeaveNoTemporaryFiles() throws {
        let scratch = try Scratch()
        for id in 1...5 as ClosedRange<Int64> {
            let source = try scratch.photo("\(id).jpg", PhotoFixtures.jpeg(width: 800, height: 600), id: id * 700)
            _ = scratch.cache.image(for: source, size: .thumbnail)
        }
        let files = scratch.cachedFiles
        #expect(files.count == 5)
        #expect(!files.contains { $0.split(separator: "/").last!.hasPrefix(".") })
    }

    @Test func aReaderNeverSeesAPartlyWrittenEntry() throws {
        let scratch = try Scratch()
        let photo = try scratch.photo("a.jpg", PhotoFixtures.jpeg(width: 3200, height: 2400), id: 1)
        let cache = scratch.cache
        let bucket = cache.directory + "/0"
        let done = Shared(false)
        let seen = Shared((whole: 0, partial: [String]()))
        let reader = Thread {
            while !done.withLock({ $0 }) {
                for name in (try? FileManager.default.contentsOfDirectory(atPath: bucket)) ?? [] where name.hasSuffix(".jpg") {
                    guard let data = FileManager.default.contents(atPath: bucket + "/" + name) else { continue }  // swept meanwhile
                    let bytes = [UInt8](data)
                    let whole = bytes.count > 4 && bytes.prefix(2) == [0xFF, 0xD8] && bytes.suffix(2) == [0xFF, 0xD9]
                    seen.withLock { whole ? ($0.whole += 1) : $0.partial.append(name) }
                }
            }
        }
        reader.start()
        for version in 0..<20 {
            var source = photo
            source.modified += Int64(version)
            _ = cache.image(for: source, size: .preview)
        }
        done.withLock { $0 = true }
        while !reader.isFinished { usleep(1000) }
        let result = seen.withLock { $0 }
        #expect(result.partial.isEmpty, "\(result.partial)")
        #expect(result.whole > 0)
        #expect(scratch.cachedFiles.count == 1)
    }

    @Test func aCachedFileCutShortIsMadeAgain() throws {
        // What a crash between rename and the data reaching the disk can leave.
        let scratch = try Scratch()
        let source = try scratch.photo("a.jpg", PhotoFixtures.jpeg(width: 800, height: 600), id: 1)
        let good = scratch.cache.image(for: source, size: .thumbnail)
        let file = try #require(scratch.cachedFiles.first)
        try Data(good.bytes.prefix(good.bytes.count / 2)).write(to: URL(fileURLWithPath: scratch.cache.directory + "/" + file))
        let again = scratch.cache.image(for: source, size: .thumbnail)
        #expect(again.bytes == good.bytes)
        #expect(scratch.cache.statistics.generated == 2)
    }

    @Test func sweepRemovesPhotosGoneOrChangedAndOldTemporaryFiles() throws {
        let scratch = try Scratch()
        var sources: [ThumbnailSource] = []
        for id in [1, 2, 3, 2500] as [Int64] {
            let source = try scratch.photo("\(id).jpg", PhotoFixtures.jpeg(width: 640, height: 480), id: id)
            _ = scratch.cache.image(for: source, size: .thumbnail)
            _ = scratch.cache.image(for: source, size: .preview)
            sources.append(source)
        }
        let leftover = scratch.cache.directory + "/0/.tmp-left-by-a-crash"
        try Data([1, 2, 3]).write(to: URL(fileURLWithPath: leftover))
        let young = scratch.cache.directory + "/0/.tmp-being-written"
        try Data([1, 2, 3]).write(to: URL(fileURLWithPath: young))
        let twoHoursAgo = timespec(tv_sec: time(nil) - 7200, tv_nsec: 0)
        let times = [twoHoursAgo, twoHoursAgo]
        try #require(utimensat(AT_FDCWD, leftover, times, 0) == 0)

        // Photo 2 is gone, photo 3 changed; 1 and 2500 are as they were.
        var changed = sources[2]
        changed.fileSize += 1
        let removed = try scratch.cache.sweep(keeping: [sources[0], changed, sources[3]])
        #expect(removed == 5)  // 2 × photo 2, 2 × photo 3, the old temporary file
        let files = scratch.cachedFiles
        #expect(files.count == 5, "\(files)")
        #expect(files.contains("0/.tmp-being-written"))
        #expect(files.allSatisfy { $0.hasPrefix("0/1_") || $0.hasPrefix("2/2500_") || $0.hasSuffix("being-written") })
        #expect(try scratch.cache.sweep(keeping: [ThumbnailSource]()) == 4)
        #expect(!FileManager.default.fileExists(atPath: scratch.cache.directory + "/2"), "an emptied bucket is removed")
    }

    @Test func sweepingACacheNeverWrittenRemovesNothing() throws {
        let scratch = try Scratch()
        #expect(try scratch.cache.sweep(keeping: [ThumbnailSource]()) == 0)
    }

    @Test func anUnwritableCacheStillServesTheImage() throws {
        let scratch = try Scratch()
        let source = try scratch.photo("a.jpg", PhotoFixtures.jpeg(width: 800, height: 600), id: 1)
        // The cache folder is a file: nothing can be created under it.
        try Data().write(to: URL(fileURLWithPath: scratch.cache.directory))
        let result = scratch.cache.image(for: source, size: .thumbnail)
        #expect(!result.isPlaceholder)
        #expect(jpegSize(result.bytes) != nil)
        #expect(result.error?.code == .cacheNotWritable)
    }

    @Test func concurrentRequestsFromManyThreadsAllSucceed() throws {
        let scratch = try Scratch()
        var sources: [ThumbnailSource] = []
        for id in 1...6 as ClosedRange<Int64> {
            let width = 600 + Int(id) * 100
            sources.append(try scratch.photo("\(id).jpg", PhotoFixtures.jpeg(width: width, height: 700), id: id))
        }
        let cache = scratch.cache
        let requests = 48
        let results = Mutex([Thumbnail?](repeating: nil, count: requests))
        let snapshot = sources
        DispatchQueue.concurrentPerform(iterations: requests) { index in
            let size: ThumbnailSize = index / snapshot.count % 2 == 0 ? .thumbnail : .preview
            let result = cache.image(for: snapshot[index % snapshot.count], size: size)
            results.withLock { $0[index] = result }
        }
        for index in 0..<requests {
            let result = try #require(results.withLock { $0[index] })
            let source = sources[index % sources.count]
            let size: ThumbnailSize = index / sources.count % 2 == 0 ? .thumbnail : .preview
            #expect(result.error == nil)
            let width = 600 + Int(source.id) * 100
            #expect(isClose(jpegSize(result.bytes), expectedSize(width: width, height: 700, size)))
        }
        let statistics = cache.statistics
        #expect(statistics.generated + statistics.hits == requests)
        #expect(statistics.failed == 0)
        #expect(scratch.cachedFiles.count == 12, "\(scratch.cachedFiles)")
    }

    @Test func theDefaultFolderFollowsXDG() {
        #expect(ThumbnailCache.defaultDirectory(environment: ["XDG_CACHE_HOME": "/var/cache/me", "HOME": "/home/me"])
                == "/var/cache/me/shoebox/thumbnails")
        #expect(ThumbnailCache.defaultDirectory(environment: ["HOME": "/home/me"]) == "/home/me/.cache/shoebox/thumbnails")
        #expect(ThumbnailCache.defaultDirectory(environment: ["XDG_CACHE_HOME": "relative", "HOME": "/home/me"])
                == "/home/me/.cache/shoebox/thumbnails")
    }
}
