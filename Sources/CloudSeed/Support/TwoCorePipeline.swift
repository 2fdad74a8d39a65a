import Foundation

/// Runs the producing half of a loop on a second thread, handing its items over in batches, so that
/// reading and preparing rows (on one core) overlaps with what consumes them (on the other):
/// surveying them, or writing them to the store.
///
/// Items reach `consume` in the order `produce` emits them, on the calling thread, each handed
/// over (consumed), so that what it holds is not shared with the pipeline. When `produce`
/// throws, the items emitted before are consumed first, then its error is thrown. When `consume`
/// throws, the producer is stopped at its next item and `consume`'s error is thrown.
enum TwoCorePipeline {
    static func run<Item>(
        batchSize: Int = 256, produce: (_ emit: (consuming Item) throws -> Void) throws -> Void, consume: (consuming Item) throws -> Void
    ) throws {
        // Items travel as optionals, so that each is taken out of its batch, not copied.
        let channel = BatchChannel<Item?>()
        let finished = DispatchSemaphore(value: 0)
        try withoutActuallyEscaping(produce) { produce in
            let producer = UncheckedBox(produce)
            let thread = Thread {
                var batch: [Item?] = []
                batch.reserveCapacity(batchSize)
                do {
                    try producer.value! { (item: consuming Item) in
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
                while var batch = try channel.take() {
                    for index in batch.indices { try consume(batch[index].take()!) }
                }
            } catch {
                channel.cancel()
                throw error
            }
        }
    }
}
