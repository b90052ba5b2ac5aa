import Foundation

/// A bounded, ordered hand-off of work items from one producer thread to one consumer
/// thread (a pipeline stage boundary). `put` blocks while `capacity` items wait; after
/// `close` the consumer drains what is left and `take` returns nil. A consumer that fails
/// calls `cancel`, which wakes and stops the producer.
package final class Handoff<Item: Sendable>: @unchecked Sendable {
    private let condition = NSCondition()
    private var items: [Item] = []
    private var closed = false
    private var cancelled = false
    private let capacity: Int

    package init(capacity: Int) {
        precondition(capacity > 0)
        self.capacity = capacity
    }

    /// Queues an item; false (dropping it) once the consumer cancelled.
    @discardableResult
    package func put(_ item: Item) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while items.count >= capacity && !cancelled { condition.wait() }
        guard !cancelled else { return false }
        items.append(item)
        condition.broadcast()
        return true
    }

    /// The next item in order, or nil once closed (or cancelled) and drained.
    package func take() -> Item? {
        condition.lock()
        defer { condition.unlock() }
        while items.isEmpty && !closed && !cancelled { condition.wait() }
        if items.isEmpty || cancelled { return nil }
        let item = items.removeFirst()
        condition.broadcast()
        return item
    }

    /// No more items will come.
    package func close() {
        condition.lock()
        closed = true
        condition.broadcast()
        condition.unlock()
    }

    /// The consumer stops: pending and future items are dropped.
    package func cancel() {
        condition.lock()
        cancelled = true
        items.removeAll()
        condition.broadcast()
        condition.unlock()
    }
}
