import Synchronization

/// A value shared between threads of a test, behind a lock.
final class Shared<Value: Sendable>: Sendable {
    private let storage: Mutex<Value>

    init(_ value: Value) { storage = Mutex(value) }

    func withLock<Result: Sendable>(_ body: (inout sending Value) -> sending Result) -> Result {
        storage.withLock(body)
    }
}
