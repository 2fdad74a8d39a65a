import Foundation

extension ContainerStore {
    /// Opens the store at `location` only if there is one: a missing SQLite file is an error rather
    /// than a new, empty store.
    package convenience init(existing location: String) throws {
        if let path = StoreLocation(location).path, !FileManager.default.fileExists(atPath: path) {
            throw CloudSeedError(
                .storeFailure,
                "there is no store here; import or seed something first, or name the store with \(option: .store)",
                at: SourcePosition(file: path))
        }
        try self.init(location)
    }

    /// Runs `body` with the store at `location`; when it fails and the SQLite file did not exist
    /// before, removes the files opening it made, so that a refused first run leaves nothing behind.
    /// A server's store is left to its transaction, which a failed run never commits.
    package static func removingIfNew<Result>(
        _ location: String, _ body: (ContainerStore) throws -> Result
    ) throws -> Result {
        guard let path = StoreLocation(location).path else { return try body(try ContainerStore(location)) }
        let existed = FileManager.default.fileExists(atPath: path)
        do {
            return try body(try ContainerStore(location))
        } catch {
            if !existed {
                for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
            }
            throw error
        }
    }

    /// The store's containers, environments, databases, zones and record types, with their counts:
    /// as text for people, or as JSON.
    package func inventory(asJSON: Bool, model: AppModel? = nil, configuration: String? = nil) throws -> String {
        let inventory = try exclusively { try backend.inventory() }
        guard !asJSON else { return inventory.json }
        guard let model else { return inventory.text }
        let links = try CoreDataLinks(model: model, configuration: configuration)
        return inventory.text(annotating: links.annotation(recordType:field:))
    }

    /// Gives `user` the custom role `role` of the schema of `container`'s `environment`.
    package func assignRole(
        _ role: String, to user: String, in container: String, _ environment: ContainerEnvironment
    ) throws {
        try exclusively {
            try backend.assignRole(role, to: user, in: SchemaScope(container: container, environment: environment))
        }
    }
}
