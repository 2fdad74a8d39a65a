/// Finds the records in a parsed JSON or property-list document, whatever its shape.
///
/// Shapes, tried in this order:
/// - an array: one record per element (`[{"title": ...}, ...]`);
/// - an object with a `records` array: CloudKit Web Services records (`{"records": [...]}`);
/// - an object whose values are all arrays: keyed by record type (`{"Artist": [...], "Artwork": [...]}`);
/// - an object whose values are all objects: records named by their keys (`{"Item 0": {...}}`);
/// - any other object: one record (`{"recordName": "lastPerson", "name": ...}`).
///
/// An element with `recordType` and a `fields` object is a CloudKit record dictionary with typed fields.
enum DocumentShape {
    static func rows(in document: DocumentNode, _ body: (SourceRow) throws -> Void) throws {
        switch document {
        case .array(let items, _):
            for item in items { try body(row(from: item, recordType: nil, recordName: nil)) }
        case .object(let members, _):
            if let records = document.member("records"), let items = records.items {
                for item in items { try body(row(from: item, recordType: nil, recordName: nil)) }
            } else if !members.isEmpty, members.allSatisfy({ $0.node.items != nil }) {
                for (type, node) in members {
                    for item in node.items ?? [] { try body(row(from: item, recordType: type, recordName: nil)) }
                }
            } else if !members.isEmpty, members.allSatisfy({ isRecordLike($0.node) }) {
                for (name, node) in members { try body(row(from: node, recordType: nil, recordName: name)) }
            } else {
                try body(row(from: document, recordType: nil, recordName: nil))
            }
        case .scalar(_, let position):
            throw CloudSeedError(
                "expected an array of records or an object at the top of the document, found a single value",
                at: position)
        }
    }

    /// An object that stands for a record rather than a location or a flattened group: it has a non-object field.
    private static func isRecordLike(_ node: DocumentNode) -> Bool {
        guard let members = node.members, !members.isEmpty else { return false }
        return !LocationKeys.isLocation(members.map(\.key))
    }

    /// One row from an object node; CloudKit record dictionaries keep their declared types.
    static func row(from node: DocumentNode, recordType: String?, recordName: String?) throws -> SourceRow {
        guard let members = node.members else {
            throw CloudSeedError("expected an object (one record), found \(describe(node))", at: node.position)
        }
        if let type = node.member("recordType")?.stringValue, let fields = node.member("fields")?.members {
            return SourceRow(
                recordType: type, recordName: node.member("recordName")?.stringValue ?? recordName,
                fields: try fields.map { try cloudKitField(key: $0.key, node: $0.node) }, position: node.position)
        }
        return SourceRow(
            recordType: recordType, recordName: recordName,
            fields: members.map { SourceField(key: $0.key, value: $0.node.plainValue, position: $0.node.position) },
            position: node.position)
    }

    /// A CloudKit field dictionary `{"value": ..., "type": "STRING"}`.
    private static func cloudKitField(key: String, node: DocumentNode) throws -> SourceField {
        guard let value = node.member("value") else {
            throw CloudSeedError(
                "field '\(key)' of a CloudKit record needs a dictionary {\"value\": ..., \"type\": ...}",
                at: node.position)
        }
        var declared: FieldType?
        if let typeName = node.member("type")?.stringValue, typeName != "LIST" {
            guard let type = FieldType(name: typeName) else {
                throw CloudSeedError(
                    "unknown field type '\(typeName)' for field '\(key)'; use one of STRING, INT64, DOUBLE, BYTES, TIMESTAMP, LOCATION, REFERENCE, ASSETID or a list such as STRING_LIST",
                    at: node.member("type")?.position ?? node.position)
            }
            declared = type
        }
        return SourceField(key: key, value: value.plainValue, position: value.position, declaredType: declared)
    }

    static func describe(_ node: DocumentNode) -> String {
        switch node {
        case .array: "an array"
        case .object: "an object"
        case .scalar(let value, _):
            switch value {
            case .string, .text: "a string"
            case .integer, .real: "a number"
            case .bool: "a boolean"
            case .date: "a date"
            case .data: "data"
            case .null: "null"
            case .array, .dictionary: "a value"
            }
        }
    }
}

/// The key names that make a dictionary a location.
enum LocationKeys {
    static let latitude: Set<String> = ["latitude", "lat"]
    static let longitude: Set<String> = ["longitude", "lng", "lon", "long"]

    /// Whether the keys include one latitude and one longitude name (case-insensitive).
    static func isLocation(_ keys: [String]) -> Bool {
        let lowered = keys.map { $0.lowercased() }
        return lowered.contains(where: latitude.contains) && lowered.contains(where: longitude.contains)
    }
}
