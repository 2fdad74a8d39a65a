public import Foundation

/// A container store: containers, their development and production environments, databases,
/// zones and records, with a schema per container environment — in one SQLite file, or in a
/// PostgreSQL database a team shares.
///
/// ```swift
/// let store = try ContainerStore("cloudseed.sqlite")  // or "postgres://seed@localhost/cloudseed"
/// try Seeder(store: store).run(FixtureManifest(path: "SampleData/gallery.json"))
/// let artworks = try store.records(in: StoreScope(container: "iCloud.com.example.Gallery"), ofType: "Artwork")
/// ```
///
/// ``Importer``, ``Seeder``, ``BackupWriter`` and ``Restorer`` write through it. A store may be
/// shared between threads: each call, and each run through it, has the store to itself while
/// calls from other threads wait.
public final class ContainerStore: @unchecked Sendable {
    /// The SQLite or PostgreSQL store behind it, used only while `lock` is held.
    package let backend: any StoreBackend
    /// Where the store is, as messages show it: a SQLite file's path, or a PostgreSQL URL without its password.
    package let location: String
    /// Held for each call and run; recursive, as a run calls the store's own methods.
    private let lock = NSRecursiveLock()

    /// Opens the store `location` names, creating an empty one if there is none: a SQLite file's
    /// path (or `sqlite:PATH`), or a PostgreSQL URL (`postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE`),
    /// as `--store` takes them.
    public convenience init(_ location: String) throws {
        let parsed = StoreLocation(location)
        self.init(backend: try parsed.open(), location: parsed.description)
    }

    package init(backend: any StoreBackend, location: String = ":memory:") {
        self.backend = backend
        self.location = location
    }

    /// Runs `body` with the store to itself: calls from other threads wait until it returns.
    package func exclusively<Result>(_ body: () throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body()
    }

    /// An empty SQLite store in memory, gone with the value: for tests.
    public static func inMemory() throws -> ContainerStore {
        ContainerStore(backend: try SQLiteContainerStore.inMemory())
    }

    /// The records of a zone (or of one type in it), by record type then record name in byte order.
    public func records(in scope: StoreScope, ofType recordType: String? = nil) throws -> [CloudRecord] {
        var records: [CloudRecord] = []
        try forEachRecord(in: scope, ofType: recordType) { records.append($0) }
        return records
    }

    /// Calls `body` with each record of a zone (or of one type in it), in ``records(in:ofType:)``'s
    /// order, without holding them all.
    public func forEachRecord(
        in scope: StoreScope, ofType recordType: String? = nil, _ body: (CloudRecord) throws -> Void
    ) throws {
        try exclusively { try backend.forEachRecord(in: scope, recordType: recordType, body) }
    }

    /// The records `query` selects, by CloudKit's rules: filters and sorts only on fields the
    /// schema indexes for them, and in the public database only what the query's user may read.
    public func query(_ query: RecordQuery, in scope: StoreScope) throws -> [CloudRecord] {
        try exclusively { try backend.query(query, in: scope) }
    }

    /// The schema of a container environment, as the CloudKit Schema Language writes it.
    public func schema(
        of container: String = StoreScope.defaultContainer, environment: ContainerEnvironment = .development
    ) throws -> SchemaDefinition {
        try exclusively {
            try backend.schemaDefinition(of: SchemaScope(container: container, environment: environment))
        }
    }

    /// The bytes of the asset with this checksum, if the store holds them (assets imported as
    /// metadata only have none).
    public func assetContent(checksum: String) throws -> Data? {
        try exclusively { try backend.assetContent(checksum) }
    }
}
