import CloudKitWire
import CloudSeed
import Foundation

/// What the server keeps for notifications while it runs: each user's subscriptions, the device
/// tokens they poll with (`tokens/create`), and the notifications each token has not been given.
///
/// Notifications are found in the store's changes, not in the server's own writes: every change
/// after the last one looked at, whoever made it (`records/modify`, the console, `push`, or an
/// `import` run beside the server), is matched against the subscriptions of the zone it is in:
/// after each write of the server, and when a device polls. What reads the store runs on the
/// ``StoreWorker``; what it keeps is behind a lock.
final class Notifications: @unchecked Sendable {
    /// The user of one container environment, whose subscriptions and devices go together.
    struct Subscriber: Hashable {
        var container: String
        var environment: ContainerEnvironment
        var user: String
    }

    private struct Watched {
        var subscription: Subscription
        /// The latest change when it was saved: it fires on later ones only.
        var since: Int64
        /// The records its query matched when last seen, so that a deletion fires for those only.
        var matching: Set<String>
    }

    private struct SubscriberState {
        var watched: [Watched] = []
        /// The latest change looked at.
        var scanned: Int64
    }

    private struct Device {
        var subscriber: Subscriber
        var pending: [String] = []
    }

    private let lock = NSLock()
    private var subscribers: [Subscriber: SubscriberState] = [:]
    private var devices: [String: Device] = [:]

    // MARK: Subscriptions

    /// The subscriptions of `subscriber` in `database`.
    func subscriptions(of subscriber: Subscriber, in database: DatabaseScope) -> [Subscription] {
        locked {
            (subscribers[subscriber]?.watched ?? []).map(\.subscription).filter { $0.scope.database == database }
        }
    }

    /// Saves `subscription` (replacing one of its ID), after running its query once so that a
    /// query the schema cannot answer is refused now, as CloudKit refuses it; kept in the store
    /// unless `kept` is false (a subscription read back from it).
    func save(_ subscription: Subscription, of subscriber: Subscriber, store: ContainerStore, kept: Bool = true)
        throws
    {
        let latest = try Self.latestChange(of: subscriber, store: store)
        var matching: Set<String> = []
        if let query = subscription.query {
            for scope in try zones(of: subscription, user: subscriber.user, store: store) {
                matching.formUnion(try Self.names(matching: query, in: scope, store: store))
            }
        }
        let watched = Watched(subscription: subscription, since: latest, matching: matching)
        locked {
            var state = subscribers[subscriber] ?? SubscriberState(scanned: latest)
            state.watched.removeAll { Self.same($0.subscription, subscription) }
            state.watched.append(watched)
            subscribers[subscriber] = state
        }
        if kept { try keep(subscriber, store: store) }
    }

    /// Deletes the subscription `id` of `database`; `false` when there was none.
    func delete(_ id: String, of subscriber: Subscriber, in database: DatabaseScope, store: ContainerStore) throws
        -> Bool
    {
        let deleted = locked {
            guard var state = subscribers[subscriber] else { return false }
            let count = state.watched.count
            state.watched.removeAll { $0.subscription.id == id && $0.subscription.scope.database == database }
            subscribers[subscriber] = state
            return state.watched.count < count
        }
        if deleted { try keep(subscriber, store: store) }
        return deleted
    }

    // MARK: Kept in the store

    /// Where the store keeps subscriptions: the journal `push` and `pull` keep theirs in, under a
    /// target of its own, one entry per subscriber.
    static let journalTarget = "serve subscriptions"

    /// Writes the subscriber's subscriptions to the store, so that a server started again has them.
    private func keep(_ subscriber: Subscriber, store: ContainerStore) throws {
        let saved = locked { subscribers[subscriber]?.watched.map(\.subscription) ?? [] }
        let value = JSONText.array(
            saved.map {
                JSONText.object([
                    ("database", JSONText.quoted($0.scope.database.rawValue)), ("subscription", $0.json),
                ])
            })
        let key = [subscriber.container, subscriber.environment.rawValue, subscriber.user].joined(separator: "\n")
        try store.exclusively { try store.backend.saveJournalEntries([(key, value)], of: Self.journalTarget) }
    }

    /// Reads back the subscriptions the store keeps; one the schema no longer answers is left out.
    func load(store: ContainerStore) throws {
        let entries = try store.exclusively { try store.backend.journalEntries(of: Self.journalTarget) }
        for (key, value) in entries.sorted(by: { $0.key < $1.key }) {
            let parts = key.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            guard parts.count == 3, let environment = ContainerEnvironment(rawValue: parts[1]) else { continue }
            let subscriber = Subscriber(container: parts[0], environment: environment, user: parts[2])
            for entry in (try? WebServicesJSON(parsing: Array(value.utf8)))?.items ?? [] {
                guard let database = entry["database"]?.string, let given = entry["subscription"],
                    let request = try? DatabaseRequest(
                        container: parts[0], environment: parts[1], database: database, user: parts[2], body: [],
                        baseURL: ""),
                    let subscription = try? Subscription(given, request: request, newID: { "" })
                else { continue }
                try? save(subscription, of: subscriber, store: store, kept: false)
            }
        }
    }

    private static func same(_ one: Subscription, _ other: Subscription) -> Bool {
        one.id == other.id && one.scope.database == other.scope.database
    }

    // MARK: Devices

    /// Registers `token` as a device of `subscriber`: it is given the notifications of changes
    /// made from now on.
    func register(_ token: String, for subscriber: Subscriber, store: ContainerStore) throws {
        let latest = try Self.latestChange(of: subscriber, store: store)
        locked {
            if subscribers[subscriber] == nil { subscribers[subscriber] = SubscriberState(scanned: latest) }
            if devices[token]?.subscriber != subscriber { devices[token] = Device(subscriber: subscriber) }
        }
    }

    /// Whether `token` was registered.
    func knows(_ token: String) -> Bool {
        locked { devices[token] != nil }
    }

    /// The next notification for `token` (looking at the store's changes since the last look),
    /// or `nil` when there is none yet.
    func next(for token: String, store: ContainerStore) throws -> String? {
        guard let subscriber = locked({ devices[token]?.subscriber }) else { return nil }
        try scan(for: subscriber, store: store)
        return locked {
            guard var device = devices[token], !device.pending.isEmpty else { return nil }
            let notification = device.pending.removeFirst()
            devices[token] = device
            return notification
        }
    }

    // MARK: Finding notifications

    /// Looks at the changes for every subscriber with subscriptions: run after each write the
    /// server makes, so that each write of a record is told apart (a later look sees only the
    /// record's latest change).
    func scanAll(store: ContainerStore) throws {
        let watching = locked { subscribers.filter { !$0.value.watched.isEmpty }.map(\.key) }
        for subscriber in watching { try scan(for: subscriber, store: store) }
    }

    /// Matches the changes after the subscriber's last look against its subscriptions, and
    /// queues a notification for each of its devices per change that fires one.
    private func scan(for subscriber: Subscriber, store: ContainerStore) throws {
        guard let state = locked({ subscribers[subscriber] }), !state.watched.isEmpty else { return }
        var watched = state.watched
        // Every zone a subscription watches, with the changes after the last look.
        var changesByZone: [StoreScope: [(counter: Int64, change: ZoneChanges.Change)]] = [:]
        var latest = state.scanned
        for scope in Set(try watched.flatMap { try zones(of: $0.subscription, user: subscriber.user, store: store) }) {
            var token = String(state.scanned, radix: 36)
            var changes: [(counter: Int64, change: ZoneChanges.Change)] = []
            while true {
                let page = try ZoneChanges(
                    in: scope, since: token, limit: Changes.maximumResults, user: subscriber.user, store: store)
                for change in page.changes {
                    let counter = Self.counter(of: change)
                    changes.append((counter, change))
                    latest = max(latest, counter)
                }
                guard page.moreComing, page.syncToken != token else { break }
                token = page.syncToken
            }
            if !changes.isEmpty { changesByZone[scope] = changes }
        }
        var notifications: [(counter: Int64, text: String)] = []
        var spent: Set<Int> = []
        for (offset, entry) in watched.enumerated() {
            var entry = entry
            var fires = 0
            for scope in try zones(of: entry.subscription, user: subscriber.user, store: store)
            where !(entry.subscription.firesOnce && fires > 0) {
                let found = try fired(&entry, by: changesByZone[scope] ?? [], in: scope, store: store)
                notifications += found.map { ($0.counter, notification(of: entry.subscription, $0.change, in: scope)) }
                fires += found.count
            }
            watched[offset] = entry
            if entry.subscription.firesOnce && fires > 0 { spent.insert(offset) }
        }
        let texts = notifications.sorted { $0.counter < $1.counter }.map(\.text)
        defer { if !spent.isEmpty { try? keep(subscriber, store: store) } }
        locked {
            var state = subscribers[subscriber] ?? state
            state.watched = watched.enumerated().filter { !spent.contains($0.offset) }.map(\.element)
            state.scanned = latest
            subscribers[subscriber] = state
            for (token, device) in devices where device.subscriber == subscriber {
                devices[token]?.pending += texts
            }
        }
    }

    /// The changes of one zone that fire `entry`'s subscription, each with why; keeps its query's
    /// matching records up to date.
    private func fired(
        _ entry: inout Watched, by changes: [(counter: Int64, change: ZoneChanges.Change)], in scope: StoreScope,
        store: ContainerStore
    ) throws -> [(counter: Int64, change: (recordName: String, recordType: String, event: Subscription.Event))] {
        let subscription = entry.subscription
        let relevant = changes.filter { $0.counter > entry.since }
        guard !relevant.isEmpty else { return [] }
        // The records of the query's type in this zone that match it now.
        var matchingNow: Set<String>?
        if let query = subscription.query, !query.filters.isEmpty || query.search != nil,
            relevant.contains(where: { Self.recordType(of: $0.change) == query.recordType })
        {
            matchingNow = try Self.names(matching: query, in: scope, store: store)
        }
        var found: [(counter: Int64, change: (recordName: String, recordType: String, event: Subscription.Event))] = []
        for (counter, change) in relevant {
            let event: Subscription.Event
            let name: String
            switch change {
            case .saved(let record):
                name = record.recordID.recordName
                event = record.system.createdTimestamp == record.system.modifiedTimestamp ? .create : .update
                if let query = subscription.query {
                    guard record.recordType == query.recordType else { continue }
                    guard matchingNow?.contains(name) ?? true else {
                        entry.matching.remove(name)
                        continue
                    }
                    entry.matching.insert(name)
                }
            case .deleted(let deleted):
                name = deleted.recordName
                event = .delete
                if let query = subscription.query {
                    guard deleted.recordType == query.recordType, entry.matching.remove(name) != nil else { continue }
                }
            }
            guard subscription.firesOn.contains(event) else { continue }
            found.append((counter, (name, Self.recordType(of: change), event)))
            if subscription.firesOnce { break }
        }
        return found
    }

    /// One notification as the webcourier URL answers it.
    private func notification(
        of subscription: Subscription, _ change: (recordName: String, recordType: String, event: Subscription.Event),
        in scope: StoreScope
    ) -> String {
        var members = [
            ("notificationID", JSONText.quoted(UUID().uuidString.lowercased())),
            ("notificationType", JSONText.quoted(subscription.kind.rawValue)),
            ("subscriptionID", JSONText.quoted(subscription.id)),
            ("containerIdentifier", JSONText.quoted(scope.container)),
            ("environment", JSONText.quoted(scope.environment.rawValue)),
            ("databaseScope", JSONText.quoted(scope.database.rawValue.uppercased())),
            ("zoneID", scope.zoneID.cloudKitJSON()), ("recordName", JSONText.quoted(change.recordName)),
            ("recordType", JSONText.quoted(change.recordType)), ("reason", JSONText.quoted(change.event.reason)),
        ]
        if subscription.kind == .query {
            members.append(("queryNotificationReason", JSONText.quoted(change.event.reason)))
        }
        return JSONText.object(members)
    }

    /// The zones `subscription` watches: its own, or every zone of its database for a zone-wide query.
    private func zones(of subscription: Subscription, user: String, store: ContainerStore) throws -> [StoreScope] {
        guard subscription.zoneWide else { return [subscription.scope] }
        var defaultZone = subscription.scope
        defaultZone.zoneID = RecordZoneID(
            zoneName: RecordZoneID.defaultZoneName,
            ownerName: defaultZone.database == .public ? RecordZoneID.defaultOwnerName : user)
        return try Zones.zoneIDs(besides: defaultZone, user: user, store: store).map {
            StoreScope(
                container: defaultZone.container, environment: defaultZone.environment, database: defaultZone.database,
                zoneID: $0)
        }
    }

    /// The names of the records of `scope` that `query` selects.
    private static func names(matching query: RecordQuery, in scope: StoreScope, store: ContainerStore) throws
        -> Set<String>
    {
        let records = try store.exclusively { try store.backend.read { try store.backend.query(query, in: scope) } }
        return Set(records.map(\.recordID.recordName))
    }

    /// The change tag counter of the latest change in the subscriber's container environment.
    private static func latestChange(of subscriber: Subscriber, store: ContainerStore) throws -> Int64 {
        let zones = try store.exclusively { try store.backend.read { try store.backend.zones() } }.filter {
            $0.container == subscriber.container && $0.environment == subscriber.environment
        }
        var latest: Int64 = 0
        for zone in zones {
            latest = max(latest, try ZoneChanges.counter(of: try ZoneChanges.latestToken(in: zone, store: store)))
        }
        return latest
    }

    private static func counter(of change: ZoneChanges.Change) -> Int64 {
        switch change {
        case .saved(let record): Int64(record.system.changeTag, radix: 36) ?? 0
        case .deleted(let deleted): deleted.changeTag
        }
    }

    private static func recordType(of change: ZoneChanges.Change) -> String {
        switch change {
        case .saved(let record): record.recordType
        case .deleted(let deleted): deleted.recordType
        }
    }

    private func locked<Result>(_ body: () throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body()
    }
}
