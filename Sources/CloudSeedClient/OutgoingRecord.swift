import CloudSeed

/// A record a push sends, read once from the store with what the later steps ask of it: its
/// `fields` object as the store wrote it, or the record itself where its assets must be uploaded
/// first or its references ordered; its journal key; where it comes in the store's saves.
/// Ordering and batching pass it on by reference, without copying it.
final class OutgoingRecord: Sendable {
    let recordName: String
    let recordType: String
    /// The change tag it has in the local store.
    let changeTag: String
    /// The `fields` object in CloudKit JSON; `nil` where ``record`` is to be written.
    let fieldsJSON: [UInt8]?
    /// The record, where the store could not write its fields from its columns.
    let record: CloudRecord?
    /// The journal's key of the record: its zone, owner and name.
    let journalKey: String
    /// Where it comes in the order of its store's saves: its change tag's counter.
    let saveOrder: Int64
    /// The records of the same zone its VALIDATE references name.
    let validatedTargets: [String]
    /// Whether any of its references, in any zone, is VALIDATE.
    let hasValidatedReferences: Bool
    /// About how many bytes it takes in a request.
    let size: Int

    /// A record whose fields the store wrote: none of its references has an action.
    init(_ fields: RecordFieldsJSON, zoneID: RecordZoneID) {
        recordName = fields.recordName
        recordType = fields.recordType
        changeTag = fields.changeTag
        fieldsJSON = fields.fields
        record = nil
        journalKey = Self.journalKey(recordName, zoneID)
        saveOrder = Self.saveOrder(changeTag)
        validatedTargets = []
        hasValidatedReferences = false
        size = 256 + fields.fields.count
    }

    init(_ record: CloudRecord) {
        recordName = record.recordID.recordName
        recordType = record.recordType
        changeTag = record.system.changeTag
        fieldsJSON = nil
        self.record = record
        journalKey = Self.journalKey(recordName, record.recordID.zoneID)
        saveOrder = Self.saveOrder(changeTag)
        hasValidatedReferences = record.fields.values.contains { $0.references.contains { $0.action == .validate } }
        validatedTargets =
            hasValidatedReferences
            ? record.sortedFieldNames.flatMap { name in
                record.fields[name]!.references.filter { $0.action == .validate && $0.zoneName == nil }
                    .map(\.recordName)
            } : []
        size = record.fields.values.reduce(256) { $0 + $1.encodedSize }
    }

    /// The assets its fields hold.
    var assetCount: Int { record?.fields.values.reduce(0) { $0 + $1.assets.count } ?? 0 }

    private static func journalKey(_ recordName: String, _ zone: RecordZoneID) -> String {
        "\(zone.zoneName)\u{1F}\(zone.ownerName)\u{1F}\(recordName)"
    }

    private static func saveOrder(_ changeTag: String) -> Int64 {
        Int64(changeTag, radix: 36) ?? .max
    }
}
