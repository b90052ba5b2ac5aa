import Foundation
import Testing
@testable import TonightBase

/// The package's one set of concurrency primitives: the bounded hand-off, the background job,
/// the locked box and the parallel loops.
@Suite(.serialized) struct PrimitivesTests {
    @Test func itemsArriveInOrderAndTheProducerIsBounded() throws {
        let handoff = Handoff<Int>(capacity: 2)
        let received = Locked<[Int]>([])
        let consumer = BackgroundJob()
        consumer.start {
            var got: [Int] = []
            while let i = handoff.take() {
                got.append(i)
                if i % 100 == 0 { usleep(1000) }  // a slow consumer: the producer must wait, not drop
            }
            received.withLock { $0 = got }
        }
        for i in 0..<1_000 { #expect(handoff.put(i)) }
        handoff.close()
        try consumer.join()
        #expect(received.current == Array(0..<1_000))
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

    /// Results come back in index order whatever the width, and every index runs once.
    @Test(arguments: [1, 2, 3, 16])
    func mapKeepsIndexOrderAtAnyWidth(_ width: Int) throws {
        let calls = Locked(0)
        let squares = try Parallel.map(1_000, width: width) { i -> Int in
            calls.withLock { $0 += 1 }
            return i * i
        }
        #expect(squares == (0..<1_000).map { $0 * $0 })
        #expect(calls.current == 1_000)
    }

    /// An explicit width bounds the bodies running at once, whatever the package's width:
    /// the tickets and playmate stages lend each running chunk one of `workers` rankers and
    /// pass `width: workers`, since the package's width is global and another run or test in
    /// the process may change it meanwhile (the stages once took it from there, and a test
    /// that set it to 5 beside a run of `tickets` made a chunk find no free ranker).
    @Test(arguments: [1, 2, 3])
    func anExplicitWidthBoundsTheBodiesAtOnce(_ width: Int) throws {
        let running = Locked(0), most = Locked(0)
        let out = try Parallel.map(48, width: width) { i -> Int in
            let now = running.withLock { n -> Int in
                n += 1
                return n
            }
            most.withLock { $0 = max($0, now) }
            usleep(1_000)
            running.withLock { $0 -= 1 }
            return i
        }
        #expect(out == Array(0..<48))
        #expect(most.current >= 1 && most.current <= width, "\(most.current) bodies at once on width \(width)")
    }

    @Test func theFirstErrorIsRethrownAndWorkStops() {
        struct Failure: Error { var at: Int }
        let ran = Locked(0)
        #expect(throws: Failure.self) {
            try Parallel.forEach(100_000) { i in
                ran.withLock { $0 += 1 }
                if i == 10 { throw Failure(at: i) }
            }
        }
        #expect(ran.current < 100_000)
    }

    /// Parts write disjoint ranges of one array through the shared buffer.
    @Test func writingFillsDisjointParts() throws {
        var array = [Int](repeating: -1, count: 10_001)
        let sums = try Parallel.writing(into: &array, parts: 7) { p, buffer in
            var sum = 0
            for i in Parallel.range(p, of: 7, in: buffer.count) {
                buffer[i] = i
                sum += i
            }
            return sum
        }
        #expect(array == Array(0..<10_001))
        #expect(sums.reduce(0, +) == (0..<10_001).reduce(0, +))
        #expect((0..<7).map { Parallel.range($0, of: 7, in: 10_001).count }.reduce(0, +) == 10_001)
    }
}
