package import CloudSeedCore

/// The changes that make a container environment's record types and fields those of a target schema,
/// in the order a store applies them: each store carries the steps out in its own tables.
package enum SchemaStep: Equatable {
    case createRecordType(String)
    case addField(String, type: FieldType, to: String)
    /// Also the first half of changing a field's type: removed, then added anew.
    case removeField(String, from: String)
    case removeRecordType(String)

    package static func steps(from current: Schema, to target: Schema) -> [SchemaStep] {
        var steps: [SchemaStep] = []
        // In name order, so that the same schema makes the same tables, columns in the same order.
        for (name, recordType) in target.recordTypes.sorted(by: { $0.key < $1.key }) {
            if current.recordTypes[name] == nil { steps.append(.createRecordType(name)) }
            for (field, type) in recordType.fields.sorted(by: { $0.key < $1.key }) {
                let existing = current.recordTypes[name]?.fields[field]
                if existing == type { continue }
                if existing != nil { steps.append(.removeField(field, from: name)) }
                steps.append(.addField(field, type: type, to: name))
            }
            for field in (current.recordTypes[name]?.fields.keys).map({ $0.sorted() }) ?? []
            where recordType.fields[field] == nil {
                steps.append(.removeField(field, from: name))
            }
        }
        for name in current.recordTypes.keys.sorted() where target.recordTypes[name] == nil {
            steps.append(.removeRecordType(name))
        }
        return steps
    }
}
