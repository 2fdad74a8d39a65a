import CloudKitWire
package import CloudSeed
import Foundation

/// Sends a store's records to a CloudKit database: zones created where missing, asset files
/// through `assets/upload` first, records in `records/modify` batches within CloudKit's limits, in
/// an order the server takes (``PushOrder``). Each confirmed record is noted in the store's
/// journal with the change tag it was sent at, so a push that stops part way (killed, or its
/// network lost) goes on where it stopped, and a record sent as it is is not sent again.
package struct RecordPusher: Sendable {
    package var store: ContainerStore
    /// The database pushed to.
    package var database: CloudKitDatabase
    /// Only this zone, or every zone of the database.
    package var zoneName: String?
    /// Only records of this type, or all.
    package var recordType: String?
    /// How a record already on the server is written, as `import --mode`.
    package var mode: SaveMode = .changedKeys
    /// Whether every record is sent, also those earlier pushes sent as they are: for a server that
    /// lost them, as a development container does when it is reset.
    package var resendsAll = false
    /// Called as records are confirmed or refused: how many of how many.
    package var progress: @Sendable (Int, Int) -> Void = { _, _ in }
    /// Called with each record the server refuses, as it is refused.
    package var refused: @Sendable (_ recordName: String, _ code: String, _ reason: String) -> Void = { _, _, _ in }

    /// CloudKit's limit on the operations of one request.
    package static let maximumOperations = 200
    /// The size a request is kept under, where its records allow it.
    package static let maximumRequestBytes = 1_000_000

    package init(store: ContainerStore, database: CloudKitDatabase) {
        self.store = store
        self.database = database
    }

    /// A record a push would send, as `--dry-run` prints it.
    package struct PlannedRecord: Sendable {
        package var operationType: String
        package var recordType: String
        package var recordName: String
        package var zoneName: String
        package var assets: Int

        /// `forceUpdate Artwork Thinker in _defaultZone with 1 asset`.
        package var line: String {
            "\(operationType) \(recordType) \(recordName) in \(zoneName)"
                + (assets > 0 ? " with \(assets) asset\(assets == 1 ? "" : "s")" : "")
        }

        /// `{"operationType": …, "recordType": …, "recordName": …, "zoneName": …, "assets": 1}`.
        package var json: String {
            JSONText.object([
                ("operationType", JSONText.quoted(operationType)), ("recordType", JSONText.quoted(recordType)),
                ("recordName", JSONText.quoted(recordName)), ("zoneName", JSONText.quoted(zoneName)),
                ("assets", String(assets)),
            ])
        }
    }

    /// What a push would send, in the order it would send it, and how many records the journal
    /// shows need not be sent.
    package func plan() throws -> (records: [PlannedRecord], unchanged: Int) {
        var planned: [PlannedRecord] = []
        var unchanged = 0
        let journal = try sentBefore()
        for scope in try zones() {
            let (zone, skipped) = try pending(in: scope, journal: journal)
            unchanged += skipped
            for record in zone.records {
                planned.append(
                    PlannedRecord(
                        operationType: operationType(for: record, journal: journal), recordType: record.recordType,
                        recordName: record.recordName, zoneName: scope.zoneID.zoneName, assets: record.assetCount))
            }
        }
        return (planned, unchanged)
    }

    /// Pushes through `client`; returns what was done. Records the server refuses are in the
    /// summary, not thrown.
    package func run(through client: WebServicesClient) async throws -> PushSummary {
        var summary = PushSummary()
        let journal = try sentBefore()
        var work: [(StoreScope, ZoneRecords)] = []
        for scope in try zones() {
            let (zone, skipped) = try pending(in: scope, journal: journal)
            summary.unchanged += skipped
            if !zone.records.isEmpty { work.append((scope, zone)) }
        }
        let total = work.reduce(0) { $0 + $1.1.records.count }
        var done = 0
        let customZones = work.map(\.0.zoneID.zoneName).filter { $0 != RecordZoneID.defaultZoneName }
        if !customZones.isEmpty { summary.zonesCreated = try await createMissingZones(customZones, client) }
        let pusher = self
        try await withThrowingTaskGroup(of: PushSummary.self) { group in
            var inFlight = 0
            func collect() async throws {
                guard let sent = try await group.next() else { return }
                inFlight -= 1
                summary.add(sent)
                done += sent.sent + sent.refused.count
                progress(done, total)
            }
            for (scope, zone) in work {
                for batch in Self.batches(of: zone.records) {
                    // A batch with VALIDATE references goes alone, after every batch before it.
                    let alone = batch.contains(where: \.hasValidatedReferences)
                    while inFlight > 0 && (alone || inFlight == Self.requestsInFlight) { try await collect() }
                    group.addTask {
                        var sent = PushSummary()
                        let sender = BatchSender(
                            pusher: pusher, client: client, scope: scope, journal: journal,
                            writtenFields: zone.fieldsJSON)
                        try await sender.send(batch, into: &sent)
                        return sent
                    }
                    inFlight += 1
                    if alone { try await collect() }
                }
            }
            while inFlight > 0 { try await collect() }
        }
        summary.requests = client.requests
        summary.retries = client.retries
        return summary
    }

    /// How many `records/modify` requests are sent before the first is answered: while the server
    /// saves one, it reads the next, and the client notes the answered ones in its journal. The
    /// journal lags the server by at most these batches when a push is killed.
    static let requestsInFlight = 8

    /// `records` in batches of at most ``maximumOperations``, each under ``maximumRequestBytes``
    /// where its records allow it.
    static func batches(of records: [OutgoingRecord]) -> [[OutgoingRecord]] {
        var batches: [[OutgoingRecord]] = []
        var pending: [OutgoingRecord] = []
        var bytes = 0
        for record in records {
            let size = record.size
            if !pending.isEmpty && (pending.count == maximumOperations || bytes + size > maximumRequestBytes) {
                batches.append(pending)
                pending.removeAll(keepingCapacity: true)
                bytes = 0
            }
            pending.append(record)
            bytes += size
        }
        if !pending.isEmpty { batches.append(pending) }
        return batches
    }

    /// What the journal notes this database under.
    var target: String { database.journalTarget("push") }

    /// What the journal notes of the records earlier pushes sent; nothing with ``resendsAll``.
    private func sentBefore() throws -> [String: String] {
        resendsAll ? [:] : try store.backend.journalEntries(of: target)
    }

    /// The zones of the database the store holds, `--zone`'s only where it is given; a `--type`
    /// the store's schema lacks is refused, not taken for a type with no records.
    private func zones() throws -> [StoreScope] {
        let scopes = try store.exclusively { try store.backend.read { try store.backend.zones() } }.filter {
            $0.container == database.container && $0.environment == database.environment
                && $0.database == database.database && (zoneName == nil || $0.zoneID.zoneName == zoneName)
        }
        if scopes.isEmpty {
            let what = zoneName.map { "zone '\($0)' of " } ?? ""
            throw ClientError(
                .unknownScope,
                "the store has no \(what)\(database.container) \(database.environment.rawValue) \(database.database.rawValue) database"
            )
        }
        if let recordType {
            try store.exclusively { try store.backend.checkRecordType(recordType, in: scopes[0].schemaScope) }
        }
        return scopes.sorted { $0.zoneID.zoneName.utf8.lexicographicallyPrecedes($1.zoneID.zoneName.utf8) }
    }

    /// The records of a zone to send, in the order to send them, and how many the journal shows
    /// were sent as they are.
    private func pending(in scope: StoreScope, journal: [String: String]) throws -> (ZoneRecords, Int) {
        var zone = ZoneRecords()
        var records: [OutgoingRecord] = []
        var skipped = 0
        try store.exclusively {
            try store.backend.read {
                func isUnchanged(_ key: String, _ changeTag: String) -> Bool {
                    guard journal[key].map(JournalEntry.init)?.localTag == changeTag else { return false }
                    skipped += 1
                    return true
                }
                try store.backend.forEachRecordFieldsJSON(in: scope, recordType: recordType) { written in
                    let key = Self.journalKey(written.recordName, scope.zoneID)
                    guard !isUnchanged(key, written.changeTag) else { return }
                    let start = zone.fieldsJSON.count
                    zone.fieldsJSON += written.fields
                    records.append(
                        OutgoingRecord(written, zoneID: scope.zoneID, fields: start..<zone.fieldsJSON.count))
                } record: { record in
                    let outgoing = OutgoingRecord(record)
                    if !isUnchanged(outgoing.journalKey, outgoing.changeTag) { records.append(outgoing) }
                }
            }
        }
        // In the order they were saved here, so a fresh server gives them the same change tags.
        let order = records.indices.sorted { (records[$0].saveOrder, $0) < (records[$1].saveOrder, $1) }
        zone.records = PushOrder.ordered(order.map { records[$0] })
        return (zone, skipped)
    }

    /// The operation that writes `record` as `mode` says.
    func operationType(for record: OutgoingRecord, journal: [String: String]) -> String {
        switch mode {
        case .create: "create"
        case .updateIfUnchanged: journal[record.journalKey] == nil ? "create" : "update"
        case .changedKeys: "forceUpdate"
        case .allKeys: "forceReplace"
        }
    }

    /// Creates the zones the server lacks; returns how many it created.
    private func createMissingZones(_ names: [String], _ client: WebServicesClient) async throws -> Int {
        let listed = try await client.post("zones/list", "{}")
        let existing = Set((listed["zones"]?.items ?? []).compactMap { $0["zoneID"]?["zoneName"]?.string })
        let missing = names.filter { !existing.contains($0) }
        guard !missing.isEmpty else { return 0 }
        let operations = missing.map { name in
            JSONText.object([
                ("operationType", JSONText.quoted("create")),
                (
                    "zone",
                    JSONText.object([("zoneID", RecordZoneID(zoneName: name).cloudKitJSON(owner: .unlessCaller))])
                ),
            ])
        }
        let answer = try await client.post(
            "zones/modify", JSONText.object([("operations", JSONText.array(operations))]))
        for zone in answer["zones"]?.items ?? [] {
            if let code = zone["serverErrorCode"]?.string {
                throw ClientError(
                    .refused,
                    "the server refused to create zone '\(zone["zoneID"]?["zoneName"]?.string ?? "")': \(code): \(zone["reason"]?.string ?? "")"
                )
            }
        }
        return missing.count
    }

    /// The journal's key of a record: its zone, owner and name.
    static func journalKey(_ recordName: String, _ zoneID: RecordZoneID) -> String {
        "\(zoneID.zoneName)\u{1F}\(zoneID.ownerName)\u{1F}\(recordName)"
    }

}

/// What the journal notes of a record a push sent: the local change tag it was sent at and the
/// server's change tag it was saved with, as `LOCAL SERVER`.
struct JournalEntry {
    var localTag: String
    var serverTag: String

    init(localTag: String, serverTag: String) {
        self.localTag = localTag
        self.serverTag = serverTag
    }

    init(_ text: String) {
        let parts = text.split(separator: " ", maxSplits: 1).map(String.init)
        localTag = parts.first ?? ""
        serverTag = parts.count > 1 ? parts[1] : ""
    }

    var text: String { "\(localTag) \(serverTag)" }
}

extension RecordValue {
    /// The assets this value holds: itself, or a list's.
    var assets: [AssetReference] {
        switch self {
        case .asset(let asset): [asset]
        case .list(_, let items): items.flatMap(\.assets)
        default: []
        }
    }
}
