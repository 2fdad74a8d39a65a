import Foundation

/// Turns the rows of every source of a run into typed, named records (DESIGN.md, "Mapping rows").
///
/// It reads the sources twice, a record at a time: ``survey(_:)`` decides each field's type over all
/// values of the run (the store's schema wins, then `--field`, then the type the source declares,
/// then inference) and each type's naming rule; ``forEachRecord(_:plan:assets:_:)`` then converts and
/// names every row. Memory holds one record at a time plus the names seen, not the sources.
public struct RecordMapper {
    public var options: MappingOptions
    /// The schema already in the store for the target container environment.
    public var schema: Schema

    public init(options: MappingOptions, schema: Schema) {
        self.options = options
        self.schema = schema
    }

    /// What the survey learns about one record type while reading.
    private struct TypeSurvey {
        var rowCount = 0
        var firstRowPosition: SourcePosition
        var firstPositions: [String: SourcePosition] = [:]
        var declared: [String: (FieldType, SourcePosition)] = [:]
        var inferred: [String: InferredKind] = [:]
        var allGiven = true
        var allChildren = true
        var nameColumn: String?
        var nameColumnConsistent = true
    }

    /// Pass one: reads every source and decides the plan.
    public func survey(_ sources: [SourceFile]) throws -> ImportPlan {
        var surveys: [String: TypeSurvey] = [:]
        func record(_ row: PreparedRow, isChild: Bool) throws {
            var survey = surveys[row.recordType] ?? TypeSurvey(firstRowPosition: row.position)
            survey.rowCount += 1
            survey.allGiven = survey.allGiven && row.givenName != nil
            survey.allChildren = survey.allChildren && isChild
            if survey.rowCount == 1 { survey.nameColumn = row.nameColumn?.column }
            if survey.nameColumn != row.nameColumn?.column { survey.nameColumnConsistent = false }
            for field in row.fields {
                if survey.firstPositions[field.key] == nil { survey.firstPositions[field.key] = field.position }
                if let type = field.declaredType {
                    if let (other, position) = survey.declared[field.key], other != type {
                        throw CloudSeedError(
                            "field '\(field.key)' of type \(row.recordType) is declared \(type.wireName) here but \(other.wireName) at \(position); make them agree",
                            at: field.position)
                    }
                    survey.declared[field.key] = (type, field.position)
                } else if let kind = InferredKind(of: field.value) {
                    survey.inferred[field.key] = survey.inferred[field.key].map { $0.merged(with: kind) } ?? kind
                }
            }
            surveys[row.recordType] = survey
            for child in row.children { try record(child.row, isChild: true) }
        }
        try forEachPreparedRow(sources) { row, _ in try record(row, isChild: false) }
        let types = try surveys.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }.map { name in
            let survey = surveys[name]!
            return PlannedRecordType(
                name: name, fields: try fieldTypes(for: name, survey: survey), namingRule: namingRule(for: name, survey: survey),
                rowCount: survey.rowCount, firstRowPosition: survey.firstRowPosition, firstPositions: survey.firstPositions)
        }
        return ImportPlan(recordTypes: types)
    }

    /// Pass two: reads every source again and calls `body` with each record, typed and named by
    /// `plan`. Assets are handed to `assets` once each, with their content where it was read from a
    /// file. Errors are collected (up to ``RunFailure/limit``) and thrown at the end; after the first
    /// one `body` is not called again.
    public func forEachRecord(
        _ sources: [SourceFile], plan: ImportPlan, assets: (AssetReference, Data?) throws -> Void,
        _ body: (CloudRecord, SourcePosition) throws -> Void
    ) throws {
        var errors = ErrorCollector()
        var namesSeen: [String: [String: SourcePosition]] = [:]
        var assetsSeen = Set<String>()
        var loadedContents: [String: Data] = [:]
        let converter = ValueConverter(
            loadAsset: { path, position in try AssetLoader.load(path, at: position, into: &loadedContents) },
            recordName: RecordNaming.recordName(from:))
        func emit(_ row: PreparedRow, name: String?) throws {
            guard let planned = plan.recordType(row.recordType) else { return }
            guard let recordName = try name ?? self.name(of: row, rule: planned.namingRule, errors: &errors) else { return }
            if let first = namesSeen[row.recordType]?[recordName] {
                try errors.record(CloudSeedError(
                    "two rows get the record name '\(recordName)' (the other is at \(first)); give each row its own name, for example with --name-template",
                    at: row.position))
                return
            }
            namesSeen[row.recordType, default: [:]][recordName] = row.position
            var values: [String: RecordValue] = [:]
            for field in row.fields {
                guard let plannedField = planned.fields[field.key] else { continue }
                do {
                    values[field.key] = try converter.convert(field.value, to: plannedField.type, at: field.position)
                } catch let mismatch as ValueConverter.Mismatch {
                    try errors.record(typeError(mismatch, field: field.key, recordType: row.recordType, planned: plannedField, at: field.position))
                } catch let error as CloudSeedError {
                    try errors.record(error)
                }
            }
            let size = values.values.reduce(0) { $0 + $1.encodedSize }
            if size > RecordLimits.maximumRecordSize {
                try errors.record(CloudSeedError(
                    "record '\(recordName)' of type \(row.recordType) is \(size) bytes, over CloudKit's limit of \(RecordLimits.maximumRecordSize) bytes; move large values into an ASSET field",
                    at: row.position))
            }
            if errors.errors.isEmpty {
                for value in values.values {
                    try value.forEachAsset { asset in
                        if assetsSeen.insert(asset.fileChecksum).inserted { try assets(asset, loadedContents[asset.fileChecksum]) }
                    }
                }
                loadedContents.removeAll(keepingCapacity: true)
                try body(CloudRecord(recordType: row.recordType, recordID: RecordID(recordName: recordName), fields: values), row.position)
            }
            for child in row.children {
                var childRow = child.row
                if let index = childRow.fields.firstIndex(where: { $0.key == child.parentField }) {
                    childRow.fields[index].value = .string(recordName)
                }
                try emit(childRow, name: RecordNaming.recordName(from: "\(recordName)-\(child.key)-\(child.index)"))
            }
        }
        try forEachPreparedRow(sources) { row, _ in try emit(row, name: nil) }
        try errors.throwIfAny()
    }

    /// Reads every source, preparing each row.
    private func forEachPreparedRow(_ sources: [SourceFile], _ body: (PreparedRow, SourceFile) throws -> Void) throws {
        let preparation = RowPreparation(nestedAsJSON: options.nestedAsJSON)
        for source in sources {
            var counts: [String: Int] = [:]
            try source.reader(csv: options.csv).forEachRow { row in
                let type = recordType(of: row, in: source)
                counts[type, default: 0] += 1
                try body(try preparation.prepare(row, type: type, ordinal: counts[type]!), source)
            }
        }
    }

    private func recordType(of row: SourceRow, in source: SourceFile) -> String {
        if let given = row.recordType { return IdentifierMapping.identifier(for: given) }
        if let type = options.recordType { return type }
        return IdentifierMapping.recordType(forFileStem: source.stem)
    }

    private func fieldTypes(for recordType: String, survey: TypeSurvey) throws -> [String: PlannedField] {
        var result: [String: PlannedField] = [:]
        for (name, position) in survey.firstPositions {
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
            } else if let (type, _) = survey.declared[name] {
                result[name] = PlannedField(type: type, rule: .declared)
            } else {
                result[name] = PlannedField(type: survey.inferred[name]?.fieldType ?? .string, rule: .inferred)
            }
        }
        return result
    }

    private func namingRule(for recordType: String, survey: TypeSurvey) -> NamingRule {
        if let template = options.template(for: recordType) { return .template(template.template) }
        if survey.allChildren { return .parent }
        if survey.allGiven { return .fromSource }
        if survey.nameColumnConsistent, let column = survey.nameColumn { return .column(column) }
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
        case .fromSource, .parent:
            return row.givenName.map(RecordNaming.recordName(from:)) ?? "\(row.recordType)-\(row.ordinal)"
        case .column: return row.nameColumn.map { RecordNaming.recordName(from: $0.value) } ?? "\(row.recordType)-\(row.ordinal)"
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
