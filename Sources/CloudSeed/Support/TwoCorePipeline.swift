import Foundation

/// Runs the producing half of a loop on a second thread, handing its items over in batches, so that
/// reading and preparing rows (on one core) overlaps with what consumes them (on the other):
/// surveying them, or writing them to the store.
///
/// Items reach `consume` in the order `produce` emits them, on the calling thread. When `produce`
/// throws, the items emitted before are consumed first, then its error is thrown. When `consume`
/// throws, the producer is stopped at its next item and `consume`'s error is thrown.
enum TwoCorePipeline {
    static func run<Item>(
        batchSize: Int = 256, produce: (_ emit: (Item) throws -> Void) throws -> Void, consume: (Item) throws -> Void
    ) throws {
        let channel = Channel<Item>()
        let finished = DispatchSemaphore(value: 0)
        try withoutActuallyEscaping(produce) { produce in
            let producer = Unchecked(produce)
            let thread = Thread {
                var batch: [Item] = []
                batch.reserveCapacity(batchSize)
                do {
                    try producer.value! { item in
                        batch.append(item)
                        if batch.count >= batchSize {
                            try channel.put(batch)
                            batch.removeAll(keepingCapacity: true)
                        }
                    }
                    if !batch.isEmpty { try channel.put(batch) }
                    channel.finish(nil)
                } catch {
                    channel.finish(error)
                }
                finished.signal()
            }
            thread.stackSize = 1 << 26  // deep documents recurse as deep on this thread as on the main one
            thread.start()
            defer {
                finished.wait()
                producer.value = nil  // the thread object may outlive the run; the closure must not
            }
            do {
                while let batch = try channel.take() {
                    for item in batch { try consume(item) }
                }
            } catch {
                channel.cancel()
                throw error
            }
        }
    }

    /// Thrown to the producer when the consumer has stopped.
    private struct Cancelled: Error {}

    /// A value handed to the producer thread; only that thread uses it until the pipeline ends.
    private final class Unchecked<Value>: @unchecked Sendable {
        var value: Value?
        init(_ value: Value) { self.value = value }
    }

    /// The batches between the threads, at most ``capacity`` waiting.
    private final class Channel<Item>: @unchecked Sendable {
        private let condition = NSCondition()
        private var batches: [[Item]] = []
        private var isFinished = false
        private var failure: (any Error)?
        private var isCancelled = false
        private let capacity = 8

        func put(_ batch: [Item]) throws {
            condition.lock()
            defer { condition.unlock() }
            while batches.count >= capacity && !isCancelled { condition.wait() }
            if isCancelled { throw Cancelled() }
            batches.append(batch)
            condition.broadcast()
        }

        /// The next batch, `nil` once the producer finished and everything was taken, or its error.
        func take() throws -> [Item]? {
            condition.lock()
            defer { condition.unlock() }
            while batches.isEmpty && !isFinished { condition.wait() }
            if !batches.isEmpty {
                condition.broadcast()
                return batches.removeFirst()
            }
            if let failure { throw failure }
            return nil
        }

        func finish(_ error: (any Error)?) {
            condition.lock()
            isFinished = true
            failure = error
            condition.broadcast()
            condition.unlock()
        }

        func cancel() {
            condition.lock()
            isCancelled = true
            condition.broadcast()
            condition.unlock()
        }
    }
}
