import ArgumentParser
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

    var scope: StoreScope {
        StoreScope(container: container, environment: environment, database: database,
                   zoneID: RecordZoneID(zoneName: zone, ownerName: user))
    }

    func openStore() throws -> SQLiteContainerStore {
        try SQLiteContainerStore(path: store)
    }
}

extension ContainerEnvironment: ExpressibleByArgument {}
extension DatabaseScope: ExpressibleByArgument {}
extension ExportFormat: ExpressibleByArgument {}
extension SourceFormat: ExpressibleByArgument {}
extension SaveMode: ExpressibleByArgument {}
