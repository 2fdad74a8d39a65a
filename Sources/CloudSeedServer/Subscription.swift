import CloudKitWire
import CloudSeed

/// A subscription a user saved with `subscriptions/modify`: the records or the zone it watches
/// and the changes it fires on.
struct Subscription: Sendable {
    enum Kind: String, Sendable {
        case query, zone
    }

    /// A change a subscription fires on, and why a notification says it fired.
    enum Event: String, Sendable, CaseIterable {
        case create, update, delete

        /// CloudKit JS's `queryNotificationReason`.
        var reason: String {
            switch self {
            case .create: "RECORD_CREATED"
            case .update: "RECORD_UPDATED"
            case .delete: "RECORD_DELETED"
            }
        }
    }

    var id: String
    var kind: Kind
    /// The zone watched: a zone subscription's, a query subscription's (`zoneWide`: every zone of
    /// its database).
    var scope: StoreScope
    var zoneWide: Bool
    /// A query subscription's query, as the library runs it.
    var query: RecordQuery?
    var firesOn: Set<Event>
    var firesOnce: Bool
    /// `query` and `notificationInfo` as the request gave them, answered back as they were.
    var queryJSON: String?
    var notificationInfoJSON: String?

    /// A subscription of `request`'s database from its dictionary
    /// (`{subscriptionID, subscriptionType, query, zoneID, zoneWide, firesOn, firesOnce, notificationInfo}`);
    /// a subscription CloudKit would not take is a ``ServerError``.
    init(_ entry: WebServicesJSON, request: DatabaseRequest, newID: () -> String) throws {
        id = entry["subscriptionID"]?.string ?? newID()
        guard request.environment == .development else {
            throw ServerError(
                .badRequest,
                "subscriptions are not created in production; create '\(id)' in the development environment")
        }
        let type = entry["subscriptionType"]?.string ?? (entry["query"] == nil ? "zone" : "query")
        guard let kind = Kind(rawValue: type) else {
            throw ServerError(.badRequest, "unknown subscriptionType '\(type)'; use query or zone")
        }
        self.kind = kind
        scope = request.scope(zoneID: entry["zoneID"])
        zoneWide = entry["zoneWide"]?.bool ?? false
        firesOnce = entry["firesOnce"]?.bool ?? false
        notificationInfoJSON = entry["notificationInfo"]?.jsonText
        switch kind {
        case .zone:
            guard request.database == .private else {
                throw ServerError(
                    .badRequest, "zone subscriptions exist in the private database only; use a query subscription")
            }
            guard entry["zoneID"] != nil else { throw ServerError(.badRequest, "a zone subscription needs zoneID") }
            firesOn = Set(Event.allCases)
        case .query:
            query = try RecordsQuery.recordQuery(entry["query"], user: request.user)
            query?.sort = []
            queryJSON = entry["query"]?.jsonText
            let events = try (entry["firesOn"]?.items ?? []).map { item in
                guard let event = item.string.flatMap(Event.init(rawValue:)) else {
                    throw ServerError(.badRequest, "firesOn takes create, update and delete")
                }
                return event
            }
            guard !events.isEmpty else {
                throw ServerError(.badRequest, "a query subscription needs firesOn: create, update or delete")
            }
            firesOn = Set(events)
        }
    }

    /// The subscription's dictionary, as `subscriptions/…` answer it.
    var json: String {
        var members = [
            ("subscriptionID", JSONText.quoted(id)), ("subscriptionType", JSONText.quoted(kind.rawValue)),
            ("zoneID", scope.zoneID.cloudKitJSON()),
        ]
        if let queryJSON { members.append(("query", queryJSON)) }
        if kind == .query {
            members.append(("zoneWide", zoneWide ? "true" : "false"))
            members.append(
                ("firesOn", JSONText.array(quoting: Event.allCases.filter(firesOn.contains).map(\.rawValue))))
        }
        members.append(("firesOnce", firesOnce ? "true" : "false"))
        if let notificationInfoJSON { members.append(("notificationInfo", notificationInfoJSON)) }
        return JSONText.object(members)
    }
}

extension WebServicesJSON {
    /// The value written back as JSON.
    var jsonText: String {
        if let members { return JSONText.object(members.map { ($0.key, $0.value.jsonText) }) }
        if let items { return JSONText.array(items.map(\.jsonText)) }
        if let bool { return bool ? "true" : "false" }
        if let integer { return String(integer) }
        if let number { return JSONText.number(number) }
        if let string { return JSONText.quoted(string) }
        return "null"
    }
}
