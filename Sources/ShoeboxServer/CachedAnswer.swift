import Foundation
import Hummingbird
import Synchronization

/// A JSON answer encoded once per snapshot, and its gzip copy for clients that accept one.
struct CachedAnswer: Sendable {
    /// The JSON.
    let plain: ByteBuffer
    /// The same JSON as one gzip member, or nil when that is not smaller (or zlib failed).
    let gzipped: ByteBuffer?

    init(json: Data) {
        plain = ByteBuffer(bytes: json)
        let compressed = json.withUnsafeBytes { Gzip.compress($0) }
        gzipped = compressed.flatMap { $0.count < json.count ? ByteBuffer(bytes: $0) : nil }
    }

    /// Where one answer is made once: the first request encodes it, others asking meanwhile wait.
    final class Slot: Sendable {
        private let value = Mutex<CachedAnswer?>(nil)

        /// The answer, made by `make` if no earlier call made it (a throwing `make` leaves none).
        func answer(_ make: () throws -> Data) throws -> CachedAnswer {
            try value.withLock { value in
                if let value { return value }
                let made = CachedAnswer(json: try make())
                value = made
                return made
            }
        }
    }
}
