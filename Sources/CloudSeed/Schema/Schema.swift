/// The schema of one container environment: its record types and their typed fields.
public struct Schema: Hashable, Sendable {
    public var recordTypes: [String: RecordTypeSchema]

    public init(recordTypes: [String: RecordTypeSchema] = [:]) {
        self.recordTypes = recordTypes
    }

    /// The type of `field` in `recordType`, if the schema defines it.
    public func fieldType(_ field: String, in recordType: String) -> FieldType? {
        recordTypes[recordType]?.fields[field]
    }

    /// Record types in byte order, as CloudKit exports them.
    public var sortedRecordTypes: [RecordTypeSchema] {
        recordTypes.values.sorted { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) }
    }
}

/// A record type: its name and fields.
public struct RecordTypeSchema: Hashable, Sendable {
    public var name: String
    public var fields: [String: FieldType]

    public init(name: String, fields: [String: FieldType] = [:]) {
        self.name = name
        self.fields = fields
    }

    /// Field names in byte order (`CD_x` before `___x` before `title`), as CloudKit exports them.
    public var sortedFieldNames: [String] {
        fields.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    }
}
