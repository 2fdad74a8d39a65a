/// Types the record dictionary of a Web Services request the way an import types a CloudKit
/// record: the schema's type wins, then the `type` the dictionary gives, then the shape of the
/// value. Values go through the import's ``ValueConverter``, schema changes through its
/// ``SchemaChanges``, so a request is refused with the words `cloudseed import` uses.
enum RecordDictionaryTyping {
    /// A record of the request, with how each field was typed, for ``SchemaChanges``.
    struct Typed {
        var recordType: String
        var recordName: String?
        var changeTag: String?
        var fields: [String: RecordValue]
        /// Each field's type and the rule that chose it, with where its value is.
        var fieldPlans: [(key: String, field: PlannedField, position: SourcePosition)]
        var position: SourcePosition

        /// The record type its fields plan, as an import plans one.
        var planned: PlannedRecordType {
            var planned = PlannedRecordType(
                name: recordType, fields: [:], namingRule: .fromSource, rowsWithOwnName: 1, rowCount: 1,
                firstRowPosition: position, firstPositions: [:])
            for plan in fieldPlans {
                planned.fields[plan.key] = plan.field
                planned.firstPositions[plan.key] = plan.position
            }
            return planned
        }
    }

    /// Types the fields of `row`, a record dictionary's (``ModifyRequest``), with `schema`.
    static func typed(_ row: SourceRow, schema: Schema) throws -> Typed {
        let position = row.position
        guard let recordType = row.recordType else {
            throw CloudSeedError(.malformedSource, "the record has no recordType", at: position)
        }
        guard IdentifierMapping.isValid(recordType) else {
            throw CloudSeedError(
                .invalidOption,
                "'\(recordType)' is not a record type name: names start with a letter and hold letters, digits and '_'",
                at: position)
        }
        let converter = ValueConverter(
            loadAsset: { _, _ in
                throw ValueConverter.Mismatch(
                    valueType: "STRING", detail: "an ASSETID value is the dictionary assets/upload answers")
            }, recordName: { $0 })
        var typed = Typed(
            recordType: recordType, recordName: row.recordName, changeTag: row.changeTag, fields: [:],
            fieldPlans: [], position: position)
        typed.fields.reserveCapacity(row.fields.count)
        typed.fieldPlans.reserveCapacity(row.fields.count)
        let known = schema.recordTypes[recordType]
        for field in row.fields where field.value != .null {
            guard IdentifierMapping.isValid(field.key) else {
                throw CloudSeedError(
                    .invalidOption,
                    "'\(field.key)' is not a field name: names start with a letter and hold letters, digits and '_'",
                    at: field.position)
            }
            let plannedField: PlannedField
            if let type = known?.fields[field.key] {
                plannedField = PlannedField(type: type, rule: .schema)
            } else if let type = field.declaredType {
                plannedField = PlannedField(type: type, rule: field.isTypedByShape ? .cloudKitValue : .declared)
            } else {
                plannedField = PlannedField(type: inferredType(of: field.value), rule: .inferred)
            }
            do {
                typed.fields[field.key] = try converter.convert(field.value, to: plannedField.type, at: field.position)
            } catch let mismatch as ValueConverter.Mismatch {
                throw FieldErrors.typeError(
                    mismatch, field: field.key, recordType: recordType, planned: plannedField, at: field.position)
            }
            typed.fieldPlans.append((field.key, plannedField, field.position))
        }
        return typed
    }

    /// The type CloudKit gives a value written without one: a real is a DOUBLE, other numbers and
    /// booleans INT64, a list the list of its first item's type (DOUBLE where one
    /// is a real), anything else a STRING.
    private static func inferredType(of value: PlainValue) -> FieldType {
        switch value {
        case .integer, .bool: .int64
        case .real: .double
        case .date: .timestamp
        case .data: .bytes
        case .array(let items):
            .list(
                items.contains { inferredType(of: $0) == .double } ? .double : items.first.map(inferredType) ?? .string)
        default: .string
        }
    }
}
