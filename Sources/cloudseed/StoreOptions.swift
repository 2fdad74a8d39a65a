public import ArgumentParser
import CloudSeed
import Foundation

/// The `--store` option of every command that opens a store.
struct StoreLocationOption: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "The store: a SQLite file (or sqlite:PATH), or postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE. Default: $CLOUDSEED_STORE, else cloudseed.sqlite.",
            valueName: "store"))
    var store: String?

    var location: StoreLocation { StoreLocation(option: store) }

    /// Opens the store; with `mustExist`, a missing SQLite file is an error rather than a new empty store.
    func open(mustExist: Bool = false) throws -> any StoreBackend {
        try StoreFile.open(location, mustExist: mustExist)
    }
}

/// The options that say which store, container, environment, database and zone a command uses.
struct StoreOptions: ParsableArguments {
    @OptionGroup var storeLocation: StoreLocationOption

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
        StoreScope(
            container: container, environment: environment, database: database,
            zoneID: RecordZoneID(zoneName: zone, ownerName: database == .public ? RecordZoneID.defaultOwnerName : user))
    }

    /// Opens the store; with `mustExist`, a missing SQLite file is an error rather than a new empty store.
    func openStore(mustExist: Bool = false) throws -> any StoreBackend {
        try storeLocation.open(mustExist: mustExist)
    }
}

/// Opening stores for commands: the one place a command gets its `any StoreBackend`.
enum StoreFile {
    static func open(_ location: StoreLocation, mustExist: Bool) throws -> any StoreBackend {
        if mustExist, let path = location.path, !FileManager.default.fileExists(atPath: path) {
            throw CloudSeedError(
                .storeFailure, "there is no store here; import or seed something first, or name the store with --store",
                at: SourcePosition(file: path))
        }
        return try location.open()
    }

    /// Runs `body`; when it fails and the SQLite file did not exist before, removes the files opening
    /// it made, so that a refused first run leaves nothing behind. A server's store is left to its
    /// transaction, which a failed run never commits.
    static func removingIfNew<T>(_ location: StoreLocation, _ body: () throws -> T) throws -> T {
        guard let path = location.path else { return try body() }
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
