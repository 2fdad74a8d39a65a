package import CloudSeedCore

/// The schema of one container environment: its record types and their typed fields.
package struct Schema: Hashable, Sendable {
    package var recordTypes: [String: RecordTypeSchema]

    package init(recordTypes: [String: RecordTypeSchema] = [:]) {
        self.recordTypes = recordTypes
    }

    /// The record types of `fieldTypes`, each with the types of its fields by name.
    package init(fieldTypes: [String: [String: FieldType]]) {
        recordTypes = Dictionary(
            uniqueKeysWithValues: fieldTypes.map { ($0.key, RecordTypeSchema(name: $0.key, fields: $0.value)) })
    }

    /// The type of `field` in `recordType`, if the schema defines it.
    package func fieldType(_ field: String, in recordType: String) -> FieldType? {
        recordTypes[recordType]?.fields[field]
    }

    /// Record types in byte order, as CloudKit exports them.
    package var sortedRecordTypes: [RecordTypeSchema] {
        recordTypes.values.sorted { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) }
    }
}

/// A record type: its name and fields.
package struct RecordTypeSchema: Hashable, Sendable {
    package var name: String
    package var fields: [String: FieldType]

    package init(name: String, fields: [String: FieldType] = [:]) {
        self.name = name
        self.fields = fields
    }

    /// Field names in byte order (`CD_x` before `___x` before `title`), as CloudKit exports them.
    package var sortedFieldNames: [String] {
        fields.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    }
}
