import Foundation

/// A value one task computes and others wait for (`value()` blocks until `set`); an error
/// set instead is rethrown to every waiter.
package final class Pending<T: Sendable>: @unchecked Sendable {
    private let ready = DispatchSemaphore(value: 0)
    private let result = Locked<Result<T, any Error>?>(nil)

    package init() {}

    /// Sets the outcome (once) and wakes every waiter.
    package func set(_ outcome: Result<T, any Error>) {
        result.withLock { $0 = outcome }
        ready.signal()
    }

    /// The value, once set (or its error).
    package func value() throws -> T {
        ready.wait()
        ready.signal()  // the next waiter passes too
        return try result.current!.get()
    }
}
