/// The environment of a container: development creates schema just in time, production refuses to.
public enum ContainerEnvironment: String, CaseIterable, Sendable, Codable {
    case development, production
}

/// The database of a container: one public database, a private one per user, a shared one per user.
public enum DatabaseScope: String, CaseIterable, Sendable, Codable {
    case `public`, `private`, shared
}

/// Identifies a record zone: its name and its owner, as CloudKit's `CKRecordZone.ID`.
public struct RecordZoneID: Hashable, Sendable, Codable {
    /// The name of the default zone every database has.
    public static let defaultZoneName = "_defaultZone"
    /// The owner CloudKit uses for the current user.
    public static let defaultOwnerName = "__defaultOwner__"

    public var zoneName: String
    public var ownerName: String

    public init(zoneName: String = RecordZoneID.defaultZoneName, ownerName: String = RecordZoneID.defaultOwnerName) {
        self.zoneName = zoneName
        self.ownerName = ownerName
    }
}

/// Identifies a record: its name within a zone, as CloudKit's `CKRecord.ID`.
public struct RecordID: Hashable, Sendable {
    public var recordName: String
    public var zoneID: RecordZoneID

    public init(recordName: String, zoneID: RecordZoneID = RecordZoneID()) {
        self.recordName = recordName
        self.zoneID = zoneID
    }
}

/// Where records live in a store: container → environment → database → zone.
public struct StoreScope: Hashable, Sendable {
    public var container: String
    public var environment: ContainerEnvironment
    public var database: DatabaseScope
    public var zoneID: RecordZoneID

    /// The container used when none is named.
    public static let defaultContainer = "iCloud.com.example.cloudseed"

    public init(
        container: String = StoreScope.defaultContainer,
        environment: ContainerEnvironment = .development,
        database: DatabaseScope = .public,
        zoneID: RecordZoneID = RecordZoneID()
    ) {
        self.container = container
        self.environment = environment
        self.database = database
        self.zoneID = zoneID
    }

    /// The container environment, which owns one schema shared by all its databases.
    package var schemaScope: SchemaScope { SchemaScope(container: container, environment: environment) }

    /// A zone as a store's zone table keeps it, each name as text; `nil` for an environment or a
    /// database no store holds.
    package init?(container: String, environment: String, database: String, owner: String, zone: String) {
        guard let environment = ContainerEnvironment(rawValue: environment),
            let database = DatabaseScope(rawValue: database)
        else { return nil }
        self.init(
            container: container, environment: environment, database: database,
            zoneID: RecordZoneID(zoneName: zone, ownerName: owner))
    }
}

/// A container environment: the unit that owns a schema.
package struct SchemaScope: Hashable, Sendable {
    package var container: String
    package var environment: ContainerEnvironment

    package init(container: String, environment: ContainerEnvironment) {
        self.container = container
        self.environment = environment
    }
}
