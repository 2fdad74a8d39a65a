public import Foundation

/// Runs the producing half of a loop on a second thread, handing its items over in batches, so that
/// reading and preparing rows (on one core) overlaps with what consumes them (on the other):
/// surveying them, or writing them to the store.
///
/// Items reach `consume` in the order `produce` emits them, on the calling thread, to read, not to
/// change: each batch goes back to the producing thread, which frees it (and what `consume` did not
/// keep of its items) at its next hand-over, so that memory is freed on the thread that allocated
/// it. Freed on the other, each block took glibc's lock on the producer's arena while the producer
/// allocated under it, and the producer's next allocations missed its thread cache.
/// When `produce` throws, the items emitted before are consumed first, then its error is thrown.
/// When `consume` throws, the producer is stopped at its next item and `consume`'s error is thrown.
///
/// The producer runs at most `batchesAhead` batches of `batchSize` items ahead of the consumer.
@usableFromInline
package enum BackgroundProducer {
    /// How many items a batch holds unless told.
    @usableFromInline package static let defaultBatchSize = 256
    /// How many batches a producer runs ahead unless told.
    @usableFromInline package static let defaultBatchesAhead = 32
    /// How many items that is: room enough where the consumer takes them as fast as they come.
    @usableFromInline package static let defaultItemsAhead = defaultBatchesAhead * defaultBatchSize

    @inlinable package static func run<Item>(
        batchSize: Int = defaultBatchSize, batchesAhead: Int = defaultBatchesAhead,
        produce: (_ emit: (consuming Item) throws -> Void) throws -> Void, consume: (consuming Item) throws -> Void
    ) throws {
        let channel = BatchChannel<Item>(capacity: batchesAhead)
        let finished = DispatchSemaphore(value: 0)
        try withoutActuallyEscaping(produce) { produce in
            let producer = UncheckedBox(produce)
            let thread = Thread {
                var batch: [Item] = []
                batch.reserveCapacity(batchSize)
                do {
                    try producer.value! { (item: consuming Item) in
                        batch.append(item)
                        if batch.count >= batchSize {
                            batch = try channel.put(batch)
                            if batch.capacity < batchSize { batch.reserveCapacity(batchSize) }
                        }
                    }
                    if !batch.isEmpty { try channel.put(batch) }
                    channel.finish(nil)
                } catch {
                    // The items emitted since the last hand-over go first (unless the consumer stopped).
                    if !batch.isEmpty { _ = try? channel.put(batch) }
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
                    for index in batch.indices { try consume(batch[index]) }
                    channel.giveBack(batch)
                }
            } catch {
                channel.cancel()
                throw error
            }
        }
    }
}
