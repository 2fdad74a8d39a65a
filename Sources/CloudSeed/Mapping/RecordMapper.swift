import Foundation

/// Turns the rows of every source of a run into typed, named records (DESIGN.md, "Mapping rows").
///
/// Field types are decided over all values of the run, not the first row: the store's schema
/// wins, then `--field`, then the type the source declares, then inference.
public struct RecordMapper {
    public var options: MappingOptions
    /// The schema already in the store for the target container environment.
    public var schema: Schema

    public init(options: MappingOptions, schema: Schema) {
        self.options = options
        self.schema = schema
    }

    /// A row after key mapping and flattening, waiting for its types.
    struct PreparedRow {
        var recordType: String
        var givenName: String?
        var nameColumn: (column: String, value: String)?
        var fields: [SourceField]
        var templateValues: [String: PlainValue]
        var position: SourcePosition
        var ordinal: Int
        var folder: String
    }

    public func plan(_ sources: [SourceFile], delimiter: UInt8? = nil) throws -> ImportPlan {
        var rows: [PreparedRow] = []
        for source in sources {
            var counts: [String: Int] = [:]
            try source.reader(delimiter: delimiter).forEachRow { row in
                let type = try recordType(of: row, in: source)
                counts[type, default: 0] += 1
                rows.append(try prepare(row, type: type, ordinal: counts[type]!, folder: source.folder))
            }
        }
        var errors = ErrorCollector()
        var assetContents: [String: Data] = [:]
        var planned: [PlannedRecordType] = []
        let grouped = Dictionary(grouping: rows, by: \.recordType)
        for typeName in grouped.keys.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }) {
            let typeRows = grouped[typeName]!
            let fields = try fieldTypes(for: typeName, rows: typeRows)
            let naming = namingRule(for: typeName, rows: typeRows)
            var recordType = PlannedRecordType(
                name: typeName, fields: fields, namingRule: naming, records: [], positions: [], firstPositions: [:])
            var namesSeen: [String: SourcePosition] = [:]
            let converter = ValueConverter(
                loadAsset: { path, position in
                    try AssetLoader.load(path, at: position, into: &assetContents)
                }, recordName: RecordNaming.recordName(from:))
            for row in typeRows {
                for field in row.fields where recordType.firstPositions[field.key] == nil {
                    recordType.firstPositions[field.key] = field.position
                }
                guard let recordName = try name(of: row, rule: naming, errors: &errors) else { continue }
                if let first = namesSeen[recordName] {
                    try errors.record(CloudSeedError(
                        "two rows get the record name '\(recordName)' (the other is at \(first)); give each row its own name, for example with --name-template",
                        at: row.position))
                    continue
                }
                namesSeen[recordName] = row.position
                var values: [String: RecordValue] = [:]
                for field in row.fields {
                    let planned = fields[field.key]!
                    do {
                        values[field.key] = try converter.convert(field.value, to: planned.type, at: field.position)
                    } catch let mismatch as ValueConverter.Mismatch {
                        try errors.record(typeError(mismatch, field: field.key, recordType: typeName, planned: planned, at: field.position))
                    } catch let error as CloudSeedError {
                        try errors.record(error)
                    }
                }
                let size = values.values.reduce(0) { $0 + $1.encodedSize }
                if size > RecordLimits.maximumRecordSize {
                    try errors.record(CloudSeedError(
                        "record '\(recordName)' of type \(typeName) is \(size) bytes, over CloudKit's limit of \(RecordLimits.maximumRecordSize) bytes; move large values into an ASSET field",
                        at: row.position))
                    continue
                }
                recordType.records.append(CloudRecord(recordType: typeName, recordID: RecordID(recordName: recordName), fields: values))
                recordType.positions.append(row.position)
            }
            planned.append(recordType)
        }
        try errors.throwIfAny()
        return ImportPlan(recordTypes: planned, assetContents: assetContents)
    }

    private func recordType(of row: SourceRow, in source: SourceFile) throws -> String {
        if let given = row.recordType { return IdentifierMapping.identifier(for: given) }
        if let type = options.recordType { return type }
        return IdentifierMapping.recordType(forFileStem: source.stem)
    }

    /// Maps keys to identifiers, flattens nested dictionaries and takes out the name column.
    private func prepare(_ row: SourceRow, type: String, ordinal: Int, folder: String) throws -> PreparedRow {
        var fields: [SourceField] = []
        var originalKeys: [String: String] = [:]
        var templateValues: [String: PlainValue] = [:]
        let nameColumn = RecordNaming.nameColumns.lazy.compactMap { column in
            row.fields.first { $0.key.lowercased() == column.lowercased() }
                .flatMap { RecordNaming.text(of: $0.value) }.map { (column: column, value: $0) }
        }.first
        for field in row.fields {
            templateValues[field.key] = field.value
            if RecordNaming.identityOnlyColumns.contains(field.key) { continue }
            for flat in Flattening.flatten(field) {
                let name = IdentifierMapping.identifier(for: flat.key)
                templateValues[name] = flat.value
                if let other = originalKeys[name] {
                    throw CloudSeedError(
                        "the keys '\(other)' and '\(flat.key)' both map to the field name '\(name)'; rename one of them",
                        at: flat.position)
                }
                originalKeys[name] = flat.key
                var mapped = flat
                mapped.key = name
                if mapped.value != .null { fields.append(mapped) }
            }
        }
        return PreparedRow(
            recordType: type, givenName: row.recordName, nameColumn: nameColumn, fields: fields,
            templateValues: templateValues, position: row.position, ordinal: ordinal, folder: folder)
    }

    private func fieldTypes(for recordType: String, rows: [PreparedRow]) throws -> [String: PlannedField] {
        var declared: [String: (FieldType, SourcePosition)] = [:]
        var inferred: [String: InferredKind] = [:]
        var seen: [String: SourcePosition] = [:]
        for row in rows {
            for field in row.fields {
                if seen[field.key] == nil { seen[field.key] = field.position }
                if let type = field.declaredType {
                    if let (other, position) = declared[field.key], other != type {
                        throw CloudSeedError(
                            "field '\(field.key)' of type \(recordType) is declared \(type.wireName) here but \(other.wireName) at \(position); make them agree",
                            at: field.position)
                    }
                    declared[field.key] = (type, field.position)
                } else if let kind = InferredKind(of: field.value) {
                    inferred[field.key] = inferred[field.key].map { $0.merged(with: kind) } ?? kind
                }
            }
        }
        var result: [String: PlannedField] = [:]
        for (name, position) in seen {
            let override = options.fieldType(name, in: recordType)
            if let stored = schema.fieldType(name, in: recordType) {
                if let override, override != stored {
                    throw CloudSeedError(
                        "invalid attempt to set value type \(override.wireName) for field '\(name)' for type '\(recordType)', defined to be: \(stored.wireName); the store's schema already defines the field, so drop --field \(name):\(override.schemaName)",
                        at: position)
                }
                result[name] = PlannedField(type: stored, rule: .schema)
            } else if let override {
                result[name] = PlannedField(type: override, rule: .override)
            } else if let (type, _) = declared[name] {
                result[name] = PlannedField(type: type, rule: .declared)
            } else {
                result[name] = PlannedField(type: inferred[name]?.fieldType ?? .string, rule: .inferred)
            }
        }
        return result
    }

    private func namingRule(for recordType: String, rows: [PreparedRow]) -> NamingRule {
        if let template = options.template(for: recordType) { return .template(template.template) }
        if rows.allSatisfy({ $0.givenName != nil }) { return .fromSource }
        if let column = rows.first?.nameColumn?.column, rows.allSatisfy({ $0.nameColumn?.column == column }) {
            return .column(column)
        }
        return .position
    }

    private func name(of row: PreparedRow, rule: NamingRule, errors: inout ErrorCollector) throws -> String? {
        switch rule {
        case .template(let template):
            var result = template
            for placeholder in NameTemplate(recordType: nil, template: template).placeholders {
                guard let value = row.templateValues[placeholder] ?? row.templateValues[IdentifierMapping.identifier(for: placeholder)],
                    let text = RecordNaming.text(of: value)
                else {
                    try errors.record(CloudSeedError(
                        "the name template needs {\(placeholder)}, which this row does not set; fill it in or change --name-template",
                        at: row.position))
                    return nil
                }
                result = result.replacingOccurrences(of: "{\(placeholder)}", with: text)
            }
            return RecordNaming.recordName(from: result)
        case .fromSource: return RecordNaming.recordName(from: row.givenName!)
        case .column: return RecordNaming.recordName(from: row.nameColumn!.value)
        case .position: return "\(row.recordType)-\(row.ordinal)"
        }
    }

    private func typeError(
        _ mismatch: ValueConverter.Mismatch, field: String, recordType: String, planned: PlannedField, at position: SourcePosition
    ) -> CloudSeedError {
        var message = "invalid attempt to set value type \(mismatch.valueType) for field '\(field)' for type '\(recordType)', defined to be: \(planned.type.wireName)"
        if let detail = mismatch.detail { message += " (\(detail))" }
        switch planned.rule {
        case .schema: message += "; the store's schema defines '\(field)' as \(planned.type.schemaName): fix the value"
        case .override: message += "; fix the value or change --field \(field):\(planned.type.schemaName)"
        case .declared: message += "; fix the value or its declared type"
        case .inferred: message += "; fix the value"
        }
        return CloudSeedError(message, at: position)
    }
}

/// CloudKit's limits on records.
public enum RecordLimits {
    /// A record's fields, assets excluded, encode to at most 1 MB.
    public static let maximumRecordSize = 1_048_576
}
