import Foundation

/// A bounded hand-off of record batches from the SAX thread to the record-building thread.
final class BatchQueue: @unchecked Sendable {
    private let condition = NSCondition()
    private var items: [RawRecordBatch] = []
    private var closed = false
    private let capacity: Int

    init(capacity: Int = 4) {
        self.capacity = capacity
    }

    func put(_ batch: RawRecordBatch) {
        condition.lock()
        while items.count >= capacity && !closed { condition.wait() }
        items.append(batch)
        condition.broadcast()
        condition.unlock()
    }

    /// The next batch, or nil once closed and drained.
    func take() -> RawRecordBatch? {
        condition.lock()
        defer { condition.unlock() }
        while items.isEmpty && !closed { condition.wait() }
        if items.isEmpty { return nil }
        let b = items.removeFirst()
        condition.broadcast()
        return b
    }

    /// Emptied batches come back here so their buffers are reused (no cross-thread frees).
    private var spare: [RawRecordBatch] = []

    func recycle(_ batch: RawRecordBatch) {
        batch.reset()
        condition.lock()
        if spare.count < capacity + 2 { spare.append(batch) }
        condition.unlock()
    }

    func fresh(capacity: Int) -> RawRecordBatch {
        condition.lock()
        defer { condition.unlock() }
        return spare.popLast() ?? RawRecordBatch(capacity: capacity)
    }

    func close() {
        condition.lock()
        closed = true
        condition.broadcast()
        condition.unlock()
    }
}
