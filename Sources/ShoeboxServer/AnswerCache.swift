import Foundation
import NIOCore
import Synchronization

/// Answers kept by key, the least recently used forgotten first once there are `limit` of them or
/// they hold more than `byteBudget` bytes. For answers with many possible keys (section pages
/// by level, index, from and count), where clearing everything at once would throw away the hot
/// pages with the cold.
final class AnswerCache: Sendable {
    private struct Entry {
        var slot: CachedAnswer.Slot
        var used: UInt64
        var bytes: Int
    }

    private struct Storage {
        var entries: [String: Entry] = [:]
        var clock: UInt64 = 0
        var bytes = 0
    }

    private let storage = Mutex(Storage())
    let limit: Int
    let byteBudget: Int

    init(limit: Int, byteBudget: Int) {
        self.limit = max(1, limit)
        self.byteBudget = byteBudget
    }

    /// How many answers are kept.
    var count: Int { storage.withLock { $0.entries.count } }

    /// The answer for `key`, made by `make` the first time (requests asking meanwhile wait for it).
    ///
    /// - Complexity: O(1) for a kept answer; O(*n* log *n*) in the kept answers when one is made
    ///   with the cache full, which then forgets an eighth of them at once.
    func answer(_ key: String, _ make: () throws -> Data) throws -> CachedAnswer {
        let slot = storage.withLock { storage in
            storage.clock += 1
            if let entry = storage.entries[key] {
                storage.entries[key]!.used = storage.clock
                return entry.slot
            }
            if storage.entries.count >= limit || storage.bytes > byteBudget { Self.evict(&storage, keeping: limit - max(1, limit / 8), byteBudget: byteBudget) }
            let slot = CachedAnswer.Slot()
            storage.entries[key] = Entry(slot: slot, used: storage.clock, bytes: 0)
            return slot
        }
        let answer: CachedAnswer
        do {
            answer = try slot.answer(make)
        } catch {
            storage.withLock { storage in
                if storage.entries[key]?.slot === slot { storage.entries[key] = nil }
            }
            throw error
        }
        let size = answer.plain.readableBytes + (answer.gzipped?.readableBytes ?? 0)
        storage.withLock { storage in
            guard storage.entries[key]?.slot === slot, storage.entries[key]!.bytes == 0 else { return }
            storage.entries[key]!.bytes = size
            storage.bytes += size
        }
        return answer
    }

    /// Forgets the least recently used answers until at most `keeping` are left within the budget.
    private static func evict(_ storage: inout Storage, keeping: Int, byteBudget: Int) {
        for (key, entry) in storage.entries.sorted(by: { $0.value.used < $1.value.used }) {
            guard storage.entries.count > keeping || storage.bytes > byteBudget else { break }
            storage.entries[key] = nil
            storage.bytes -= entry.bytes
        }
    }
}
