import Foundation
import PhotoFixtures
import Synchronization
import Testing
@testable import Thumbnails

/// The bounds on decoding: the pool, one render per (photo, size), the pixel and time limits.
@Suite struct RenderLimitTests {
    /// A grey baseline JPEG of `width` × `height` in `folder`, described as the index would.
    static func photo(_ folder: TemporaryDirectory, _ name: String, id: Int64, width: Int = 4000, height: Int = 3000) throws -> ThumbnailSource {
        let url = try folder.write("photos/" + name, PhotoFixtures.jpeg(width: width, height: height))
        return try Scratch.source(path: url.path, id: id)
    }

    /// Waits up to 10 s for `condition`; whether it came true.
    static func eventually(_ condition: () -> Bool) async -> Bool {
        for _ in 0..<1000 {
            if condition() { return true }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return condition()
    }

    @Test func concurrentRequestsForOneEntryShareOneRender() async throws {
        let folder = try TemporaryDirectory()
        let pool = RenderPool(width: 1)
        let cache = ThumbnailCache(directory: folder.path + "/cache", limits: .default, pool: pool)
        let source = try Self.photo(folder, "a.jpg", id: 1)
        // Hold the pool's only place, so every request arrives while the first one waits for it.
        let release = DispatchSemaphore(value: 0)
        let holding = DispatchSemaphore(value: 0)
        Thread { pool.runBlocking(pixels: 1) { holding.signal(); release.wait() } }.start()
        holding.wait()

        let askers = 8
        async let images = withTaskGroup(of: Thumbnail.self) { group in
            for _ in 0..<askers { group.addTask { await cache.image(for: source, size: .preview) } }
            return await group.reduce(into: []) { $0.append($1) }
        }
        let allJoined = await Self.eventually { cache.statistics.joined == askers - 1 }
        release.signal()
        let results = await images
        #expect(allJoined, "joined: \(cache.statistics.joined)")
        #expect(cache.statistics.renders == 1)
        #expect(cache.statistics.generated == 1)
        #expect(results.count == askers)
        #expect(results.allSatisfy { !$0.isPlaceholder && $0.bytes == results[0].bytes })
        // The render is over: the next request is a plain hit, not a join.
        _ = await cache.image(for: source, size: .preview)
        #expect(cache.statistics.renders == 1 && cache.statistics.joined == askers - 1 && cache.statistics.hits == 1)
    }

    @Test func anotherSizeIsAnotherRender() async throws {
        let folder = try TemporaryDirectory()
        let cache = ThumbnailCache(directory: folder.path + "/cache", limits: .default)
        let source = try Self.photo(folder, "a.jpg", id: 1)
        async let thumbnail = cache.image(for: source, size: .thumbnail)
        async let preview = cache.image(for: source, size: .preview)
        let (small, large) = await (thumbnail, preview)
        #expect(!small.isPlaceholder && !large.isPlaceholder && small.bytes != large.bytes)
        #expect(cache.statistics.renders == 2 && cache.statistics.joined == 0)
    }

    /// Counts the works running at once, as the works themselves see it.
    final class Gauge: Sendable {
        private let counts = Mutex((running: 0, most: 0))

        /// Holds a place for 30 ms.
        func work() {
            counts.withLock { $0.running += 1; $0.most = max($0.most, $0.running) }
            usleep(30_000)
            counts.withLock { $0.running -= 1 }
        }

        var most: Int { counts.withLock { $0.most } }
    }

    @Test(arguments: [1, 2, 3])
    func thePoolNeverRunsMoreThanItsWidth(width: Int) async {
        let pool = RenderPool(width: width)
        let gauge = Gauge()
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<12 {
                group.addTask { await pool.run(pixels: 1) { gauge.work() } }
            }
        }
        #expect(gauge.most <= width)
        #expect(pool.peakRunning == width)
        #expect(pool.running == 0)
    }

    @Test func blockingCallersShareThePool() {
        let pool = RenderPool(width: 2)
        let gauge = Gauge()
        // Threads of their own: Dispatch's concurrentPerform may run its iterations one by one.
        let group = DispatchGroup()
        for _ in 0..<8 {
            group.enter()
            Thread {
                pool.runBlocking(pixels: 1) { gauge.work() }
                group.leave()
            }.start()
        }
        group.wait()
        #expect(gauge.most <= 2)
        #expect(pool.peakRunning == 2)
        #expect(pool.running == 0)
    }

    @Test(arguments: [(60, 1), (30, 3), (500, 1)])
    func renderedPixelsStayWithinTheBudget(pixels: Int64, expectedPeak: Int) async {
        // Four places, 100 pixels: 60-pixel renders one at a time, 30-pixel ones three at a time;
        // a render over the whole budget still runs, alone.
        let pool = RenderPool(width: 4, pixelBudget: 100)
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<8 {
                group.addTask { await pool.run(pixels: pixels) { _ = usleep(20_000) } }
            }
        }
        #expect(pool.peakRunning == expectedPeak)
    }

    @Test func manyPhotosAtOnceRenderWithinThePool() async throws {
        let folder = try TemporaryDirectory()
        let cache = ThumbnailCache(directory: folder.path + "/cache", limits: .default, pool: RenderPool(width: 2))
        var sources: [ThumbnailSource] = []
        for id in 1...8 { sources.append(try Self.photo(folder, "p\(id).jpg", id: Int64(id))) }
        let placeholders = await withTaskGroup(of: Bool.self) { group in
            for source in sources { group.addTask { await cache.image(for: source, size: .preview).isPlaceholder } }
            return await group.reduce(0) { $0 + ($1 ? 1 : 0) }
        }
        #expect(placeholders == 0)
        #expect(cache.statistics.renders == 8)
        #expect(cache.pool.peakRunning <= 2)
    }

    @Test func aPhotoOverThePixelLimitIsNeverDecoded() async throws {
        let folder = try TemporaryDirectory()
        let cache = ThumbnailCache(directory: folder.path + "/cache", limits: RenderLimits(maxPixels: 1000 * 1000))
        let big = try Self.photo(folder, "big.jpg", id: 1, width: 1001, height: 1000)
        let result = await cache.image(for: big, size: .thumbnail)
        #expect(result.isPlaceholder)
        #expect(result.error?.code == .tooLarge)
        #expect(result.error?.code.placeholderReason == "too-large")
        #expect(cache.statistics.renders == 0, "refused from its header, before the pool")
        #expect(cache.pool.peakRunning == 0)
        // A request's own limit wins over the cache's.
        let fits = await cache.image(for: big, size: .preview, maxPixels: 2000 * 2000)
        #expect(!fits.isPlaceholder && cache.statistics.renders == 1)
    }

    @Test func aRenderOverTheTimeLimitIsStopped() async throws {
        let folder = try TemporaryDirectory()
        let source = try Self.photo(folder, "slow.jpg", id: 1)
        let hurried = ThumbnailCache(directory: folder.path + "/hurried", limits: RenderLimits(timeLimit: .zero))
        let result = await hurried.image(for: source, size: .preview)
        #expect(result.isPlaceholder)
        #expect(result.error?.code == .timedOut, "\(result.error?.message ?? "no error")")
        #expect(result.error?.code.placeholderReason == "timeout")
        #expect(hurried.statistics.renders == 1)
        // Remembered, like any failure of the photo itself: not decoded again until it changes.
        let again = await hurried.image(for: source, size: .preview)
        #expect(again.error?.code == .timedOut)
        #expect(hurried.statistics.renders == 1 && hurried.statistics.rememberedFailures == 1)
        // With time enough, the same photo renders.
        let patient = ThumbnailCache(directory: folder.path + "/patient", limits: .default)
        let rendered = await patient.image(for: source, size: .preview)
        #expect(!rendered.isPlaceholder)
    }

    @Test func everyPlaceholderCodeHasAReason() {
        let codes: [(ThumbnailError.Code, String)] = [
            (.undecodable, "damaged"), (.tooLarge, "too-large"), (.timedOut, "timeout"),
            (.decoderUnavailable, "no-decoder"), (.fileNotFound, "missing"), (.unreadable, "missing"),
        ]
        for (code, reason) in codes { #expect(code.placeholderReason == reason) }
    }
}
