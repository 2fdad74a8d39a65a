public import CloudSeedCore

/// Finds the records in a JSON or property-list document, whatever its shape, streaming where it can.
///
/// - A top-level array: one record per element (`[{"title": ...}, ...]`), streamed; a name alone
///   is a record with that `name` (`["France", "Italy"]`), a number or date one with that `value`.
/// - A top-level object:
///   - `records` (a CloudKit records/query response) or `operations` (a records/modify request):
///     CloudKit record dictionaries with typed fields, streamed;
///   - a member whose value is an array of objects: records of the type the key names, singular and
///     capitalised (`{"Artist": [...], "dishes": [...]}` → `Artist`, `Dish`), streamed; but arrays of
///     records of one shape under keys not all plural are groups of the source's own type, each
///     record keeping its key in a field `group` (`CreditCard.plist`'s `{"Citibank": [...], "DBS": [...]}`);
///   - a member whose value is an object of objects: records of the type the key names, each named by
///     its key (iTunes' `Tracks`, a Firebase export's `{"cards": {"-LC0Pa…": {...}}}`);
///   - objects keyed by data, as cities by their state (``isKeyedByData(_:)``): a record per entry,
///     of the source's own type, keeping both keys;
///   - when every member is an object and none is such a collection: records named by their keys
///     (`{"Item 0": {...}}`);
///   - beside such collections, an object: one record of the type its key names (json-server's
///     `profile`); integers alone: the document's counters (json-server's `nextId`), no record;
///   - what is left (scalars, plain values): one record of the source's own type (`Person.plist`).
/// - Elements: a CloudKit record dictionary (`recordType`, `fields`), a modify operation
///   (`operationType`, `record`), a Django fixture entry (`model`, `pk`, `fields`: one type per
///   model, `books.book` → `Book`, named `Book-pk`) or a plain object.
package enum DocumentShape {
    package static func rows<Cursor: DocumentCursor>(in cursor: inout Cursor, _ body: (SourceRow) throws -> Void) throws
    {
        switch try cursor.peekValue() {
        case .array:
            try streamArray(&cursor, recordType: nil, keyPrefix: "", body)
        case .object:
            try streamObject(&cursor, body)
        case .scalar:
            let node = try cursor.readValue()
            throw CloudSeedError(
                .malformedSource,
                "expected an array of records or an object at the top of the document, found \(describe(node))",
                at: node.position)
        }
        try cursor.finish()
    }

    private static func streamArray<Cursor: DocumentCursor>(
        _ cursor: inout Cursor, recordType: String?, keyPrefix: String, _ body: (SourceRow) throws -> Void
    ) throws {
        _ = try cursor.beginArray()
        var index = 0
        while try cursor.nextElement() {
            try body(try row(from: cursor.readRecord(), recordType: recordType, keyPath: "\(keyPrefix)[\(index)]"))
            cursor.releaseConsumed()
            index += 1
        }
    }

    private static func streamObject<Cursor: DocumentCursor>(_ cursor: inout Cursor, _ body: (SourceRow) throws -> Void)
        throws
    {
        let position = try cursor.beginObject()
        var plain: [(key: String, node: DocumentNode)] = []
        var streamedRecords = false
        var groups = ArrayGroups()
        while let (key, _) = try cursor.nextKey() {
            guard try cursor.peekValue() == .array else {
                plain.append((key, try cursor.readValue()))
                continue
            }
            if key == "records" || key == "operations" {
                try streamArray(&cursor, recordType: nil, keyPrefix: key, body)
                streamedRecords = true
                continue
            }
            let arrayPosition = try cursor.beginArray()
            var items: [DocumentNode] = []
            if try cursor.nextElement() {
                if try cursor.peekValue() == .object {
                    var read = try cursor.readRecord()
                    if let value = extendedJSONValue(read) {
                        // Values wrapped as MongoDB writes them (`[{"$oid": …}]`), not records.
                        items.append(value)
                        while try cursor.nextElement() { items.append(try cursor.readValue()) }
                        plain.append((key, .array(items, arrayPosition)))
                        continue
                    }
                    var index = 0
                    while true {
                        try groups.add(
                            try row(from: read, recordType: nil, keyPath: "\(key)[\(index)]"), key: key, body)
                        cursor.releaseConsumed()
                        index += 1
                        guard try cursor.nextElement() else { break }
                        read = try cursor.readRecord()
                    }
                    streamedRecords = true
                    continue
                }
                repeat { items.append(try cursor.readValue()) } while try cursor.nextElement()
            }
            plain.append((key, .array(items, arrayPosition)))
        }
        try groups.finish(body)
        try emitMembers(plain, at: position, streamedRecords: streamedRecords, body)
    }

    /// The value an element read as a record stands for, where it is a MongoDB Extended JSON wrapper.
    private static func extendedJSONValue(_ read: RecordRead) -> DocumentNode? {
        switch read {
        case .fields(let fields, let position):
            guard fields.count <= 2, fields.first?.key.utf8.first == UInt8(ascii: "$"),
                let value = ExtendedJSON.value(of: fields.map { PlainEntry($0.key, $0.value) })
            else { return nil }
            return .scalar(value, position)
        case .node(let node):
            if case .scalar = node { return node }
            return nil
        }
    }

    /// One row from an array's element at `keyPath`, as a cursor read it.
    package static func row(from read: RecordRead, recordType: String?, keyPath: String) throws -> SourceRow {
        switch read {
        case .fields(let fields, var position):
            position.keyPath = keyPath
            return SourceRow(recordType: recordType, fields: fields, position: position)
        case .node(let node):
            return try row(from: node, recordType: recordType, recordName: nil, keyPath: keyPath)
        }
    }

    /// Applies the object rules to the members that were not streamed.
    private static func emitMembers(
        _ members: [(key: String, node: DocumentNode)], at position: SourcePosition, streamedRecords: Bool,
        _ body: (SourceRow) throws -> Void
    ) throws {
        if !streamedRecords, isKeyedByData(members) {
            for row in groupedEntries(of: members) { try body(row) }
            return
        }
        if !streamedRecords, !members.isEmpty, members.allSatisfy({ isRecordLike($0.node) }),
            !members.contains(where: { isCollection($0.node) })
        {
            for (name, node) in members {
                try body(try row(from: node, recordType: nil, recordName: name, keyPath: name))
            }
            return
        }
        var singleton: [(key: String, node: DocumentNode)] = []
        var madeRecords = streamedRecords
        for (key, node) in members {
            if isCollection(node), let inner = node.members {
                let type = IdentifierMapping.recordType(forFileStem: key)
                for (name, record) in inner {
                    try body(try row(from: record, recordType: type, recordName: name, keyPath: "\(key).\(name)"))
                }
                madeRecords = true
            } else if !(streamedRecords && node.items?.isEmpty == true) {
                singleton.append((key, node))
            }
        }
        if madeRecords {
            // Beside collections, an object is one record of the type its key names (json-server's
            // `profile`), and integers alone are the document's counters (its `nextId`), not a record.
            for (key, node) in singleton where isRecordLike(node) {
                let type = IdentifierMapping.recordType(forFileStem: key)
                try body(try row(from: node, recordType: type, recordName: nil, keyPath: key))
            }
            singleton.removeAll { isRecordLike($0.node) }
            if singleton.allSatisfy({ if case .scalar(.integer, _) = $0.node { true } else { false } }) { return }
        }
        if !singleton.isEmpty {
            try body(try row(from: .object(singleton, position), recordType: nil, recordName: nil, keyPath: ""))
        }
    }

    /// An object of records keyed by their names (iTunes' `Tracks`, a Firebase export's `cards`).
    private static func isCollection(_ node: DocumentNode) -> Bool {
        guard let inner = node.members, !inner.isEmpty else { return false }
        return inner.allSatisfy { isRecordLike($0.node) }
    }

    /// An object that stands for a record rather than a location or a group of fields: it is an
    /// object, not a location, and at least one of its values is not itself an object.
    private static func isRecordLike(_ node: DocumentNode) -> Bool {
        guard let members = node.members, !members.isEmpty else { return false }
        return !LocationKeys.isLocation(members.lazy.map(\.key))
    }

    /// One row from an element node.
    package static func row(from node: DocumentNode, recordType: String?, recordName: String?, keyPath: String) throws
        -> SourceRow
    {
        guard let members = node.members else {
            var position = node.position
            if !keyPath.isEmpty { position.keyPath = keyPath }
            switch node {
            case .scalar(.string(let text), _), .scalar(.text(let text), _):
                // A list of names (`["France", "Italy"]`): a record per name.
                return SourceRow(
                    recordType: recordType, recordName: recordName,
                    fields: [SourceField(key: "name", value: .string(text), position: position)], position: position)
            case .scalar(.integer, _), .scalar(.real, _), .scalar(.date, _):
                return SourceRow(
                    recordType: recordType, recordName: recordName,
                    fields: [SourceField(key: "value", value: node.plainValue, position: position)], position: position)
            default:
                throw CloudSeedError(
                    .malformedSource,
                    "expected an object (one record), a name or a number, found \(describe(node))", at: node.position)
            }
        }
        var position = node.position
        if !keyPath.isEmpty { position.keyPath = keyPath }
        if let record = node.member("record"), node.member("operationType") != nil {
            return try row(from: record, recordType: recordType, recordName: recordName, keyPath: keyPath + ".record")
        }
        if let type = node.member("recordType")?.stringValue, let fields = node.member("fields")?.members {
            return SourceRow(
                recordType: type, recordName: node.member("recordName")?.stringValue ?? recordName,
                fields: try fields.map { try cloudKitField(key: $0.key, node: $0.node) }, position: position,
                changeTag: node.member("recordChangeTag")?.stringValue)
        }
        if let model = node.member("model")?.stringValue, let fields = node.member("fields")?.members {
            // The model's name without its app's (`books.book` → `Book`), as people call it.
            let modelName = model.split(separator: ".").last.map { $0.lowercased() } ?? model
            let type = IdentifierMapping.identifier(for: modelName.prefix(1).uppercased() + modelName.dropFirst())
            var values = fields.map { SourceField(key: $0.key, value: $0.node.plainValue, position: $0.node.position) }
            var name = recordName
            if let pk = node.member("pk") {
                name = pk.plainValue.namingText.map { "\(type)-\($0)" }
                values.insert(SourceField(key: "pk", value: pk.plainValue, position: pk.position), at: 0)
            }
            return SourceRow(recordType: type, recordName: name, fields: values, position: position)
        }
        return SourceRow(
            recordType: recordType, recordName: recordName,
            fields: members.map { SourceField(key: $0.key, value: $0.node.plainValue, position: $0.node.position) },
            position: position)
    }

    /// A CloudKit field dictionary `{"value": ..., "type": "STRING"}`.
    private static func cloudKitField(key: String, node: DocumentNode) throws -> SourceField {
        try cloudKitField(key: key, value: node.member("value"), type: node.member("type"), at: node.position)
    }

    /// A CloudKit field dictionary of `key`, at `position`, from its `value` and `type` members.
    package static func cloudKitField(
        key: String, value: DocumentNode?, type typeNode: DocumentNode?, at position: SourcePosition
    )
        throws -> SourceField
    {
        guard let value else {
            throw CloudSeedError(
                .malformedSource,
                "field '\(key)' of a CloudKit record needs a dictionary {\"value\": ..., \"type\": ...}",
                at: position)
        }
        var declared: FieldType?
        var isTypedByShape = false
        if let typeNode, let typeName = typeNode.stringValue, typeName != "LIST" {
            guard let type = FieldType(name: typeName) else {
                throw CloudSeedError(
                    .malformedSource,
                    "unknown field type '\(typeName)' for field '\(key)'; use one of STRING, INT64, DOUBLE, BYTES, TIMESTAMP, LOCATION, REFERENCE, ASSETID or a list such as STRING_LIST",
                    at: typeNode.position)
            }
            declared = type
        } else {
            declared = try CloudKitValueShape.type(of: value, field: key)
            isTypedByShape = declared != nil
        }
        return SourceField(
            key: key, value: value.plainValue, position: value.position, declaredType: declared,
            isTypedByShape: isTypedByShape)
    }

    package static func describe(_ node: DocumentNode) -> String {
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
@usableFromInline package enum LocationKeys {
    @usableFromInline package static let latitude = ["latitude", "lat"]
    @usableFromInline package static let longitude = ["longitude", "lng", "lon", "long"]

    /// The field a latitude and a longitude side by side make (``LocationColumns``).
    package static let field = "location"

    /// The keys, in order, of the location ``location(latitude:longitude:)`` makes.
    @usableFromInline static let madeKeys = ["latitude", "longitude"]

    /// A location of a latitude and a longitude, as columns side by side make it (``LocationColumns``).
    package static func location(latitude: PlainValue, longitude: PlainValue) -> PlainValue {
        .dictionary([PlainEntry(madeKeys[0], latitude), PlainEntry(madeKeys[1], longitude)])
    }

    /// Whether `keys` are those of a location ``location(latitude:longitude:)`` made: the common
    /// location, told without a search.
    @inlinable package static func areMade<Keys: Collection<String>>(_ keys: Keys) -> Bool {
        keys.count == 2 && keys.elementsEqual(madeKeys)
    }

    /// Whether the keys include one latitude and one longitude name (case-insensitive).
    @inlinable package static func isLocation<Keys: Collection<String>>(_ keys: Keys) -> Bool {
        if areMade(keys) { return true }
        return keys.contains { CaseInsensitiveNames.matchesAny($0, latitude) }
            && keys.contains { CaseInsensitiveNames.matchesAny($0, longitude) }
    }
}
