import CloudKitWire
package import CloudSeedCore
import CloudSeedReaders
import Foundation

/// How a field value is kept in a SQLite column, in the type a person reading the table expects:
///
/// | field type | column | example |
/// | --- | --- | --- |
/// | STRING, INT64, DOUBLE, BYTES | TEXT, INTEGER, REAL, BLOB | `Get apples`, `0`, `1250.5` |
/// | TIMESTAMP | TEXT, ISO 8601 UTC with milliseconds | `2019-10-28T00:00:00.000Z` |
/// | LOCATION | TEXT, JSON | `{"latitude":39.3,"longitude":-123.8}` |
/// | REFERENCE | TEXT, the record name; JSON when the action is not NONE | `Mei Chen` |
/// | ASSET | TEXT, the SHA-256 of the file in `_cloudseed_assets` | `9f86d0…` |
/// | LIST<T> | TEXT, a JSON array of the element forms above | `["coast","oil"]` |
package enum SQLiteValueCodec {
    /// The declared column type for a field type; it sets SQLite's affinity, so `"007"` stays text.
    package static func columnType(for type: FieldType) -> String {
        switch type {
        case .int64: "INTEGER"
        case .double: "REAL"
        case .bytes: "BLOB"
        default: "TEXT"
        }
    }

    /// Whether a column of `type` holds each value in the very form export writes it (CloudKit JSON's
    /// value, CSV's cell), so that export can copy the column: all but ASSET (exported with its size)
    /// and lists of TIMESTAMP, REFERENCE and ASSET (exported as numbers and dictionaries).
    package static func holdsExportForm(_ type: FieldType) -> Bool {
        switch type {
        case .asset, .list(.timestamp), .list(.reference), .list(.asset): false
        default: true
        }
    }

    /// Whether stored TIMESTAMP text is exactly as ``Timestamp/format(_:)`` writes it: `2019-05-04T12:34:56.000Z`.
    package static func isFormattedTimestamp(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        bytes.count == 24 && bytes[4] == UInt8(ascii: "-") && bytes[7] == UInt8(ascii: "-")
            && bytes[10] == UInt8(ascii: "T")
            && bytes[13] == UInt8(ascii: ":") && bytes[16] == UInt8(ascii: ":") && bytes[19] == UInt8(ascii: ".")
            && bytes[23] == UInt8(ascii: "Z") && Timestamp.parse(utf8: bytes) != nil
    }

    package static func encode(_ value: RecordValue) -> SQLiteValue {
        switch value {
        case .string(let text): .text(text)
        case .int64(let number): .integer(number)
        case .double(let number): .real(number)
        case .bytes(let data): .blob(data)
        case .timestamp(let milliseconds): .text(Timestamp.format(milliseconds) ?? String(milliseconds))
        case .reference(let reference) where reference.isKeptAsName:
            .text(reference.recordName)
        case .asset(let asset): .text(asset.fileChecksum)
        case .location, .reference, .list: .text(jsonElement(value))
        }
    }

    /// The JSON form of a value inside a list (or a location or non-plain reference column).
    package static func jsonElement(_ value: RecordValue) -> String {
        var bytes: [UInt8] = []
        appendJSONElement(value, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends ``jsonElement(_:)``'s text to `bytes`.
    package static func appendJSONElement(_ value: RecordValue, to bytes: inout [UInt8]) {
        switch value {
        case .string(let text): JSONText.appendQuoted(text.utf8, to: &bytes)
        case .int64(let number): bytes += String(number).utf8
        case .double(let number): JSONText.appendNumber(number, to: &bytes)
        case .bytes(let data): JSONText.appendQuoted(data.base64EncodedString().utf8, to: &bytes)
        case .timestamp(let milliseconds):
            bytes.append(UInt8(ascii: "\""))
            _ = Timestamp.append(milliseconds, to: &bytes)
            bytes.append(UInt8(ascii: "\""))
        case .location(let location): location.appendCloudKitJSON(to: &bytes)
        case .reference(let reference):
            if reference.isKeptAsName { return JSONText.appendQuoted(reference.recordName.utf8, to: &bytes) }
            bytes += reference.cloudKitJSON.utf8
        case .asset(let asset): JSONText.appendQuoted(asset.fileChecksum.utf8, to: &bytes)
        case .list(_, let items):
            bytes.append(UInt8(ascii: "["))
            for (offset, item) in items.enumerated() {
                if offset > 0 { bytes.append(UInt8(ascii: ",")) }
                appendJSONElement(item, to: &bytes)
            }
            bytes.append(UInt8(ascii: "]"))
        }
    }

    /// Reads a column back as a value of `type`; `nil` for NULL (the field is not set).
    package static func decode(_ column: SQLiteValue, as type: FieldType, assetSizes: (String) throws -> Int64) throws
        -> RecordValue?
    {
        switch (type, column) {
        case (_, .null): return nil
        case (.string, .text(let text)): return .string(text)
        case (.int64, .integer(let number)): return .int64(number)
        case (.double, .real(let number)): return .double(number)
        case (.double, .integer(let number)): return .double(Double(number))
        case (.bytes, .blob(let data)): return .bytes(data)
        case (.timestamp, .text(let text)):
            if let milliseconds = Timestamp.parse(text) { return .timestamp(milliseconds) }
        case (.reference, .text(let text)) where !text.hasPrefix("{"):
            return .reference(Reference(recordName: text))
        case (.asset, .text(let checksum)):
            return .asset(AssetReference(fileChecksum: checksum, size: try assetSizes(checksum)))
        case (_, .text(let text)):
            var parser = JSONParser(input: ChunkedInput(bytes: Array(text.utf8)), file: "column")
            if let node = try? parser.parseDocument() {
                return try decode(json: node, as: type, assetSizes: assetSizes)
            }
        default: break
        }
        throw CloudSeedError(.storeFailure, "the store holds a value that is not a \(type.schemaName): \(column)")
    }

    private static func decode(json node: DocumentNode, as type: FieldType, assetSizes: (String) throws -> Int64)
        throws -> RecordValue?
    {
        if case .list(let element) = type, let items = node.items {
            return .list(element, try items.compactMap { try decode(json: $0, as: element, assetSizes: assetSizes) })
        }
        switch (type, node.plainValue) {
        case (.string, .string(let text)): return .string(text)
        case (.int64, .integer(let number)): return .int64(number)
        case (.double, .real(let number)): return .double(number)
        case (.double, .integer(let number)): return .double(Double(number))
        case (.bytes, .string(let text)): return Data(base64Encoded: text).map { .bytes($0) }
        case (.timestamp, .string(let text)): return Timestamp.parse(text).map { .timestamp($0) }
        case (.reference, .string(let text)): return .reference(Reference(recordName: text))
        case (.asset, .string(let checksum)):
            return .asset(AssetReference(fileChecksum: checksum, size: try assetSizes(checksum)))
        // Kept as their CloudKit JSON.
        case (.location, .dictionary), (.reference, .dictionary):
            return try CloudKitRecordDecoding.value(node, as: type)
        default: return nil
        }
    }
}

extension Reference {
    /// Whether the reference is kept (and exported as a CSV cell) as its record name alone: it has
    /// no action and no zone of its own, and its name cannot be mistaken for the JSON object any other reference is kept as.
    package var isKeptAsName: Bool { action == .none && zoneName == nil && !recordName.hasPrefix("{") }
}
