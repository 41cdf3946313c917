import Dispatch
import Foundation
import Synchronization

/// Lets a bounded number of renders run at once, whoever asks: at most `width` of them, and
/// together no more header pixels than `pixelBudget` (one render of any size may always run alone).
///
/// A render's memory follows its pixel count (a progressive JPEG holds about 3 bytes a pixel while
/// it decodes), so the budget bounds the memory of decoding as the width bounds its CPU. Renders
/// are admitted in the order they asked; one that does not fit yet holds back those behind it, so
/// a large photo is never starved by small ones. Waiting costs an async caller no thread.
public final class RenderPool: Sendable {
    /// Renders that may run at once.
    public let width: Int
    /// Pixels that running renders may declare together.
    public let pixelBudget: Int64

    private let state = Mutex(State())

    /// A pool of `width` renders (one per core unless told otherwise, at least 1).
    public init(width: Int? = nil, pixelBudget: Int64 = RenderLimits.defaultMaxPixels) {
        self.width = max(1, width ?? ProcessInfo.processInfo.activeProcessorCount)
        self.pixelBudget = max(1, pixelBudget)
    }

    /// Renders running now.
    public var running: Int { state.withLock { $0.running } }
    /// The most renders that ran at once since the pool was made.
    public var peakRunning: Int { state.withLock { $0.peak } }

    /// Runs `work` on a thread of its own once admitted, and returns its result.
    ///
    /// Not on Dispatch's global queues: on Linux they run one item per core, so renders there
    /// would hold back the cache's quick disk reads, and the pool's width could not exceed the cores.
    func run<T: Sendable>(pixels: Int64, _ work: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            if admit(pixels, .task(continuation)) { continuation.resume() }
        }
        let result = await withCheckedContinuation { (continuation: CheckedContinuation<T, Never>) in
            let thread = Thread { continuation.resume(returning: work()) }
            thread.name = "shoebox render"
            thread.start()
        }
        release(pixels)
        return result
    }

    /// Runs `work` on the calling thread once admitted, blocking the thread until then.
    func runBlocking<T>(pixels: Int64, _ work: () -> T) -> T {
        let semaphore = DispatchSemaphore(value: 0)
        if !admit(pixels, .thread(semaphore)) { semaphore.wait() }
        defer { release(pixels) }
        return work()
    }

    /// Takes a place at once (true), or queues `wake` to be called when one is given (false).
    private func admit(_ pixels: Int64, _ wake: Wake) -> Bool {
        let weight = min(max(0, pixels), pixelBudget)
        return state.withLock { state in
            if state.waiting.isEmpty && state.fits(weight, width: width, budget: pixelBudget) {
                state.take(weight)
                return true
            }
            state.waiting.append((weight, wake))
            return false
        }
    }

    private func release(_ pixels: Int64) {
        let weight = min(max(0, pixels), pixelBudget)
        let woken = state.withLock { state in
            state.running -= 1
            state.pixels -= weight
            var woken: [Wake] = []
            while let (next, wake) = state.waiting.first, state.fits(next, width: width, budget: pixelBudget) {
                state.waiting.removeFirst()
                state.take(next)
                woken.append(wake)
            }
            return woken
        }
        for wake in woken {
            switch wake {
            case .task(let continuation): continuation.resume()
            case .thread(let semaphore): semaphore.signal()
            }
        }
    }

    private enum Wake: Sendable {
        case task(CheckedContinuation<Void, Never>)
        case thread(DispatchSemaphore)
    }

    private struct State: Sendable {
        var running = 0
        var pixels: Int64 = 0
        var peak = 0
        /// In the order they asked.
        var waiting: [(pixels: Int64, wake: Wake)] = []

        func fits(_ weight: Int64, width: Int, budget: Int64) -> Bool {
            running < width && (running == 0 || pixels + weight <= budget)
        }

        mutating func take(_ weight: Int64) {
            running += 1
            pixels += weight
            peak = max(peak, running)
        }
    }
}
