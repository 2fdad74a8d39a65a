import ArgumentParser
import Foundation
import CloudSeed

/// The options that say which store, container, environment, database and zone a command uses.
struct StoreOptions: ParsableArguments {
    @Option(help: ArgumentHelp("The SQLite store file.", valueName: "path"))
    var store = "cloudseed.sqlite"

    @Option(help: ArgumentHelp("The container identifier.", valueName: "id"))
    var container = StoreScope.defaultContainer

    @Option(help: "The container environment: development or production.")
    var environment: ContainerEnvironment = .development

    @Option(help: "The database: public, private or shared.")
    var database: DatabaseScope = .public

    @Option(help: ArgumentHelp("The record zone.", valueName: "name"))
    var zone = RecordZoneID.defaultZoneName

    @Option(help: ArgumentHelp("The user who owns the zone and creates the records.", valueName: "name"))
    var user = RecordZoneID.defaultOwnerName

    /// The zone: the public database has one, whoever acts; private and shared zones belong to `--user`.
    var scope: StoreScope {
        StoreScope(container: container, environment: environment, database: database,
                   zoneID: RecordZoneID(zoneName: zone, ownerName: database == .public ? RecordZoneID.defaultOwnerName : user))
    }

    /// Opens the store; with `mustExist`, a missing file is an error rather than a new empty store.
    func openStore(mustExist: Bool = false) throws -> SQLiteContainerStore {
        try StoreFile.open(store, mustExist: mustExist)
    }
}

/// Opening store files for commands.
enum StoreFile {
    static func open(_ path: String, mustExist: Bool) throws -> SQLiteContainerStore {
        if mustExist, !FileManager.default.fileExists(atPath: path) {
            throw CloudSeedError("there is no store here; import or seed something first, or name the store with --store", at: SourcePosition(file: path))
        }
        return try SQLiteContainerStore(path: path)
    }

    /// Runs `body`; when it fails and `path` did not exist before, removes the files opening it made,
    /// so that a refused first run leaves nothing behind.
    static func removingIfNew<T>(_ path: String, _ body: () throws -> T) throws -> T {
        let existed = FileManager.default.fileExists(atPath: path)
        do {
            return try body()
        } catch {
            if !existed {
                for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
            }
            throw error
        }
    }
}

extension ContainerEnvironment: ExpressibleByArgument {}
extension DatabaseScope: ExpressibleByArgument {}
extension ExportFormat: ExpressibleByArgument {}
extension SourceFormat: ExpressibleByArgument {}
extension SaveMode: ExpressibleByArgument {}
