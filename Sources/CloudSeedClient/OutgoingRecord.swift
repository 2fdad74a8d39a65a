import CloudKitWire
import CloudSeed

/// A record a push sends, read once from the store with what the later steps ask of it: where
/// its `fields` object is in the bytes the store wrote for its zone (``ZoneRecords``), or the
/// record itself where its assets must be uploaded first or its references ordered; where it comes
/// in the store's saves.
struct OutgoingRecord: Sendable {
    let recordName: String
    let recordType: String
    let zoneID: RecordZoneID
    /// The change tag it has in the local store.
    let changeTag: String
    let fields: Fields
    /// Where it comes in the order of its store's saves: its change tag's counter.
    let saveOrder: Int64
    /// The records of the same zone its VALIDATE references name.
    let validatedTargets: [String]
    /// Whether any of its references, in any zone, is VALIDATE.
    let hasValidatedReferences: Bool
    /// About how many bytes it takes in a request.
    let size: Int

    /// A record whose fields the store wrote, now at `fields` of its zone's bytes: none of its
    /// references has an action.
    init(_ written: RecordFieldsJSON, zoneID: RecordZoneID, fields: Range<Int>) {
        recordName = written.recordName
        recordType = written.recordType
        self.zoneID = zoneID
        changeTag = written.changeTag
        self.fields = .written(fields)
        saveOrder = Self.saveOrder(changeTag)
        validatedTargets = []
        hasValidatedReferences = false
        size = 256 + fields.count
    }

    init(_ record: CloudRecord) {
        recordName = record.recordID.recordName
        recordType = record.recordType
        zoneID = record.recordID.zoneID
        changeTag = record.system.changeTag
        fields = .values(record)
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

    /// The journal's key of the record: its zone, owner and name.
    var journalKey: String { RecordPusher.journalKey(recordName, zoneID) }

    /// The assets its fields hold.
    var assetCount: Int {
        guard case .values(let record) = fields else { return 0 }
        return record.fields.values.reduce(0) { $0 + $1.assets.count }
    }

    private static func saveOrder(_ changeTag: String) -> Int64 {
        Int64(changeTag, radix: 36) ?? .max
    }
}

extension OutgoingRecord {
    /// Where a record's `fields` object comes from.
    enum Fields: Sendable {
        /// The store wrote it: these bytes of ``ZoneRecords/fieldsJSON``.
        case written(Range<Int>)
        /// The store could not write it from its columns: it is written from the record's values,
        /// its assets uploaded first. Held in a box of its own, so that a push's many records
        /// whose fields the store wrote stay small to copy and sort.
        indirect case values(CloudRecord)
    }
}

/// The records of a zone a push sends, in the order it sends them, with the `fields` objects the
/// store wrote for them, one after the other in one buffer.
struct ZoneRecords: Sendable {
    var records: [OutgoingRecord] = []
    var fieldsJSON: [UInt8] = []
}
