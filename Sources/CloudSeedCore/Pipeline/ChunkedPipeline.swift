public import Foundation

/// Runs several producers at once, each on a thread of its own, over chunks of work that must be
/// consumed in order: producer `p` of `n` makes chunks `p`, `p + n`, `p + 2n`, …, and the calling
/// thread consumes chunk 0, then chunk 1, and so on. Each producer runs ahead by a few batches
/// (``BatchChannel``), so memory stays bounded.
///
/// When a producer throws, the items before its failing chunk's are consumed, then its error is
/// thrown. When `consume` throws, the producers are stopped at their next item and its error is thrown.
@usableFromInline package enum ChunkedPipeline {
    @usableFromInline enum Piece<Item> {
        case item(Item)
        case endOfChunk
    }

    @inlinable package static func run<Item>(
        chunkCount: Int, producerCount: Int,
        produce: (_ producer: Int, _ chunk: Int, _ emit: (Item) throws -> Void) throws -> Void,
        consume: (Item) throws -> Void
    ) throws {
        let channels = (0..<producerCount).map { _ in BatchChannel<Piece<Item>>() }
        let finished = DispatchSemaphore(value: 0)
        try withoutActuallyEscaping(produce) { produce in
            let work = UncheckedBox(produce)
            for producer in 0..<producerCount {
                let channel = channels[producer]
                Thread {
                    do {
                        for chunk in stride(from: producer, to: chunkCount, by: producerCount) {
                            try work.value!(producer, chunk) { try channel.put([.item($0)]) }
                            try channel.put([.endOfChunk])
                        }
                        channel.finish(nil)
                    } catch {
                        channel.finish(error)
                    }
                    finished.signal()
                }.start()
            }
            defer {
                for _ in 0..<producerCount { finished.wait() }
                work.value = nil  // the thread objects may outlive the run; the closure must not
            }
            do {
                for chunk in 0..<chunkCount {
                    try consumeChunk(from: channels[chunk % producerCount], consume)
                }
            } catch {
                for channel in channels { channel.cancel() }
                throw error
            }
        }
    }

    @inlinable static func consumeChunk<Item>(from channel: BatchChannel<Piece<Item>>, _ consume: (Item) throws -> Void)
        throws
    {
        // Each batch goes back to its producer to be freed, as in ``BackgroundProducer``.
        while let pieces = try channel.take() {
            defer { channel.giveBack(pieces) }
            for piece in pieces {
                guard case .item(let item) = piece else { return }
                try consume(item)
            }
        }
    }
}
