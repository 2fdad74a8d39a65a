import CloudSeed
import Dispatch

/// Runs each request's store work on a thread of its own, one request at a time, so that the
/// store's blocking calls never hold the server's threads.
final class StoreWorker: Sendable {
    let store: ContainerStore
    private let queue = DispatchQueue(label: "cloudseed.serve.store")

    init(store: ContainerStore) {
        self.store = store
    }

    func run<Result: Sendable>(_ body: @escaping @Sendable (ContainerStore) throws -> Result) async throws -> Result {
        try await withCheckedThrowingContinuation { continuation in
            queue.async { continuation.resume(with: Swift.Result { try body(self.store) }) }
        }
    }
}
