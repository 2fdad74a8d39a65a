import Foundation

/// Batches handed from a producing thread to a consuming one, in order, at most ``capacity``
/// waiting: a producer that runs ahead waits, so memory stays bounded. The room a run needs is
/// the consumer's longest wait, which the reading thread should fill rather than stop: thirty-two
/// batches of an import's rows, where the store writes as fast as it is handed rows (SQLite);
/// more where the consumer waits for a server in bursts (``StoreTransaction/rowsReadAhead``).
///
/// A thread that waits is woken once a few batches are there to take (or free to fill), not at
/// every batch: waking a thread is a system call that reaches the other core, and a reading thread
/// that woke an idle consumer at every batch spent much of a JSON Lines import doing so.
@usableFromInline package final class BatchChannel<Item>: @unchecked Sendable {
    /// Thrown to the producer when the consumer has stopped.
    package struct Cancelled: Error {}

    private let condition = NSCondition()
    private var batches: [[Item]] = []
    /// Batches the consumer is done with, waiting for the producer to free them.
    private var consumed: [[Item]] = []
    private var isFinished = false
    private var failure: (any Error)?
    private var isCancelled = false
    private let capacity: Int
    /// How many batches wake a waiting consumer, and how many free places a waiting producer.
    private let wakeAt: Int
    private var consumerWaits = false
    private var producerWaits = false

    /// A channel for `capacity` batches (at least 2): a waiting thread is woken at half of it, at
    /// most at sixteen batches.
    @usableFromInline package init(capacity: Int = 32) {
        self.capacity = max(capacity, 2)
        wakeAt = min(self.capacity / 2, 16)
    }

    /// Hands a batch over, waiting while ``capacity`` batches wait; throws ``Cancelled`` once the
    /// consumer has stopped. Returns a batch to fill next: one the consumer handed back
    /// (``giveBack(_:)``), emptied here, with the room it had, or else an empty one. Refilled, the
    /// batches are not allocated again (each new one made glibc gather the small blocks freed
    /// before it).
    @discardableResult
    @usableFromInline package func put(_ batch: [Item]) throws -> [Item] {
        condition.lock()
        while batches.count >= capacity && !isCancelled {
            producerWaits = true
            condition.wait()
        }
        producerWaits = false
        if isCancelled {
            condition.unlock()
            throw Cancelled()
        }
        batches.append(batch)
        var done = consumed
        consumed = []
        if consumerWaits && batches.count >= wakeAt { condition.broadcast() }
        condition.unlock()
        guard var next = done.popLast() else { return [] }
        _ = consume done
        next.removeAll(keepingCapacity: true)
        return next
    }

    /// Hands a taken batch back, to be freed by the producer at its next ``put(_:)``: memory is
    /// freed on the thread that allocated it.
    @usableFromInline package func giveBack(_ batch: consuming [Item]) {
        condition.lock()
        consumed.append(batch)
        condition.unlock()
    }

    /// The next batch, `nil` once the producer finished and everything was taken, or its error.
    @usableFromInline package func take() throws -> [Item]? {
        condition.lock()
        defer { condition.unlock() }
        while batches.isEmpty && !isFinished {
            consumerWaits = true
            condition.wait()
        }
        consumerWaits = false
        if !batches.isEmpty {
            let batch = batches.removeFirst()
            if producerWaits && capacity - batches.count >= wakeAt { condition.broadcast() }
            return batch
        }
        if let failure { throw failure }
        return nil
    }

    /// Ends the producer's side: with its error, which the consumer gets after the batches before it.
    @usableFromInline package func finish(_ error: (any Error)?) {
        condition.lock()
        isFinished = true
        failure = error
        condition.broadcast()
        condition.unlock()
    }

    /// Stops the producer at its next ``put(_:)``.
    @usableFromInline package func cancel() {
        condition.lock()
        isCancelled = true
        condition.broadcast()
        condition.unlock()
    }
}

/// A value handed to another thread; only that thread uses it until the work ends.
@usableFromInline package final class UncheckedBox<Value>: @unchecked Sendable {
    @usableFromInline package var value: Value?
    @usableFromInline package init(_ value: Value) { self.value = value }
}
