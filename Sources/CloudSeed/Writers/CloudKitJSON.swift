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
        let fields = record.sortedFieldNames.map { name in
            let value = record.fields[name]!
            return (name, field(value, json: self.value(value, downloadURL: downloadURL)))
        }
        return JSONText.object([
            ("recordName", JSONText.quoted(record.recordID.recordName)),
            ("recordType", JSONText.quoted(record.recordType)),
            ("recordChangeTag", JSONText.quoted(record.system.changeTag)),
            ("fields", JSONText.object(fields)),
            ("created", stamp(record.system.createdTimestamp, record.system.createdUserRecordName)),
            ("modified", stamp(record.system.modifiedTimestamp, record.system.modifiedUserRecordName)),
            ("zoneID", zoneID(record.recordID.zoneID)),
        ])
    }

    /// A field dictionary, `{value, type}`, of `value` written as `json`.
    package static func field(_ value: RecordValue, json: String) -> String {
        JSONText.object([("value", json), ("type", JSONText.quoted(value.fieldType.wireName))])
    }

    /// The `value` of a field dictionary.
    package static func value(_ value: RecordValue) -> String {
        self.value(value, downloadURL: nil)
    }

    /// The `value` of a field dictionary, assets with their `downloadURL` where it is given.
    package static func value(_ value: RecordValue, downloadURL: ((AssetReference) -> String)?) -> String {
        switch value {
        case .string(let text): JSONText.quoted(text)
        case .int64(let number): String(number)
        case .double(let number): JSONText.number(number)
        case .bytes(let data): JSONText.quoted(data.base64EncodedString())
        case .timestamp(let milliseconds): String(milliseconds)
        case .location(let location): location.cloudKitJSON
        case .reference(let reference): reference.cloudKitJSON
        case .asset(let asset):
            JSONText.object(
                [("fileChecksum", JSONText.quoted(asset.fileChecksum)), ("size", String(asset.size))]
                    + (downloadURL.map { [("downloadURL", JSONText.quoted($0(asset)))] } ?? []))
        case .list(_, let items): JSONText.array(items.map { self.value($0, downloadURL: downloadURL) })
        }
    }

    private static func stamp(_ timestamp: Int64, _ user: String) -> String {
        JSONText.object([("timestamp", String(timestamp)), ("userRecordName", JSONText.quoted(user))])
    }

    private static func zoneID(_ zone: RecordZoneID) -> String {
        JSONText.object([
            ("zoneName", JSONText.quoted(zone.zoneName)), ("ownerRecordName", JSONText.quoted(zone.ownerName)),
        ])
    }
}

/// The layouts `cloudseed export` writes.
public enum ExportFormat: String, CaseIterable, Sendable {
    /// One record dictionary per line.
    case jsonl
    /// `{"records": [...]}`, one record per line inside the array, as records/query answers.
    case cloudkitJSON = "cloudkit-json"
    /// An XML property list of the same dictionaries, with `<date>` and `<data>` values.
    case plist
    /// CSV, one file per record type, with typed headers (`price:DOUBLE`).
    case csv
}

/// Streams records to an output in an export format.
public struct RecordWriter {
    public var format: ExportFormat
    private var count = 0
    private let write: (String) -> Void

    public init(format: ExportFormat, write: @escaping (String) -> Void) {
        self.format = format
        self.write = write
    }

    public mutating func begin() {
        switch format {
        case .cloudkitJSON: write("{\"records\":[")
        case .plist: write(PropertyListWriter.header)
        case .jsonl, .csv: break
        }
    }

    public mutating func append(_ record: CloudRecord) {
        switch format {
        case .jsonl: write(CloudKitJSON.record(record) + "\n")
        case .cloudkitJSON: write((count == 0 ? "\n" : ",\n") + CloudKitJSON.record(record))
        case .plist: write(PropertyListWriter.record(record))
        case .csv: preconditionFailure("CSV goes through CSVExporter")
        }
        count += 1
    }

    public mutating func end() {
        switch format {
        case .cloudkitJSON: write(count == 0 ? "]}\n" : "\n]}\n")
        case .plist: write(PropertyListWriter.footer)
        case .jsonl, .csv: break
        }
    }
}
