import Dispatch
import Foundation

/// Runs independent jobs on all cores and rethrows the first error.
package enum Parallel {
    package static func run(_ jobs: [@Sendable () throws -> Void]) throws {
        let errors = ErrorBox()
        DispatchQueue.concurrentPerform(iterations: jobs.count) { i in
            do { try jobs[i]() } catch { errors.set(error) }
        }
        if let e = errors.first { throw e }
    }

    /// Runs two independent jobs at once and returns both results (the first error thrown
    /// wins).
    package static func both<A: Sendable, B: Sendable>(
        _ a: @Sendable () throws -> A, _ b: @Sendable () throws -> B
    ) throws -> (A, B) {
        let first = ResultBox<A>(1), second = ResultBox<B>(1)
        let errors = ErrorBox()
        DispatchQueue.concurrentPerform(iterations: 2) { i in
            do {
                if i == 0 { first.set(0, try a()) } else { second.set(0, try b()) }
            } catch { errors.set(error) }
        }
        if let e = errors.first { throw e }
        return (first.values[0]!, second.values[0]!)
    }

    /// Maps `count` indices on all cores, results in index order.
    package static func map<T: Sendable>(_ count: Int, _ body: @Sendable (Int) throws -> T) throws -> [T] {
        let box = ResultBox<T>(count)
        let errors = ErrorBox()
        DispatchQueue.concurrentPerform(iterations: count) { i in
            do { box.set(i, try body(i)) } catch { errors.set(error) }
        }
        if let e = errors.first { throw e }
        return box.values.map { $0! }
    }
}

final class ErrorBox: @unchecked Sendable {
    private let lock = NSLockish()
    private(set) var first: Error?
    func set(_ e: Error) { lock.with { if first == nil { first = e } } }
}

final class ResultBox<T>: @unchecked Sendable {
    private let lock = NSLockish()
    var values: [T?]
    init(_ n: Int) { values = Array(repeating: nil, count: n) }
    func set(_ i: Int, _ v: T) { lock.with { values[i] = v } }
}

/// A pthread mutex (Foundation-free, so TonightCore's hot paths need nothing more).
final class NSLockish: @unchecked Sendable {
    private var m = pthread_mutex_t()
    init() { pthread_mutex_init(&m, nil) }
    deinit { pthread_mutex_destroy(&m) }
    func with<R>(_ body: () throws -> R) rethrows -> R {
        pthread_mutex_lock(&m)
        defer { pthread_mutex_unlock(&m) }
        return try body()
    }
}

/// One job on its own thread, joined later (its error rethrown at `join`).
package final class BackgroundJob: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    private var error: Error?
    private var started = false
    private var joined = false

    package init() {}

    package func start(_ body: @escaping @Sendable () throws -> Void) {
        started = true
        Thread.detachNewThread { [self] in
            do { try body() } catch { self.error = error }
            done.signal()
        }
    }

    /// Waits for the job (if one was started); safe to call more than once.
    package func join() throws {
        guard started, !joined else { return }
        joined = true
        done.wait()
        if let error { throw error }
    }
}

/// Hands a pointer to concurrent code that writes disjoint parts of it (the caller
/// guarantees the parts do not overlap and the memory outlives the work).
package struct UnsafeSendable<T>: @unchecked Sendable {
    package let value: T
    package init(_ value: T) { self.value = value }
}

/// Wall time of successive phases of a job (for a stage's `seconds.*` details).
package struct PhaseClock: Sendable {
    private var last = DispatchTime.now().uptimeNanoseconds
    /// Seconds of each phase, by name.
    package private(set) var laps: [String: Double] = [:]

    package init() {}

    /// Ends the current phase under `name` and starts the next.
    package mutating func lap(_ name: String) {
        let now = DispatchTime.now().uptimeNanoseconds
        laps[name, default: 0] += Double(now - last) / 1e9
        last = now
    }
}
