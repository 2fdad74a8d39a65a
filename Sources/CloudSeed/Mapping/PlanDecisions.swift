import Foundation

/// Turns what the first pass saw into the plan: naming rules and names, the index references resolve
/// through, and each field's type with the reason for it.
struct PlanDecisions {
    let options: MappingOptions
    let schema: Schema
    let surveys: [String: TypeSurvey]
    private var rules: [String: NamingRule] = [:]
    private var names: [String: [String]] = [:]
    private var indexes: [String: ReferenceIndex] = [:]
    private var rowErrors: [String: [Int: [CloudSeedError]]] = [:]

    init(options: MappingOptions, schema: Schema, surveys: [String: TypeSurvey]) {
        self.options = options
        self.schema = schema
        self.surveys = surveys
    }

    private var sortedTypes: [String] { surveys.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) } }

    /// Every record type a reference may point to: those of the run and those of the store.
    private var knownTypes: Set<String> { Set(surveys.keys).union(schema.recordTypes.keys) }

    /// Decides each type's naming rule, names its rows, refuses duplicates and indexes the names of
    /// the types a reference may point to.
    mutating func nameRecords() throws {
        var errors = ErrorCollector()
        let targets = referenceTargets
        for type in sortedTypes {
            let survey = surveys[type]!
            let rule = namingRule(for: type, survey: survey)
            rules[type] = rule
            let isTarget = targets.contains(type)
            var index = ReferenceIndex()
            var seen: [String: SourcePosition] = [:]
            seen.reserveCapacity(survey.nameInputs.count)
            var typeNames: [String] = []
            typeNames.reserveCapacity(survey.nameInputs.count)
            for input in survey.nameInputs where !input.isChild {
                let rowNumber = typeNames.count
                do {
                    let name = try name(of: input, type: type, rule: rule)
                    if let first = seen[name] {
                        throw CloudSeedError(
                            "two rows get the record name '\(name)' (the other is at \(first)); give each row its own name, for example with --name-template",
                            at: input.position)
                    }
                    seen[name] = input.position
                    typeNames.append(name)
                    if isTarget { index.add(recordName: name, keys: input.naturalKeys.map(\.1) + [input.templateText].compactMap { $0 }) }
                } catch let error as CloudSeedError {
                    typeNames.append("")
                    if options.skipBadRows { rowErrors[type, default: [:]][rowNumber] = [error] } else { try errors.record(error) }
                }
            }
            names[type] = typeNames
            indexes[type] = index
        }
        try errors.throwIfAny()
    }

    /// Adds the records the store already holds of every type a field of the run may point to.
    mutating func indexStoredRecords(_ store: any ContainerStore, scope: StoreScope) throws {
        for target in referenceTargets where schema.recordTypes[target] != nil {
            var index = indexes[target] ?? ReferenceIndex()
            try store.forEachRecord(in: scope, recordType: target) { record in
                let fields = record.fields.compactMap { key, value -> SourceField? in
                    guard case .string(let text) = value else { return nil }
                    return SourceField(key: key, value: .string(text), position: SourcePosition(file: "store"))
                }
                index.add(recordName: record.recordID.recordName, keys: NaturalKeys.keys(of: fields).map(\.1))
            }
            indexes[target] = index
        }
    }

    /// The types a field of the run may point to: declared with `--reference`, or named by a field.
    private var referenceTargets: Set<String> {
        var targets = Set(options.references.compactMap(\.target))
        for survey in surveys.values {
            for field in survey.fields.keys {
                if let target = ReferenceNames.targetType(of: field, among: knownTypes, isList: true) { targets.insert(target) }
                if let target = ReferenceNames.targetType(of: field, among: knownTypes, isList: false) { targets.insert(target) }
            }
        }
        return targets
    }

    func plan() throws -> ImportPlan {
        let types = try sortedTypes.map { name in
            let survey = surveys[name]!
            return PlannedRecordType(
                name: name, fields: try fieldTypes(for: name, survey: survey), namingRule: rules[name] ?? .position,
                rowCount: survey.rowCount, firstRowPosition: survey.firstRowPosition, firstPositions: survey.firstPositions,
                renamedKeys: survey.renamedKeys)
        }
        return ImportPlan(recordTypes: types, names: names, indexes: indexes, rowErrors: rowErrors)
    }

    private func namingRule(for type: String, survey: TypeSurvey) -> NamingRule {
        if options.randomNames { return .uuid }
        if let template = options.template(for: type) { return .template(template.template) }
        if survey.nameInputs.allSatisfy(\.isChild) { return .parent }
        if survey.nameInputs.allSatisfy({ $0.givenName != nil }) { return .fromSource }
        if survey.nameColumnConsistent, let column = survey.nameColumn { return .column(column) }
        if let key = survey.uniqueNaturalKeys.first { return .naturalKey(key) }
        return .position
    }

    private func name(of input: TypeSurvey.NameInput, type: String, rule: NamingRule) throws -> String {
        switch rule {
        case .uuid: return UUID().uuidString
        case .template(let template):
            guard let text = input.templateText else {
                throw CloudSeedError(
                    "the name template \"\(template)\" names a field this row does not set; fill it in or change --name-template",
                    at: input.position)
            }
            return RecordNaming.recordName(from: text)
        case .fromSource, .parent: return input.givenName.map(RecordNaming.recordName(from:)) ?? "\(type)-\(input.ordinal)"
        case .column: return input.nameColumn.map(RecordNaming.recordName(from:)) ?? "\(type)-\(input.ordinal)"
        case .naturalKey(let key):
            return input.naturalKeys.first { $0.0 == key }.map { RecordNaming.recordName(from: $0.1) } ?? "\(type)-\(input.ordinal)"
        case .position: return "\(type)-\(input.ordinal)"
        }
    }

    private func fieldTypes(for recordType: String, survey: TypeSurvey) throws -> [String: PlannedField] {
        var result: [String: PlannedField] = [:]
        for (name, position) in survey.firstPositions {
            result[name] = try fieldType(name, in: recordType, survey: survey, at: position)
        }
        return result
    }

    private func fieldType(_ name: String, in recordType: String, survey: TypeSurvey, at position: SourcePosition) throws -> PlannedField {
        let override = options.fieldType(name, in: recordType)
        let declaredReference = options.reference(name, in: recordType)
        let kind = survey.inferred[name]
        let isList: Bool = if case .list? = kind { true } else { override?.listElement != nil }
        let otherTypes = knownTypes.subtracting([recordType])
        let target = declaredReference?.target ?? ReferenceNames.targetType(of: name, among: otherTypes, isList: isList)
        let action = declaredReference?.action ?? .none
        if let stored = schema.fieldType(name, in: recordType) {
            if let override, override != stored {
                throw CloudSeedError(
                    "invalid attempt to set value type \(override.wireName) for field '\(name)' for type '\(recordType)', defined to be: \(stored.wireName); the store's schema already defines the field, so drop --field \(name):\(override.schemaName)",
                    at: position)
            }
            let isReference = stored == .reference || stored == .list(.reference)
            return PlannedField(type: stored, rule: .schema, target: isReference ? target : nil, action: action)
        }
        if declaredReference != nil || override == .reference || override == .list(.reference) {
            let type = override ?? (isList ? .list(.reference) : .reference)
            return PlannedField(type: type, rule: .override, target: target, action: action,
                                reason: target.map { "declared; values name \($0) records" } ?? "declared; values are record names")
        }
        if let override { return PlannedField(type: override, rule: .override) }
        if let (type, _) = survey.declared[name] { return PlannedField(type: type, rule: .declared) }
        if let inferred = inferredReference(name, target: target, kind: kind, survey: survey) { return inferred }
        if survey.assetPaths[name] == true, let kind, kind.isTextual {
            let type: FieldType = if case .list = kind { .list(.asset) } else { .asset }
            return PlannedField(type: type, rule: .inferred, reason: "every value is a path to an existing media or document file")
        }
        return PlannedField(type: kind?.fieldType ?? .string, rule: .inferred)
    }

    /// A reference inferred from the field's name when its values name records of that type: all of
    /// them, or at least half (the others then fail with the closest names, rather than the field
    /// silently staying text).
    private func inferredReference(_ name: String, target: String?, kind: InferredKind?, survey: TypeSurvey) -> PlannedField? {
        guard let target, let kind, kind.isTextual, let values = survey.distinctValues[name], !values.isEmpty,
            let index = indexes[target], !index.isEmpty
        else { return nil }
        let resolved = values.filter { !index.matches($0).isEmpty }.count
        guard resolved * 2 >= values.count, resolved > 0 else { return nil }
        let type: FieldType = if case .list = kind { .list(.reference) } else { .reference }
        let reason = resolved == values.count
            ? "its name and every value name \(target) records"
            : "its name names \(target) and \(resolved) of \(values.count) values name \(target) records"
        return PlannedField(type: type, rule: .inferred, target: target, reason: reason)
    }
}

extension InferredKind {
    /// Text or numbers (or a list of them): values that can name a record or a file.
    var isTextual: Bool {
        switch self {
        case .string, .integer, .integerString, .realString: true
        case .list(let element): element?.isTextual ?? false
        default: false
        }
    }
}
