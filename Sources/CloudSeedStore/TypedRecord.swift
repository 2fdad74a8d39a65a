package import CloudSeedCore
package import Foundation

/// A record as the plan types it: its values in the order of the type's field names in byte order
/// (``PlannedRecordType/sortedFieldNames``), `nil` where the row leaves a field unset. What every
/// row of an import becomes: inserted as it is into a type whose table is empty, compared with the
/// stored record or saved over it otherwise.
package struct TypedRecord {
    package var recordType: String
    package var recordName: String
    /// Empty where the values are only kept encoded (``encodedValues``).
    package var values: [RecordValue?]
    /// The row the record comes from.
    package var position: SourcePosition
    /// The values as the store encodes them (``StoredValueEncoder``), where they were encoded where
    /// the record was typed: then only the store's ``StoreTransaction/insertNew(_:fieldNames:system:in:)`` takes the record.
    package var encodedValues: [UInt8]? = nil
    /// The change tag the source gives, which `--mode update-if-unchanged` compares with the store's.
    package var changeTag: String? = nil
    /// Whether a value must be checked against the store before it is saved: an asset given as
    /// metadata only, whose bytes the store must hold, or a reference into a named zone.
    package var checksStore = false
    /// The content of the asset files the record's values load, by checksum.
    package var assetContents: [String: Data] = [:]

    package init(
        recordType: String, recordName: String, values: [RecordValue?], position: SourcePosition,
        encodedValues: [UInt8]? = nil
    ) {
        self.recordType = recordType
        self.recordName = recordName
        self.values = values
        self.position = position
        self.encodedValues = encodedValues
    }

    /// The record as a ``CloudRecord`` of `fieldNames` (the order of ``values``), with `system`'s
    /// times and users where given, and the source's change tag.
    package func cloudRecord(fieldNames: [String], system: SystemFields? = nil) -> CloudRecord {
        var fields: [String: RecordValue] = [:]
        for (name, value) in zip(fieldNames, values) { fields[name] = value }
        var record = CloudRecord(recordType: recordType, recordID: RecordID(recordName: recordName), fields: fields)
        if let system { record.system = system }
        if let changeTag { record.system.changeTag = changeTag }
        return record
    }
}
