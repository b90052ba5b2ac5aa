import Foundation

/// The second core's share of parse-feed: decodes raw record batches into normalised
/// records while the SAX thread keeps parsing.
final class RecordBuilderThread: @unchecked Sendable {
    private let queue: BatchQueue
    private var decoder: RawRecordDecoder
    private(set) var collector: FeedCollector
    private let done = DispatchSemaphore(value: 0)
    private var joined = false
    private var started = false

    init(camefrom: String, queue: BatchQueue) {
        self.queue = queue
        decoder = RawRecordDecoder(camefrom: camefrom)
        collector = FeedCollector(camefrom: camefrom)
    }

    func start() {
        started = true
        let thread = Thread { [self] in
            Thread.current.name = "feed-builder"
            while let batch = queue.take() {
                decoder.decode(batch, into: &collector)
                queue.recycle(batch)
            }
            done.signal()
        }
        thread.stackSize = 1 << 20
        thread.start()
    }

    /// Waits for the thread to drain the (closed) queue; safe to call twice.
    func join() {
        guard started, !joined else { return }
        joined = true
        done.wait()
    }
}
