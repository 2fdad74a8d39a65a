import CloudKitWire
import CloudSeed

/// What changed since a sync token: `records/changes` and `changes/zone` for a zone's records
/// (deletions as `{recordName, recordType, deleted: true}`), `changes/database` for the zones
/// whose records changed and those deleted (`{zoneID, deleted: true}`, as `zones/modify` answers).
enum Changes {
    /// The most changes one answer holds, CloudKit's limit.
    static let maximumResults = 200

    /// `records/changes`: `zoneID`, `syncToken`, `resultsLimit`, `desiredKeys`.
    static func records(_ request: DatabaseRequest, store: ContainerStore) throws -> String {
        let body = try request.json()
        let scope = request.scope(zoneID: body["zoneID"])
        guard try Zones.zoneIDs(request, store: store).contains(scope.zoneID) else {
            throw ServerError(.zoneNotFound, "Zone '\(scope.zoneID.zoneName)' does not exist")
        }
        return JSONText.object(try members(of: body, in: scope, request: request, store: store))
    }

    /// `changes/zone`: `zones[{zoneID, syncToken, resultsLimit, desiredKeys}]`, each answered as
    /// `records/changes` answers, or with ZONE_NOT_FOUND.
    static func zones(_ request: DatabaseRequest, store: ContainerStore) throws -> String {
        guard let entries = try request.json()["zones"]?.items else {
            throw ServerError(.badRequest, "the request needs zones, as [{\"zoneID\": …, \"syncToken\": …}]")
        }
        let known = try Zones.zoneIDs(request, store: store)
        let zones = try entries.map { entry in
            let scope = request.scope(zoneID: entry["zoneID"])
            guard known.contains(scope.zoneID) else {
                return ServerError(.zoneNotFound, "Zone '\(scope.zoneID.zoneName)' does not exist").json(
                    extra: [("zoneID", scope.zoneID.cloudKitJSON())])
            }
            return JSONText.object(try members(of: entry, in: scope, request: request, store: store))
        }
        return JSONText.object([("zones", JSONText.array(zones))])
    }

    /// `changes/database`: `syncToken`; the zones with changes after it, in the order of their
    /// latest change, and the zones deleted after it.
    static func database(_ request: DatabaseRequest, store: ContainerStore) throws -> String {
        let body = try request.json()
        let given = body["syncToken"]?.string
        let since = try ZoneChanges.counter(of: given)
        var latest = since
        var changed: [(counter: Int64, zone: String)] = []
        for zoneID in try Zones.zoneIDs(request, store: store) {
            let scope = request.scope(of: zoneID)
            guard let token = try ZoneChanges.latestToken(in: scope, store: store) else { continue }
            let counter = try ZoneChanges.counter(of: token)
            guard counter > since else { continue }
            changed.append((counter, JSONText.object([("zoneID", zoneID.cloudKitJSON())])))
            latest = max(latest, counter)
        }
        for deletion in try ZoneChanges.deletedZones(
            besides: request.scope(zoneID: nil), user: request.user, store: store)
        where deletion.changeTag > since {
            changed.append(
                (
                    deletion.changeTag,
                    JSONText.object([("zoneID", deletion.scope.zoneID.cloudKitJSON()), ("deleted", "true")])
                ))
            latest = max(latest, deletion.changeTag)
        }
        return JSONText.object([
            ("zones", JSONText.array(changed.sorted { $0.counter < $1.counter }.map(\.zone))),
            ("syncToken", JSONText.quoted(latest > since ? String(latest, radix: 36) : given ?? "0")),
            ("moreComing", "false"),
        ])
    }

    /// `records`, `syncToken`, `moreComing` and `zoneID` of one zone's changes.
    private static func members(
        of entry: WebServicesJSON, in scope: StoreScope, request: DatabaseRequest, store: ContainerStore
    ) throws -> [(String, String)] {
        let limit = Int(entry["resultsLimit"]?.integer ?? Int64(maximumResults))
        guard (1...maximumResults).contains(limit) else {
            throw ServerError(.badRequest, "resultsLimit must be between 1 and \(maximumResults)")
        }
        let changes = try ZoneChanges(
            in: scope, since: entry["syncToken"]?.string, limit: limit, user: request.user, store: store)
        let desiredKeys = entry["desiredKeys"]?.items.map { Set($0.compactMap(\.string)) }
        let records = changes.changes.map { change in
            switch change {
            case .saved(let record): request.json(record, desiredKeys: desiredKeys)
            case .deleted(let deleted):
                JSONText.object([
                    ("recordName", JSONText.quoted(deleted.recordName)),
                    ("recordType", JSONText.quoted(deleted.recordType)), ("deleted", "true"),
                ])
            }
        }
        return [
            ("zoneID", scope.zoneID.cloudKitJSON()), ("records", JSONText.array(records)),
            ("syncToken", JSONText.quoted(changes.syncToken)), ("moreComing", changes.moreComing ? "true" : "false"),
        ]
    }
}
