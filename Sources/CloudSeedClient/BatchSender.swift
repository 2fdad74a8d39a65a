import CloudKitWire
import CloudSeed
import Foundation

/// Sends one batch of a zone's records: their asset files first, then one `records/modify`
/// request, the records the server refuses for the moment sent again, each confirmed record noted
/// in the journal before the next batch goes.
struct BatchSender: Sendable {
    let pusher: RecordPusher
    let client: WebServicesClient
    let scope: StoreScope
    let journal: [String: String]
    /// The `fields` objects the store wrote for the zone's records (``ZoneRecords``).
    let writtenFields: [UInt8]

    func send(_ records: [OutgoingRecord], into summary: inout PushSummary) async throws {
        var operations: [(outgoing: OutgoingRecord, json: [UInt8])] = []
        for outgoing in records {
            let fields: ArraySlice<UInt8>
            switch outgoing.fields {
            case .written(let range): fields = writtenFields[range]
            case .values(let record):
                guard let uploaded = try await fieldsJSON(of: record, into: &summary) else { continue }
                fields = uploaded[...]
            }
            let operationType = pusher.operationType(for: outgoing, journal: journal)
            var json = Array(#"{"operationType":"#.utf8)
            JSONText.appendQuoted(operationType.utf8, to: &json)
            json += #","record":"#.utf8
            CloudKitJSON.appendRecordName(outgoing.recordName.utf8, to: &json)
            json += CloudKitJSON.recordTypeKeys(outgoing.recordType, changeTag: operationType == "update")
            if operationType == "update" {
                JSONText.appendQuoted(JournalEntry(journal[outgoing.journalKey]!).serverTag.utf8, to: &json)
            }
            json += CloudKitJSON.fieldsKey
            json += fields
            json += "}}".utf8
            operations.append((outgoing, json))
        }
        var attempt = 0
        while !operations.isEmpty {
            // The records are answered without their fields: only their change tags are read.
            var body = Array(#"{"zoneID":"#.utf8)
            body += scope.zoneID.cloudKitJSON(owner: .unlessCaller).utf8
            body += #","atomic":false,"desiredKeys":[],"operations":["#.utf8
            for (offset, operation) in operations.enumerated() {
                if offset > 0 { body.append(UInt8(ascii: ",")) }
                body += operation.json
            }
            body += "]}".utf8
            let answer = try await client.post("records/modify", body: Data(body), reading: ModifyAnswer.init)
            guard let results = answer.outcomes, results.count == operations.count else {
                throw ClientError(
                    .unexpectedAnswer,
                    "records/modify answered \(answer.outcomes?.count ?? 0) records for \(operations.count) operations; the server is not CloudKit Web Services"
                )
            }
            var again: [(outgoing: OutgoingRecord, json: [UInt8])] = []
            var retryAfter: Double?
            var confirmed: [(key: String, value: String)] = []
            for (operation, result) in zip(operations, results) {
                let name = operation.outgoing.recordName
                if let code = result.serverErrorCode {
                    if RetryPolicy.retryableCodes.contains(code), attempt + 1 < client.retry.attempts {
                        again.append(operation)
                        retryAfter = result.retryAfter ?? retryAfter
                    } else {
                        let reason = result.reason ?? ""
                        summary.refused.append((name, code, reason))
                        pusher.refused(name, code, reason)
                    }
                    continue
                }
                let entry = JournalEntry(
                    localTag: operation.outgoing.changeTag, serverTag: result.changeTag ?? "")
                confirmed.append((operation.outgoing.journalKey, entry.text))
                summary.sent += 1
            }
            if !confirmed.isEmpty {
                try pusher.store.exclusively {
                    try pusher.store.backend.saveJournalEntries(confirmed, of: pusher.target)
                }
            }
            operations = again
            if !again.isEmpty {
                attempt += 1
                let delay = client.retry.delay(beforeRetry: attempt, retryAfter: retryAfter)
                try await Task.sleep(nanoseconds: UInt64(delay * 1_000_000_000))
            }
        }
    }

    /// The `fields` dictionary of `record`, its assets uploaded; `nil` (with the record refused)
    /// where the store lacks an asset's bytes.
    private func fieldsJSON(of record: CloudRecord, into summary: inout PushSummary) async throws -> [UInt8]? {
        var fields: [UInt8] = [UInt8(ascii: "{")]
        for (offset, name) in record.sortedFieldNames.enumerated() {
            if offset > 0 { fields.append(UInt8(ascii: ",")) }
            JSONText.appendQuoted(name.utf8, to: &fields)
            fields.append(UInt8(ascii: ":"))
            let value = record.fields[name]!
            switch value {
            case .asset(let asset):
                guard let uploaded = try await upload(asset, of: record, field: name, into: &summary) else {
                    return nil
                }
                fields += CloudKitJSON.field(value, json: uploaded).utf8
            case .list(.asset, let items):
                var uploaded: [String] = []
                for case .asset(let asset) in items {
                    guard let one = try await upload(asset, of: record, field: name, into: &summary) else {
                        return nil
                    }
                    uploaded.append(one)
                }
                fields += CloudKitJSON.field(value, json: JSONText.array(uploaded)).utf8
            default:
                CloudKitJSON.appendField(value, downloadURL: nil, to: &fields)
            }
        }
        fields.append(UInt8(ascii: "}"))
        return fields
    }

    /// Uploads an asset's bytes for a record's field; returns the dictionary the field takes,
    /// `{fileChecksum, size, receipt}`.
    private func upload(_ asset: AssetReference, of record: CloudRecord, field: String, into summary: inout PushSummary)
        async throws -> String?
    {
        guard let content = try pusher.store.assetContent(checksum: asset.fileChecksum) else {
            let reason =
                "the store has only the metadata of asset \(asset.fileChecksum) of field '\(field)'; import the record with its file to push it"
            summary.refused.append((record.recordID.recordName, "MISSING_ASSET", reason))
            pusher.refused(record.recordID.recordName, "MISSING_ASSET", reason)
            return nil
        }
        let token = JSONText.object([
            ("recordName", JSONText.quoted(record.recordID.recordName)),
            ("recordType", JSONText.quoted(record.recordType)), ("fieldName", JSONText.quoted(field)),
        ])
        let tokens = try await client.post(
            "assets/upload",
            JSONText.object([
                ("zoneID", scope.zoneID.cloudKitJSON(owner: .unlessCaller)), ("tokens", JSONText.array([token])),
            ]))
        guard let text = tokens["tokens"]?.items?.first?["url"]?.string, let url = URL(string: text) else {
            throw ClientError(
                .unexpectedAnswer,
                "assets/upload answered no upload URL for field '\(field)' of '\(record.recordID.recordName)'")
        }
        let answer = try await client.upload(content, to: url)
        guard let file = answer["singleFile"], let checksum = file["fileChecksum"]?.string else {
            throw ClientError(
                .unexpectedAnswer,
                "the asset upload answered no singleFile for field '\(field)' of '\(record.recordID.recordName)'")
        }
        summary.assetsUploaded += 1
        var members = [
            ("fileChecksum", JSONText.quoted(checksum)), ("size", String(file["size"]?.integer ?? asset.size)),
        ]
        for key in ["receipt", "wrappingKey", "referenceChecksum"] {
            if let value = file[key]?.string { members.append((key, JSONText.quoted(value))) }
        }
        return JSONText.object(members)
    }
}
