import CloudKitWire
import CloudSeed

/// One request to a database of the server (`/database/1/{container}/{environment}/{database}/…`):
/// where it acts, as whom, and its body.
struct DatabaseRequest: Sendable {
    var container: String
    var environment: ContainerEnvironment
    var database: DatabaseScope
    /// The user the request acts as.
    var user: String
    var body: [UInt8]
    /// The server's own address (`http://127.0.0.1:8787`), for the URLs it answers with.
    var baseURL: String

    init(
        container: String, environment: String, database: String, user: String, body: [UInt8], baseURL: String
    ) throws {
        guard let environment = ContainerEnvironment(rawValue: environment) else {
            throw ServerError(.badRequest, "unknown environment '\(environment)'; use development or production")
        }
        guard let database = DatabaseScope(rawValue: database) else {
            throw ServerError(.badRequest, "unknown database '\(database)'; use public, private or shared")
        }
        self.container = container
        self.environment = environment
        self.database = database
        self.user = user
        self.body = body
        self.baseURL = baseURL
    }

    /// The body as JSON; malformed JSON is a BAD_REQUEST.
    func json() throws -> WebServicesJSON {
        try read(WebServicesJSON.init(parsing:))
    }

    /// The body as `parse` reads it; a body it refuses is a BAD_REQUEST.
    func read<Body>(_ parse: ([UInt8]) throws -> Body) throws -> Body {
        do {
            return try parse(body)
        } catch let error as CloudSeedError {
            throw ServerError(.badRequest, error.description)
        }
    }

    /// The scope of a zone: `zoneID` as a request gives it (`{"zoneName": "Notes"}`), the default
    /// zone without one. Public zones belong to no user; private and shared ones to the request's.
    func scope(zoneID: WebServicesJSON?) -> StoreScope {
        let zoneName = zoneID?["zoneName"]?.string ?? RecordZoneID.defaultZoneName
        let owner =
            database == .public
            ? RecordZoneID.defaultOwnerName : zoneID?["ownerRecordName"]?.string ?? user
        return StoreScope(
            container: container, environment: environment, database: database,
            zoneID: RecordZoneID(zoneName: zoneName, ownerName: owner))
    }

    /// The scope of a zone the store holds.
    func scope(of zoneID: RecordZoneID) -> StoreScope {
        StoreScope(container: container, environment: environment, database: database, zoneID: zoneID)
    }

    /// The URL the bytes of `asset` are fetched from.
    func downloadURL(_ asset: AssetReference) -> String {
        "\(baseURL)/assets/\(asset.fileChecksum)"
    }

    /// A record dictionary as the server answers it, assets with their download URL.
    func json(_ record: CloudRecord, desiredKeys: Set<String>? = nil) -> String {
        var bytes: [UInt8] = []
        appendJSON(record, desiredKeys: desiredKeys, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends ``json(_:desiredKeys:)``'s text to `bytes`.
    func appendJSON(_ record: CloudRecord, desiredKeys: Set<String>? = nil, to bytes: inout [UInt8]) {
        var record = record
        if let desiredKeys { record.fields = record.fields.filter { desiredKeys.contains($0.key) } }
        CloudKitJSON.appendRecord(record, downloadURL: downloadURL, to: &bytes)
    }
}
