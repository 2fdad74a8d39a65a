/// A fixtures manifest: the store's target and the sources to seed it with, each with its mapping.
///
/// ```json
/// {"container": "iCloud.com.example.Gallery", "environment": "development", "database": "public",
///  "zone": "_defaultZone", "schema": "schema.ckdb",
///  "sources": [
///    {"file": "artists.csv", "recordType": "Artist", "recordName": "{firstName} {lastName}"},
///    {"file": "artworks.plist", "recordType": "Artwork", "recordName": "{catalogNumber}",
///     "fields": {"artist": {"reference": "Artist"}, "image": {"asset": true},
///                "location": {"location": ["latitude", "longitude"]}, "price": {"type": "DOUBLE"},
///                "acquired": {"dateFormat": "dd/MM/yyyy"}}}]}
/// ```
///
/// Every key but `sources[].file` is optional; paths are relative to the manifest. With `"model"`
/// (a `.xcdatamodeld` or SwiftData sources, and `"configuration"` to pick one of its
/// configurations), rows are read as the app's objects, by default into Core Data's zone of the
/// private database.
public struct FixtureManifest: Sendable {
    public var container: String
    public var environment: ContainerEnvironment
    public var database: DatabaseScope
    public var zone: String
    /// The owner of the zone and creator of the records.
    public var user: String
    /// A `.ckdb` file applied to the environment before the sources are read.
    public var schema: String?
    /// The app's Core Data model or SwiftData sources whose objects the rows are (`import --model`).
    public var model: String?
    /// The configuration of ``model`` whose entities the rows may be objects of.
    public var modelConfiguration: String?
    public var sources: [FixtureSource]

    public init(
        container: String = StoreScope.defaultContainer, environment: ContainerEnvironment = .development,
        database: DatabaseScope = .public, zone: String = RecordZoneID.defaultZoneName,
        user: String = RecordZoneID.defaultOwnerName, schema: String? = nil, sources: [FixtureSource]
    ) {
        self.container = container
        self.environment = environment
        self.database = database
        self.zone = zone
        self.user = user
        self.schema = schema
        self.sources = sources
    }

    /// Where the manifest puts records.
    public var scope: StoreScope {
        StoreScope(
            container: container, environment: environment, database: database,
            zoneID: RecordZoneID(zoneName: zone, ownerName: user))
    }
}

/// One source of a manifest and how its rows map to records.
public struct FixtureSource: Sendable {
    public var file: String
    public var recordType: String?
    /// A name template, as `{firstName} {lastName}`.
    public var recordName: String?
    public var format: SourceFormat?
    public var fields: [String: FixtureField]

    public init(
        file: String, recordType: String? = nil, recordName: String? = nil, format: SourceFormat? = nil,
        fields: [String: FixtureField] = [:]
    ) {
        self.file = file
        self.recordType = recordType
        self.recordName = recordName
        self.format = format
        self.fields = fields
    }
}

/// How one field of a source maps: a type, a reference, an asset, a location made of columns, or
/// the order of day and month in its dates.
public struct FixtureField: Sendable {
    public var type: FieldType?
    /// The record type the field's values name.
    public var reference: String?
    public var action: ReferenceAction = .none
    public var asset = false
    /// The source keys of latitude and longitude, or one key holding `"lat,lon"`.
    public var location: [String]?
    /// How the field's dates written in numbers are read, `MM/dd/yyyy` or `dd/MM/yyyy`, as
    /// `import --date-format` reads them.
    public var dateFormat: String?

    public init(
        type: FieldType? = nil, reference: String? = nil, action: ReferenceAction = .none, asset: Bool = false,
        location: [String]? = nil
    ) {
        self.type = type
        self.reference = reference
        self.action = action
        self.asset = asset
        self.location = location
    }
}
