extension SchemaDefinition {
    /// This schema with `other`'s added, for a restore that merges: the roles and record types of
    /// both; for a type both define, the fields and grants of both, `other`'s options winning for a
    /// field both have. A field both have with different types is refused, naming `file` (`other`'s).
    func merging(_ other: SchemaDefinition, from file: String) throws -> SchemaDefinition {
        var types = Dictionary(uniqueKeysWithValues: recordTypes.map { ($0.name, $0) })
        for type in other.recordTypes {
            guard var merged = types[type.name] else {
                types[type.name] = type
                continue
            }
            for field in type.fields {
                if let existing = merged.field(named: field.name), existing.type.fieldType != field.type.fieldType {
                    throw CloudSeedError(
                        .invalidSchema,
                        "field \(type.name).\(field.name) is \(field.type) in the backup but \(existing.type) in the store; restore into a new \(option: .store)",
                        at: SourcePosition(file: file))
                }
            }
            merged.fields += type.fields
            merged.grants += type.grants
            types[type.name] = merged
        }
        return SchemaDefinition(roles: roles + other.roles, recordTypes: Array(types.values))
    }
}
