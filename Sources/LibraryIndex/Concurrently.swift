import Foundation

/// A value computed on a thread of its own while the caller goes on, then awaited with
/// ``value()``. The thread never outlives this object: it is awaited when the object goes away,
/// even when the caller left early (an error).
final class Concurrently<Value: Sendable>: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    private var result: Result<Value, IndexError>?
    private var awaited = false

    init(_ body: @escaping @Sendable () throws(IndexError) -> Value) {
        Thread.detachNewThread { [self] in
            result = Result(catching: body)
            done.signal()
        }
    }

    /// The value, waiting for it; throws what computing it threw.
    func value() throws(IndexError) -> Value {
        if !awaited {
            done.wait()
            awaited = true
        }
        return try result!.get()
    }

    deinit {
        if !awaited { done.wait() }
    }
}
