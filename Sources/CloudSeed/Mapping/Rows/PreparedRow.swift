/// A source row after key mapping and flattening: what both passes of the mapper work on.
struct PreparedRow {
    var recordType: String
    /// The name the source gives (CloudKit `recordName`, a dictionary key, a Django pk).
    var givenName: String?
    /// The well-known name column the row has, and its value.
    var nameColumn: (column: String, value: String)?
    /// The name the row's source gives it, by a name of its own or a name column: kept whatever
    /// rule names the type's other rows.
    var ownName: String? { givenName ?? nameColumn?.value }
    /// The text of a Django fixture entry's `pk`, its first field, which foreign keys to it hold.
    var primaryKey: String? { fields.first?.key == "pk" ? fields.first?.value.namingText : nil }
    var fields: [SourceField]
    /// The natural-key texts of the fields, by key (``NaturalKeys``), worked out while preparing.
    var naturalKeys: [(String, String)] = []
    /// The row's values by source key and by field name, for name templates.
    var templateValues: [String: PlainValue]
    var position: SourcePosition
    /// The row's number among the rows of its type in its source, from 1.
    var ordinal: Int
    /// Child records made from arrays of dictionaries, named after this row once it has a name.
    var children: [ChildRow]
    /// Field names that differ from the source key they come from: field → key.
    var renamedKeys: [String: String] = [:]
    /// The change tag the source gives, if any.
    var changeTag: String?
}

/// A record made from one dictionary of an array inside a row (`teams: [{...}]` → `Team`).
struct ChildRow {
    /// The array's or dictionary's key, which names the child's type and, with its place, the child's name.
    var key: String
    /// Its place in the array (a position from 1) or dictionary (its key).
    var place: String
    /// The field that points back to the parent.
    var parentField: String
    var row: PreparedRow
}

/// A prepared row's fields are its cells, in their order (``RecordBuilder``): each set, typed from
/// its value.
extension PreparedRow: RecordCells {
    var count: Int { fields.count }
    func isSet(_ column: Int) -> Bool { column < fields.count }
    func position(_ column: Int) -> SourcePosition { fields[column].position }
    func value(_ column: Int) -> PlainValue { fields[column].value }
    func namingText(_ column: Int) -> String? { fields[column].value.namingText }

    func withTextBytes<Result>(_ column: Int, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result? { nil }

    func typedByBytes(_ column: Int, as type: FieldType, converter: ValueConverter) -> (
        value: RecordValue, kind: InferredKind.TextKind?
    )? { nil }

    func location(latitude: Int, longitude: Int, converter: ValueConverter) -> RecordValue? { nil }
}
