import Foundation
import Testing
@testable import TonightCore

/// The bounded hand-off between the ranking threads and the writer thread of `tickets`.
@Suite struct HandoffTests {
    @Test func itemsArriveInOrderAndTheProducerIsBounded() throws {
        let handoff = Handoff<Int>(capacity: 2)
        let received = ResultBox<[Int]>(1)
        let consumer = BackgroundJob()
        consumer.start {
            var got: [Int] = []
            while let i = handoff.take() {
                got.append(i)
                if i % 100 == 0 { usleep(1000) }  // a slow consumer: the producer must wait, not drop
            }
            received.set(0, got)
        }
        for i in 0..<1_000 { #expect(handoff.put(i)) }
        handoff.close()
        try consumer.join()
        #expect(received.values[0] == Array(0..<1_000))
    }

    @Test func aFailingConsumerStopsTheProducer() throws {
        struct Failure: Error {}
        let handoff = Handoff<Int>(capacity: 1)
        let consumer = BackgroundJob()
        consumer.start {
            _ = handoff.take()
            handoff.cancel()
            throw Failure()
        }
        var accepted = 0
        for i in 0..<10_000 {
            guard handoff.put(i) else { break }
            accepted += 1
        }
        #expect(accepted < 10_000)
        #expect(throws: Failure.self) { try consumer.join() }
        #expect(handoff.take() == nil)
    }

    @Test func bothRunsTwoJobsAndRethrows() throws {
        let (a, b) = try Parallel.both({ (1...100).reduce(0, +) }, { "two" })
        #expect(a == 5050 && b == "two")
        struct Failure: Error {}
        #expect(throws: Failure.self) { _ = try Parallel.both({ 1 }, { () throws -> Int in throw Failure() }) }
    }
}
