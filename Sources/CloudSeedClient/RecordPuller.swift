import CloudKitWire
package import CloudSeed
import Foundation

/// Fetches a CloudKit database's records into a store: `records/changes` per custom zone from the
/// sync token the last pull kept (all records the first time), page by page with `moreComing`, each
/// record saved with the server's change tag and times, its assets' bytes downloaded, records the
/// server deleted deleted; record types and fields the store lacks are created as the records
/// bring them. The zone's sync token is kept in the store's journal after each page.
///
/// The default zone (the public database's only one) keeps no changes in CloudKit, so its records
/// come from `records/query`, one record type at a time, page by page with `continuationMarker`:
/// records whose change tag the store has are left as they are, and records of those types the
/// server no longer has are deleted. CloudKit lists no record types, so they are
/// ``recordTypes``, or the types the store's schema has.
package struct RecordPuller {
    /// Opens the store pulled into, once the server has answered: a pull refused at once leaves
    /// no new store behind.
    private let openStore: () throws -> ContainerStore
    package var client: WebServicesClient
    /// Only this zone, or every zone the server lists.
    package var zoneName: String?
    /// The record types fetched from the default zone; empty for those of the store's schema.
    package var recordTypes: [String] = []
    /// Called with what the user should know of a pull that goes on: a zone left out.
    package var warning: @Sendable (ClientError) -> Void = { _ in }
    /// Called as pages are saved: how many records were saved and deleted so far.
    package var progress: @Sendable (Int) -> Void = { _ in }

    package init(client: WebServicesClient, store openStore: @escaping () throws -> ContainerStore) {
        self.openStore = openStore
        self.client = client
    }

    /// What a pull did.
    package struct Summary: Sendable {
        package var saved = 0
        package var deleted = 0
        package var assetsDownloaded = 0
        package var zones = 0
        package var requests = 0
        package var retries = 0

        package var text: String {
            "Pulled \(saved) records (\(assetsDownloaded) assets) and \(deleted) deletions from \(zones) zones in \(requests) requests, \(retries) tried again\n"
        }

        package var json: String {
            JSONText.object([
                ("saved", String(saved)), ("deleted", String(deleted)), ("assetsDownloaded", String(assetsDownloaded)),
                ("zones", String(zones)), ("requests", String(requests)), ("retries", String(retries)),
            ]) + "\n"
        }
    }

    package func run() async throws -> Summary {
        var summary = Summary()
        let target = client.database.journalTarget("pull")
        let listed = try await client.post("zones/list", "{}")
        let zoneIDs = (listed["zones"]?.items ?? []).compactMap { zone -> RecordZoneID? in
            guard let name = zone["zoneID"]?["zoneName"]?.string, zoneName == nil || name == zoneName else {
                return nil
            }
            // The private database's zones are the caller's own, which a store names
            // `__defaultOwner__` whoever the server says the caller is; a shared zone keeps its owner.
            let owner =
                client.database.database == .shared
                ? zone["zoneID"]?["ownerRecordName"]?.string ?? RecordZoneID.defaultOwnerName
                : RecordZoneID.defaultOwnerName
            return RecordZoneID(zoneName: name, ownerName: owner)
        }
        if let zoneName, zoneIDs.isEmpty {
            throw ClientError(.unknownZone, "the server has no zone '\(zoneName)' in this database")
        }
        let store = try openStore()
        var tokens = try store.backend.journalEntries(of: target)
        for zoneID in zoneIDs {
            let scope = StoreScope(
                container: client.database.container, environment: client.database.environment,
                database: client.database.database, zoneID: zoneID)
            if zoneID.zoneName == RecordZoneID.defaultZoneName {
                if try await query(scope, store: store, into: &summary) { summary.zones += 1 }
                continue
            }
            summary.zones += 1
            var moreComing = true
            while moreComing {
                var members = [("zoneID", zoneID.cloudKitJSON(owner: .unlessCaller)), ("resultsLimit", "200")]
                if let token = tokens[zoneID.zoneName] { members.append(("syncToken", JSONText.quoted(token))) }
                let answer = try await client.post("records/changes", JSONText.object(members))
                try await save(
                    answer["records"]?.items ?? [], answeredBy: "records/changes", in: scope, store: store,
                    into: &summary)
                moreComing = answer["moreComing"]?.bool ?? false
                if let token = answer["syncToken"]?.string {
                    tokens[zoneID.zoneName] = token
                    try store.exclusively {
                        try store.backend.saveJournalEntries([(zoneID.zoneName, token)], of: target)
                    }
                }
            }
        }
        // Change tags made here after the pull follow the server's.
        try store.exclusively { try store.backend.write { try $0.reserveStoredChangeTags() } }
        summary.requests = client.requests
        summary.retries = client.retries
        return summary
    }

    /// Fetches each record type of the default zone with `records/query`; saves the records the
    /// store lacks or holds at another change tag, and deletes those the server no longer has.
    /// The types are ``recordTypes``, or for the public database those of the store's schema.
    /// Without a type to fetch, a pull of the public database, or of the default zone by name, is
    /// refused; another database's default zone, where apps keep little, is left out with a
    /// warning. Returns whether the zone was fetched.
    private func query(_ scope: StoreScope, store: ContainerStore, into summary: inout Summary) async throws -> Bool {
        var types = recordTypes
        if types.isEmpty, scope.database == .public {
            types = try store.exclusively { try store.backend.schema(of: scope.schemaScope) }.sortedRecordTypes.map(
                \.name)
        }
        guard !types.isEmpty else {
            let reason =
                "CloudKit lists no record types, and the default zone's records are fetched with records/query, one record type at a time"
            if scope.database == .public { throw ClientError(.recordTypesOrSchemaNeeded, reason) }
            if zoneName != nil { throw ClientError(.recordTypesNeeded, reason) }
            warning(ClientError(.recordTypesNeeded, "the default zone was left out: \(reason)"))
            return false
        }
        for type in types {
            var stored: [String: String] = [:]
            try store.exclusively {
                try store.backend.read {
                    try store.backend.forEachRecord(in: scope, recordType: type) {
                        stored[$0.recordID.recordName] = $0.system.changeTag
                    }
                }
            }
            var marker: String?
            repeat {
                var members = [
                    ("zoneID", scope.zoneID.cloudKitJSON(owner: .unlessCaller)), ("resultsLimit", "200"),
                    ("query", JSONText.object([("recordType", JSONText.quoted(type))])),
                ]
                if let marker { members.append(("continuationMarker", JSONText.quoted(marker))) }
                let answer = try await client.post("records/query", JSONText.object(members))
                let changed = (answer["records"]?.items ?? []).filter { item in
                    guard let name = item["recordName"]?.string else { return true }
                    return stored.removeValue(forKey: name) != item["recordChangeTag"]?.string
                }
                try await save(changed, answeredBy: "records/query", in: scope, store: store, into: &summary)
                marker = answer["continuationMarker"]?.string
            } while marker != nil
            let gone = stored.keys.sorted().map { (name: $0, type: String?.some(type)) }
            if !gone.isEmpty {
                try await save([], deleting: gone, answeredBy: "records/query", in: scope, store: store, into: &summary)
            }
        }
        return true
    }

    /// Saves one page of changes in one transaction, the assets it names downloaded first;
    /// `endpoint` names what answered them, for errors.
    private func save(
        _ items: [WebServicesJSON], deleting deleted: [(name: String, type: String?)] = [],
        answeredBy endpoint: String, in scope: StoreScope, store: ContainerStore, into summary: inout Summary
    ) async throws {
        var records: [CloudRecord] = []
        var deletions = deleted
        var contents: [String: Data] = [:]
        for item in items {
            guard let name = item["recordName"]?.string else { continue }
            if item["deleted"]?.bool == true {
                deletions.append((name, item["recordType"]?.string))
                continue
            }
            var record: CloudRecord
            do {
                record = try CloudKitRecordDecoding.serverRecord(from: item)
            } catch let error as CloudSeedError {
                throw ClientError(
                    .unexpectedAnswer,
                    "\(endpoint) answered record '\(name)' in a form cloudseed cannot keep: \(error.message)")
            }
            record.recordID.zoneID = scope.zoneID
            for (checksum, url) in Self.downloadURLs(item) where contents[checksum] == nil {
                if try store.exclusively({ try store.backend.hasAssetContent(checksum) }) { continue }
                contents[checksum] = try await client.download(url)
                summary.assetsDownloaded += 1
            }
            records.append(record)
        }
        try store.exclusively {
            try store.backend.write { transaction in
                var schema = try store.backend.schema(of: scope.schemaScope)
                for record in records {
                    if schema.recordTypes[record.recordType] == nil {
                        try transaction.createRecordType(record.recordType, in: scope.schemaScope)
                        schema.recordTypes[record.recordType] = RecordTypeSchema(name: record.recordType)
                    }
                    for name in record.sortedFieldNames where schema.fieldType(name, in: record.recordType) == nil {
                        let type = record.fields[name]!.fieldType
                        try transaction.addField(name, type: type, to: record.recordType, in: scope.schemaScope)
                        schema.recordTypes[record.recordType]?.fields[name] = type
                    }
                    for value in record.fields.values {
                        for asset in value.assets {
                            try transaction.saveAsset(asset, content: contents[asset.fileChecksum])
                        }
                    }
                    try transaction.save(record, in: scope)
                }
                for deletion in deletions {
                    let types = deletion.type.map { [$0] } ?? schema.sortedRecordTypes.map(\.name)
                    for type in types where schema.recordTypes[type] != nil {
                        if try transaction.delete(deletion.name, ofType: type, in: scope) { break }
                    }
                }
            }
        }
        summary.saved += records.count
        summary.deleted += deletions.count
        progress(summary.saved + summary.deleted)
    }

    /// The `downloadURL` of each asset a record dictionary holds, by checksum.
    private static func downloadURLs(_ record: WebServicesJSON) -> [(String, URL)] {
        var urls: [(String, URL)] = []
        for (_, field) in record["fields"]?.members ?? [] {
            let value = field["value"]
            for asset in value?.items ?? [value].compactMap({ $0 }) {
                guard let checksum = asset["fileChecksum"]?.string, let text = asset["downloadURL"]?.string,
                    let url = URL(string: text.replacingOccurrences(of: "${f}", with: "asset"))
                else { continue }
                urls.append((checksum, url))
            }
        }
        return urls
    }
}
