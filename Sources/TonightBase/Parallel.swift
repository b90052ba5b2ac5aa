import Dispatch
import Foundation

/// The one way the package uses several cores: loops over indices on `width` workers (every
/// core by default; `--threads` or the `threads` config key set it), results in index order,
/// the first error rethrown. Work is split by index, so results never depend on the width.
package enum Parallel {
    private static let configured = Locked<Int?>(nil)

    /// Workers of every parallel loop: the configured number, else the active processors.
    package static var width: Int { configured.current ?? max(1, ProcessInfo.processInfo.activeProcessorCount) }

    /// Sets the width (nil: every core). For the command line, before any work starts.
    package static func setWidth(_ n: Int?) { configured.withLock { $0 = n.map { max(1, $0) } } }

    /// Calls `body` for every index in 0..<count, on up to `width` workers (default: the
    /// package's width).
    package static func forEach(_ count: Int, width: Int? = nil, _ body: @Sendable (Int) throws -> Void) throws {
        guard count > 0 else { return }
        let width = width ?? Self.width
        if count == 1 || width <= 1 {
            for i in 0..<count { try body(i) }
            return
        }
        let failure = Locked<Error?>(nil)
        let next = Locked(0)
        DispatchQueue.concurrentPerform(iterations: min(width, count)) { _ in
            while true {
                let i = next.withLock { n -> Int in
                    defer { n += 1 }
                    return n
                }
                guard i < count, failure.current == nil else { return }
                do { try body(i) } catch { failure.withLock { if $0 == nil { $0 = error } } }
            }
        }
        if let e = failure.current { throw e }
    }

    /// `body` of every index in 0..<count on up to `width` workers, in index order.
    package static func map<T: Sendable>(_ count: Int, width: Int? = nil, _ body: @Sendable (Int) throws -> T) throws -> [T] {
        let results = Locked([T?](repeating: nil, count: count))
        try forEach(count, width: width) { i in
            let v = try body(i)
            results.withLock { $0[i] = v }
        }
        return results.current.map { $0! }
    }

    /// Two independent jobs at once; both results (the first error thrown wins).
    package static func both<A: Sendable, B: Sendable>(
        _ a: @Sendable () throws -> A, _ b: @Sendable () throws -> B
    ) throws -> (A, B) {
        let first = Locked<A?>(nil), second = Locked<B?>(nil)
        try forEach(2) { i in
            if i == 0 {
                let v = try a()
                first.withLock { $0 = v }
            } else {
                let v = try b()
                second.withLock { $0 = v }
            }
        }
        return (first.current!, second.current!)
    }

    /// `both` of two jobs that cannot fail.
    package static func pair<A: Sendable, B: Sendable>(_ a: @Sendable () -> A, _ b: @Sendable () -> B) -> (A, B) {
        do {
            return try both(a, b)
        } catch {
            preconditionFailure("unreachable: neither job throws (\(error))")
        }
    }

    /// The `k`-th of `parts` contiguous, near-equal ranges of 0..<n.
    package static func range(_ k: Int, of parts: Int, in n: Int) -> Range<Int> {
        (n * k / parts)..<(n * (k + 1) / parts)
    }

    /// Runs `body` on `parts` workers that write disjoint elements of `array` through a shared
    /// buffer (the one place the package hands a mutable buffer to several threads: each
    /// worker must write only elements no other writes). Returns each part's result.
    package static func writing<Element, R: Sendable>(
        into array: inout [Element], parts: Int,
        _ body: @Sendable (_ part: Int, _ buffer: UnsafeMutableBufferPointer<Element>) throws -> R
    ) throws -> [R] {
        try array.withUnsafeMutableBufferPointer { buffer in
            let shared = SharedBuffer(buffer)
            return try map(parts) { p in try body(p, shared.buffer) }
        }
    }
}

extension Parallel {
    /// `writing` into three arrays at once.
    package static func writing<A, B, C, R: Sendable>(
        into a: inout [A], _ b: inout [B], _ c: inout [C], parts: Int,
        _ body: @Sendable (_ part: Int, UnsafeMutableBufferPointer<A>, UnsafeMutableBufferPointer<B>, UnsafeMutableBufferPointer<C>) throws -> R
    ) throws -> [R] {
        try b.withUnsafeMutableBufferPointer { bb in
            try c.withUnsafeMutableBufferPointer { cb in
                let (sb, sc) = (SharedBuffer(bb), SharedBuffer(cb))
                return try writing(into: &a, parts: parts) { p, ab in try body(p, ab, sb.buffer, sc.buffer) }
            }
        }
    }
}

/// A mutable buffer handed to parallel workers that write disjoint parts of it.
package struct SharedBuffer<Element>: @unchecked Sendable {
    package let buffer: UnsafeMutableBufferPointer<Element>
    package init(_ buffer: UnsafeMutableBufferPointer<Element>) { self.buffer = buffer }
}

/// One job on its own thread, joined later (its error rethrown at `join`).
package final class BackgroundJob: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    private let failure = Locked<Error?>(nil)
    private var started = false
    private var joined = false

    package init() {}

    package func start(_ body: @escaping @Sendable () throws -> Void) {
        started = true
        Thread.detachNewThread { [self] in
            do { try body() } catch { failure.withLock { $0 = error } }
            done.signal()
        }
    }

    /// Waits for the job (if one was started); safe to call more than once.
    package func join() throws {
        guard started, !joined else { return }
        joined = true
        done.wait()
        if let e = failure.current { throw e }
    }
}

/// A read-only buffer handed to parallel workers (the memory outlives the work).
package struct SharedReadBuffer<Element>: @unchecked Sendable {
    package let buffer: UnsafeBufferPointer<Element>
    package init(_ buffer: UnsafeBufferPointer<Element>) { self.buffer = buffer }
}
