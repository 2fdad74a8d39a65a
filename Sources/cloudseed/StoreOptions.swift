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

    /// The store `--store` names, else `CLOUDSEED_STORE`, else `cloudseed.sqlite`.
    var location: String {
        store ?? ProcessInfo.processInfo.environment["CLOUDSEED_STORE"].flatMap { $0.isEmpty ? nil : $0 }
            ?? "cloudseed.sqlite"
    }

    /// Opens the store; with `mustExist`, a missing SQLite file is an error rather than a new empty store.
    func open(mustExist: Bool = false) throws -> ContainerStore {
        mustExist ? try ContainerStore(existing: location) : try ContainerStore(location)
    }
}

/// The options that say which store, container, environment, database and zone a command uses.
struct StoreOptions: ParsableArguments {
    @OptionGroup var storeLocation: StoreLocationOption

    @Option(help: ArgumentHelp("The container identifier.", valueName: "id"))
    var container = StoreScope.defaultContainer

    @Option(help: "The container environment: development or production.")
    var environment: ContainerEnvironment = .development

    @Option(help: "The database: public, private or shared. Default: public; private with --model.")
    var database: DatabaseScope?

    @Option(
        help: ArgumentHelp(
            "The record zone. Default: _defaultZone; with --model in the private database, Core Data's zone.",
            valueName: "name"))
    var zone: String?

    @Option(help: ArgumentHelp("The user who owns the zone and creates the records.", valueName: "name"))
    var user = RecordZoneID.defaultOwnerName

    /// The zone: the public database has one, whoever acts; private and shared zones belong to `--user`.
    var scope: StoreScope { scope(appModel: false) }

    /// The scope; for an app's model (`--model`), its objects' place by default: Core Data's zone
    /// of the private database.
    func scope(appModel: Bool) -> StoreScope {
        let database = database ?? (appModel ? .private : .public)
        let zone = zone ?? (appModel && database != .public ? CoreDataNames.zoneName : RecordZoneID.defaultZoneName)
        return StoreScope(
            container: container, environment: environment, database: database,
            zoneID: RecordZoneID(zoneName: zone, ownerName: database == .public ? RecordZoneID.defaultOwnerName : user))
    }

    /// Opens the store; with `mustExist`, a missing SQLite file is an error rather than a new empty store.
    func openStore(mustExist: Bool = false) throws -> ContainerStore {
        try storeLocation.open(mustExist: mustExist)
    }
}

extension ContainerEnvironment: ExpressibleByArgument {}
extension DatabaseScope: ExpressibleByArgument {}
extension ExportFormat: ExpressibleByArgument {}
extension SourceFormat: ExpressibleByArgument {}
extension SaveMode: ExpressibleByArgument {}
