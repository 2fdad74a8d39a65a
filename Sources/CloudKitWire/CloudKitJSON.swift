package import CloudSeedCore
import Foundation

/// Writes records as CloudKit Web Services record dictionaries:
///
/// ```json
/// {"recordName":"ToDoItem-1","recordType":"ToDoItem","recordChangeTag":"1",
///  "fields":{"dueDate":{"value":1572220800000,"type":"TIMESTAMP"},"title":{"value":"Get apples","type":"STRING"}},
///  "created":{"timestamp":1700000000000,"userRecordName":"__defaultOwner__"},
///  "modified":{"timestamp":1700000000000,"userRecordName":"__defaultOwner__"},
///  "zoneID":{"zoneName":"_defaultZone","ownerRecordName":"__defaultOwner__"}}
/// ```
///
/// Fields are in byte order; TIMESTAMP values are milliseconds since 1970, BYTES are Base64.
package enum CloudKitJSON {
    /// One record dictionary on one line.
    package static func record(_ record: CloudRecord) -> String {
        self.record(record, downloadURL: nil)
    }

    /// One record dictionary on one line; with `downloadURL`, each asset carries the URL its
    /// bytes are fetched from, as a server answers.
    package static func record(_ record: CloudRecord, downloadURL: ((AssetReference) -> String)?) -> String {
        var bytes: [UInt8] = []
        appendRecord(record, downloadURL: downloadURL, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends ``record(_:downloadURL:)``'s text to `bytes`.
    package static func appendRecord(
        _ record: CloudRecord, downloadURL: ((AssetReference) -> String)?, to bytes: inout [UInt8]
    ) {
        appendRecordName(record.recordID.recordName.utf8, to: &bytes)
        bytes += recordTypeKeys(record.recordType, changeTag: true)
        JSONText.appendQuoted(record.system.changeTag.utf8, to: &bytes)
        bytes += fieldsKey
        bytes.append(UInt8(ascii: "{"))
        for (offset, name) in record.sortedFieldNames.enumerated() {
            if offset > 0 { bytes.append(UInt8(ascii: ",")) }
            JSONText.appendQuoted(name.utf8, to: &bytes)
            bytes.append(UInt8(ascii: ":"))
            appendField(record.fields[name]!, downloadURL: downloadURL, to: &bytes)
        }
        bytes.append(UInt8(ascii: "}"))
        let system = record.system
        appendStamps(
            created: system.createdTimestamp, by: system.createdUserRecordName.utf8,
            modified: system.modifiedTimestamp, by: system.modifiedUserRecordName.utf8, to: &bytes)
        bytes += zoneKeyAndEnd(record.recordID.zoneID)
    }

    // A record dictionary in the parts its writers fill in: `record(_:)` from a record, a store
    // from its columns, `push` around the fields the store wrote. In this order:

    /// Opens a record dictionary with its name: `{"recordName":"…"`.
    package static func appendRecordName(_ name: some Collection<UInt8>, to bytes: inout [UInt8]) {
        bytes += #"{"recordName":"#.utf8
        JSONText.appendQuoted(name, to: &bytes)
    }

    /// `,"recordType":"…"`, then the key of the change tag that follows it where `changeTag`.
    package static func recordTypeKeys(_ recordType: String, changeTag: Bool) -> [UInt8] {
        var bytes = Array(#","recordType":"#.utf8)
        JSONText.appendQuoted(recordType.utf8, to: &bytes)
        if changeTag { bytes += #","recordChangeTag":"#.utf8 }
        return bytes
    }

    /// The key of the fields object that follows it.
    package static let fieldsKey = Array(#","fields":"#.utf8)

    /// `,"created":{…},"modified":{…}`: when and by whom the record was created and last changed.
    package static func appendStamps(
        created: Int64, by creator: some Collection<UInt8>, modified: Int64, by modifier: some Collection<UInt8>,
        to bytes: inout [UInt8]
    ) {
        bytes += #","created":{"timestamp":"#.utf8
        bytes += String(created).utf8
        bytes += #","userRecordName":"#.utf8
        JSONText.appendQuoted(creator, to: &bytes)
        bytes += #"},"modified":{"timestamp":"#.utf8
        bytes += String(modified).utf8
        bytes += #","userRecordName":"#.utf8
        JSONText.appendQuoted(modifier, to: &bytes)
        bytes.append(UInt8(ascii: "}"))
    }

    /// `,"zoneID":{…}}`: the zone, and the end of the dictionary.
    package static func zoneKeyAndEnd(_ zoneID: RecordZoneID) -> [UInt8] {
        var bytes = Array(#","zoneID":"#.utf8)
        zoneID.appendCloudKitJSON(to: &bytes)
        bytes.append(UInt8(ascii: "}"))
        return bytes
    }

    /// What comes before a field's value in the fields object: `"name":{"value":`.
    package static func fieldHead(_ name: String) -> [UInt8] {
        var bytes: [UInt8] = []
        JSONText.appendQuoted(name.utf8, to: &bytes)
        bytes += #":{"value":"#.utf8
        return bytes
    }

    /// What follows a field's value: `,"type":"STRING"}`.
    package static func fieldTail(_ type: FieldType) -> [UInt8] {
        var bytes = Array(#","type":"#.utf8)
        JSONText.appendQuoted(type.wireName.utf8, to: &bytes)
        bytes.append(UInt8(ascii: "}"))
        return bytes
    }

    /// A field dictionary, `{value, type}`, of `value` written as `json`.
    package static func field(_ value: RecordValue, json: String) -> String {
        JSONText.object([("value", json), ("type", JSONText.quoted(value.fieldType.wireName))])
    }

    /// Appends the field dictionary of `value`, `{value, type}`, to `bytes`.
    package static func appendField(
        _ value: RecordValue, downloadURL: ((AssetReference) -> String)?, to bytes: inout [UInt8]
    ) {
        bytes += #"{"value":"#.utf8
        appendValue(value, downloadURL: downloadURL, to: &bytes)
        bytes += fieldTail(value.fieldType)
    }

    /// The `value` of a field dictionary.
    package static func value(_ value: RecordValue) -> String {
        var bytes: [UInt8] = []
        appendValue(value, downloadURL: nil, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends the `value` of a field dictionary to `bytes`, assets with their `downloadURL`
    /// where it is given.
    package static func appendValue(
        _ value: RecordValue, downloadURL: ((AssetReference) -> String)?, to bytes: inout [UInt8]
    ) {
        switch value {
        case .string(let text): JSONText.appendQuoted(text.utf8, to: &bytes)
        case .int64(let number): bytes += String(number).utf8
        case .double(let number): JSONText.appendNumber(number, to: &bytes)
        case .bytes(let data): JSONText.appendQuoted(data.base64EncodedString().utf8, to: &bytes)
        case .timestamp(let milliseconds): bytes += String(milliseconds).utf8
        case .location(let location): location.appendCloudKitJSON(to: &bytes)
        case .reference(let reference): reference.appendCloudKitJSON(to: &bytes)
        case .asset(let asset):
            bytes += #"{"fileChecksum":"#.utf8
            JSONText.appendQuoted(asset.fileChecksum.utf8, to: &bytes)
            bytes += #","size":"#.utf8
            bytes += String(asset.size).utf8
            if let downloadURL {
                bytes += #","downloadURL":"#.utf8
                JSONText.appendQuoted(downloadURL(asset).utf8, to: &bytes)
            }
            bytes.append(UInt8(ascii: "}"))
        case .list(_, let items):
            bytes.append(UInt8(ascii: "["))
            for (offset, item) in items.enumerated() {
                if offset > 0 { bytes.append(UInt8(ascii: ",")) }
                appendValue(item, downloadURL: downloadURL, to: &bytes)
            }
            bytes.append(UInt8(ascii: "]"))
        }
    }
}
