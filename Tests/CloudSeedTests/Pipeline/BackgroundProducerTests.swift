import Foundation
import Testing

@testable import CloudSeed
@testable import CloudSeedCore
@testable import CloudSeedReaders
@testable import CloudSeedSchema
@testable import CloudSeedStore

@Suite struct BackgroundProducerTests {
    struct Stop: Error, Equatable { let at: Int }

    /// Every item arrives once, in order, whether the consumer is slower than the producer (the
    /// channel fills and the producer waits) or faster (the consumer waits for batches).
    @Test(arguments: [(batchSize: 1, slowConsumer: true), (256, true), (256, false), (7, false)])
    func handsEveryItemOverInOrder(batchSize: Int, slowConsumer: Bool) throws {
        let count = 20_000
        var received: [Int] = []
        try BackgroundProducer.run(
            batchSize: batchSize,
            produce: { emit in
                for item in 0..<count {
                    if !slowConsumer, item % 1_000 == 0 { Thread.sleep(forTimeInterval: 0.001) }
                    try emit(item)
                }
            },
            consume: { item in
                if slowConsumer, item % 1_000 == 0 { Thread.sleep(forTimeInterval: 0.001) }
                received.append(item)
            })
        #expect(received == Array(0..<count))
    }

    /// Items made on the producing thread are handed back, once read, to be freed there.
    @Test func freesWhereMadeAndStillHandsEveryItemOver() throws {
        var total = 0
        try BackgroundProducer.run(
            batchSize: 64,
            produce: { emit in
                for item in 0..<10_000 { try emit([item, item]) }
            }, consume: { (pair: [Int]) in total += pair[0] + pair[1] })
        #expect(total == 2 * (0..<10_000).reduce(0, +))
    }

    /// A batch handed back is emptied by the producer's next hand-over and returned to be filled
    /// again, with the room it had: its items are freed on the producing thread.
    @Test func aBatchHandedBackComesBackEmptyToBeFilledAgain() throws {
        let channel = BatchChannel<[Int]>()
        var first = [[1], [2], [3]]
        first.reserveCapacity(64)
        #expect(try channel.put(first).isEmpty)  // nothing handed back yet
        let taken = try #require(try channel.take())
        #expect(taken == [[1], [2], [3]])
        channel.giveBack(taken)
        let next = try channel.put([[4]])
        #expect(next.isEmpty && next.capacity >= 64)
        #expect(try channel.take() == [[4]])
    }

    /// A producer's error reaches the caller after every item emitted before it.
    @Test func aProducersErrorComesAfterItsItems() {
        var received: [Int] = []
        #expect(throws: Stop(at: 5_000)) {
            try BackgroundProducer.run(
                produce: { emit in
                    for item in 0..<5_000 { try emit(item) }
                    throw Stop(at: 5_000)
                }, consume: { received.append($0) })
        }
        #expect(received == Array(0..<5_000))
    }

    /// A consumer's error stops the producer, whatever it was waiting for.
    @Test func aConsumersErrorStopsTheProducer() {
        let produced = Counter()
        #expect(throws: Stop(at: 300)) {
            try BackgroundProducer.run(
                batchSize: 16,
                produce: { emit in
                    for item in 0..<1_000_000 {
                        try emit(item)
                        produced.add(1)
                    }
                },
                consume: { item in
                    if item == 300 { throw Stop(at: 300) }
                })
        }
        // The producer stops at its next hand-over: after the batch of the failing item (288-303),
        // at most the 32 batches the channel holds and the one it was filling.
        #expect(produced.value <= 304 + 32 * 16 + 15)
    }
}

/// A counter shared by two threads.
private final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    func add(_ amount: Int) { lock.withLock { count += amount } }
    var value: Int { lock.withLock { count } }
}
