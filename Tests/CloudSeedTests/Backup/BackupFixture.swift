import CloudSeedTestSupport
import Foundation

@testable import CloudSeed
@testable import CloudSeedCore
@testable import CloudSeedReaders
@testable import CloudSeedSchema
@testable import CloudSeedStore

/// A store holding every field type, assets with and without content, four zones in three
/// databases, and a promoted production schema with records of its own; and helpers to read
/// stores and bundles back.
struct BackupFixture {
    let folder: TemporaryFolder

    static let aliceWork = StoreScope(database: .private, zoneID: RecordZoneID(zoneName: "Work", ownerName: "_alice"))
    static let bobFamily = StoreScope(database: .shared, zoneID: RecordZoneID(zoneName: "Family", ownerName: "_bob"))
    static let production = StoreScope(environment: .production)

    init() throws { folder = try TemporaryFolder() }

    /// A new store at `name` filled with the fixture's records.
    func filledStore(_ name: String = "original.sqlite") throws -> SQLiteContainerStore {
        let store = try SQLiteContainerStore(path: folder.path(name))
        try Self.fill(store)
        return store
    }

    /// Fills an empty store of any backend with the fixture's records.
    static func fill(_ store: any StoreBackend) throws {
        // AllTypes.json's assets are metadata only, whose bytes no store holds.
        var options = MappingOptions()
        options.allowDangling = true
        func load(_ files: [String], into scope: StoreScope = StoreScope(), at now: Int64) throws {
            _ = try Importer(store: ContainerStore(backend: store), scope: scope, options: options, now: now).run(
                files.map { try SourceFile(path: Repository.sample($0)) })
        }
        try load(["CloudKit/AllTypes.json"], at: 1_700_000_000_000)
        try load(["Gallery/artists.csv", "Gallery/artworks.plist"], at: 1_700_000_001_000)
        try load(["ToDoItems/ToDoItems.plist"], into: Self.aliceWork, at: 1_700_000_002_000)
        _ = try SchemaOperations(store: ContainerStore(backend: store), container: StoreScope.defaultContainer)
            .promote()
        try load(["ToDoItems/ToDoItems.json"], into: Self.production, at: 1_700_000_003_000)
        try load(["Person/Person.plist"], into: Self.bobFamily, at: 1_700_000_004_000)
    }

    /// Every record of a container, zone by zone in inventory order.
    static func records(of store: any StoreBackend, container: String = StoreScope.defaultContainer) throws
        -> [CloudRecord]
    {
        var records: [CloudRecord] = []
        for scope in try store.zones() where scope.container == container {
            try store.forEachRecord(in: scope, recordType: nil) { records.append($0) }
        }
        return records
    }

    /// The files of a bundle by path inside it, with their bytes.
    static func files(in bundle: String) throws -> [String: Data] {
        let root = URL(fileURLWithPath: bundle)
        var files: [String: Data] = [:]
        let enumerator = FileManager.default.enumerator(atPath: bundle)
        while let path = enumerator?.nextObject() as? String {
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(
                atPath: root.appendingPathComponent(path).path, isDirectory: &isDirectory), !isDirectory.boolValue
            {
                files[path] = try Data(contentsOf: root.appendingPathComponent(path))
            }
        }
        return files
    }

    /// The names in `folder` other than the store files, for checking that no partial bundle is left.
    func entries() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.url.path).filter { !$0.contains(".sqlite") }.sorted()
    }

    /// The error `body` throws, as printed.
    static func error(_ body: () throws -> Void) -> String? {
        do {
            try body()
            return nil
        } catch {
            return "\(error)"
        }
    }
}
