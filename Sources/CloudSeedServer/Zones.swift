import CloudKitWire
import CloudSeed

/// `zones/list`, `zones/lookup` and `zones/modify`: the zones of a database the store holds, the
/// default zone always.
enum Zones {
    static func list(_ request: DatabaseRequest, store: ContainerStore) throws -> String {
        JSONText.object([("zones", JSONText.array(try zoneIDs(request, store: store).map(json)))])
    }

    /// `zones[{zoneName}]`: each zone, or ZONE_NOT_FOUND in its place.
    static func lookup(_ request: DatabaseRequest, store: ContainerStore) throws -> String {
        guard let entries = try request.json()["zones"]?.items else {
            throw ServerError(.badRequest, "the request needs zones, as [{\"zoneName\": \"…\"}]")
        }
        let known = try zoneIDs(request, store: store)
        let zones = entries.map { entry in
            let scope = request.scope(zoneID: entry["zoneID"] ?? entry)
            guard known.contains(scope.zoneID) else {
                return ServerError(.zoneNotFound, "Zone '\(scope.zoneID.zoneName)' does not exist").json(
                    extra: [("zoneID", scope.zoneID.cloudKitJSON())])
            }
            return json(scope.zoneID)
        }
        return JSONText.object([("zones", JSONText.array(zones))])
    }

    /// The zones of the request's database (the user's own in a private one), the default zone first.
    /// `operations[{operationType: create | delete, zone: {zoneID}}]`: each zone made or deleted,
    /// or its error.
    static func modify(_ request: DatabaseRequest, store: ContainerStore) throws -> String {
        guard let entries = try request.json()["operations"]?.items else {
            throw ServerError(
                .badRequest, "the request needs operations, as [{\"operationType\": \"create\", \"zone\": …}]")
        }
        let operations = try entries.map { entry in
            let name = entry["operationType"]?.string ?? ""
            guard let type = ZoneModification.OperationType(rawValue: name) else {
                throw ServerError(.badRequest, "unknown operationType '\(name)'; use create or delete")
            }
            guard let zoneID = entry["zone"]?["zoneID"] else {
                throw ServerError(.badRequest, "each operation needs zone.zoneID")
            }
            return (type, request.scope(zoneID: zoneID))
        }
        let zones = try ZoneModification.apply(operations, to: store).map { outcome in
            switch outcome {
            case .created(let zoneID): json(zoneID)
            case .deleted(let zoneID): JSONText.object([("zoneID", zoneID.cloudKitJSON()), ("deleted", "true")])
            case .notFound(let zoneID):
                ServerError(.zoneNotFound, "Zone '\(zoneID.zoneName)' does not exist").json(
                    extra: [("zoneID", zoneID.cloudKitJSON())])
            case .refused(let zoneID, let error):
                ServerError(error).json(extra: [("zoneID", zoneID.cloudKitJSON())])
            }
        }
        return JSONText.object([("zones", JSONText.array(zones))])
    }

    static func zoneIDs(_ request: DatabaseRequest, store: ContainerStore) throws -> [RecordZoneID] {
        try zoneIDs(besides: request.scope(zoneID: nil), user: request.user, store: store)
    }

    /// The zones of the database `defaultZone` is the default zone of, as `user` sees them (their
    /// own, in a private or shared one): the default zone first, then the others by name.
    static func zoneIDs(besides defaultZone: StoreScope, user: String, store: ContainerStore) throws
        -> [RecordZoneID]
    {
        let stored = try store.exclusively { try store.backend.read { try store.backend.zones() } }.filter {
            $0.container == defaultZone.container && $0.environment == defaultZone.environment
                && $0.database == defaultZone.database
                && (defaultZone.database == .public || $0.zoneID.ownerName == user)
        }.map(\.zoneID)
        return [defaultZone.zoneID]
            + stored.filter { $0 != defaultZone.zoneID }.sorted {
                $0.zoneName.utf8.lexicographicallyPrecedes($1.zoneName.utf8)
            }
    }

    private static func json(_ zoneID: RecordZoneID) -> String {
        JSONText.object([
            ("zoneID", zoneID.cloudKitJSON()),
            ("atomic", zoneID.zoneName == RecordZoneID.defaultZoneName ? "false" : "true"),
        ])
    }
}
