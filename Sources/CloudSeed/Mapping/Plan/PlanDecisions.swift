import Foundation

/// Turns what the first pass saw into the plan: naming rules and names, the index references resolve
/// through, and each field's type with the reason for it.
struct PlanDecisions {
    let options: MappingOptions
    let schema: Schema
    private(set) var surveys: [String: TypeSurvey]
    private var naming: RowNaming
    private var indexes: [String: ReferenceIndex] = [:]
    /// Rows that cannot be named, by type and row number, with what is wrong: filled with
    /// positions and names during ``look(at:rowNumber:)``.
    private var namingProblems: [String: [Int: NamingProblem]] = [:]
    /// Rows an error message needs the position and name of, by type and row number.
    private var wantedRows: [String: [Int: (position: SourcePosition, name: String)?]] = [:]
    private var rowErrors: [String: [Int: [CloudSeedError]]] = [:]
    private let targets: Set<String>
    /// The types a field's lists may name records of by natural keys (``NaturalKeyLists``):
    /// their rows are indexed by the texts of their consecutive fields too.
    private let keyListTargets: Set<String>

    private enum NamingProblem {
        /// The name template names a field the row does not set.
        case template(String, SourcePosition)
        /// The name template names the row otherwise than its source does.
        case renamed(template: String, given: String, named: String, SourcePosition)
        /// The row gets the name of an earlier row.
        case sharesName(firstRow: Int)
        /// The row gets the name of a row of another type, in the zone where a name is unique.
        case sharesNameWithType(String, row: Int)
    }

    /// Decisions over `surveys`; `randomSeed` draws the names of `--uuid`.
    init(options: MappingOptions, schema: Schema, surveys: [String: TypeSurvey], randomSeed: UInt64) {
        naming = RowNaming(rules: [:], randomSeed: randomSeed)
        self.options = options
        self.schema = schema
        self.surveys = surveys
        let knownTypes = Set(surveys.keys).union(schema.recordTypes.keys)
        targets = Self.referenceTargets(options: options, surveys: surveys, knownTypes: knownTypes)
        keyListTargets = Set(
            surveys.flatMap { type, survey in
                survey.keyLists.keys.compactMap {
                    ReferenceNames.targetType(of: $0, among: knownTypes.subtracting([type]), isList: false)
                }
            })
    }

    private var sortedTypes: [String] { surveys.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) } }

    /// Every record type a reference may point to: those of the run and those of the store.
    private var knownTypes: Set<String> { Set(surveys.keys).union(schema.recordTypes.keys) }

    /// Decides each type's naming rule and finds the rows that cannot be named: a name a row of
    /// the same type or of another has, as a record name is unique in its zone; frees what the
    /// first pass kept to decide.
    mutating func chooseNamingRules() {
        var namesByType: [(type: String, marks: DuplicateNameFinder)] = []
        for type in sortedTypes {
            var survey = surveys.removeValue(forKey: type)!
            let rule = survey.naming.chooseRule()
            naming.rules[type] = rule
            var problems: [Int: NamingProblem] = [:]
            if case .template(let template) = rule {
                for (row, position) in survey.naming.unnamedRows {
                    problems[row] = .template(template.template, position)
                }
                for (row, position, given, named) in survey.naming.renamedRows {
                    problems[row] = .renamed(template: template.template, given: given, named: named, position)
                }
            }
            for (first, second) in survey.naming.duplicates(under: rule) where problems[second] == nil {
                problems[second] = .sharesName(firstRow: first)
                wantedRows[type, default: [:]][first] = .some(nil)
                wantedRows[type, default: [:]][second] = .some(nil)
            }
            if let names = survey.naming.marks(under: rule) {
                for (earlier, earlierNames) in namesByType {
                    let alike = names.rowsNamedAlike(in: earlierNames)
                    guard !alike.isEmpty else { continue }
                    // Ids that number each type's records on their own are qualified by their types,
                    // which sets their names apart from every other type's.
                    let earlierQualified = qualifyIDs(of: earlier)
                    if qualifyIDs(of: type) || earlierQualified { continue }
                    for (row, otherRow) in alike where problems[row] == nil {
                        problems[row] = .sharesNameWithType(earlier, row: otherRow)
                        wantedRows[earlier, default: [:]][otherRow] = .some(nil)
                        wantedRows[type, default: [:]][row] = .some(nil)
                    }
                }
                namesByType.append((type, names))
            }
            survey.naming.forgetCandidates()
            surveys[type] = survey
            if !problems.isEmpty { namingProblems[type] = problems }
        }
    }

    /// Names the records of `type` by their id column after their type (`Dish-0`), where that
    /// column names them; `true` where their names are so qualified.
    private mutating func qualifyIDs(of type: String) -> Bool {
        switch naming.rules[type] {
        case .qualifiedColumn?: return true
        case .column(let column)?:
            naming.rules[type] = .qualifiedColumn(column)
            return true
        default: return false
        }
    }

    /// Whether the plan needs another look at the rows of `type`: to index it for references, to
    /// name the rows of an error, or to gather values a field missed.
    func needsLook(at type: String) -> Bool {
        targets.contains(type) || wantedRows[type] != nil || surveys[type]?.hasMissedValues == true
    }

    /// Takes in a row on the second look; `rowNumber` counts the top-level rows of its type from 0
    /// and is `nil` for child rows.
    mutating func look(at row: PreparedRow, rowNumber: Int?) {
        surveys[row.recordType]?.addMissedValues(of: row)
        guard let rowNumber else { return }
        if wantedRows[row.recordType]?[rowNumber] != nil {
            wantedRows[row.recordType]![rowNumber] = (row.position, naming.name(of: row, rowNumber: rowNumber) ?? "")
        }
        guard targets.contains(row.recordType), namingProblems[row.recordType]?[rowNumber] == nil,
            let name = naming.name(of: row, rowNumber: rowNumber)
        else { return }
        var keys = row.naturalKeys.map(\.1)
        // A foreign key holds the bare id (`dishId: 0` for `Dish-0`) or a Django pk.
        if let id = row.nameColumn?.value ?? row.primaryKey, id != name { keys.append(id) }
        if keyListTargets.contains(row.recordType) {
            keys += NaturalKeyLists.keys(of: row.fields, upTo: NaturalKeyLists.longest)
        }
        if let template = options.template(for: row.recordType),
            let text = TemplateNaming.text(of: row, template: template)
        {
            keys.append(text)
        }
        // An app's object is found by the record name Core Data's record of it has, as the
        // objects the store holds are, and by the name its row gives.
        if let mapping = options.modelMapping {
            keys.append(name)
            indexes[row.recordType, default: ReferenceIndex()].add(
                recordName: mapping.objectName(name, ofType: row.recordType), keys: keys)
            return
        }
        indexes[row.recordType, default: ReferenceIndex()].add(recordName: name, keys: keys)
    }

    /// Turns the rows that cannot be named into errors (with `--skip-bad-rows`, into the rows' errors).
    mutating func reportNamingProblems() throws {
        var errors = ErrorCollector()
        for type in sortedTypes {
            guard let problems = namingProblems[type] else { continue }
            for (row, problem) in problems.sorted(by: { $0.key < $1.key }) {
                let error: CloudSeedError
                switch problem {
                case .template(let template, let position):
                    error = CloudSeedError(
                        .invalidValue,
                        "the name template \"\(template)\" names a field this row does not set; fill it in or change \(option: .nameTemplate(nil))",
                        at: position)
                case .renamed(let template, let given, let named, let position):
                    error = CloudSeedError(
                        .duplicateRecordName,
                        "the source names this record '\(given)', but the name template \"\(template)\" names it '\(named)'; drop \(option: .nameTemplate(nil)) for \(type), or remove the source's recordName",
                        at: position)
                case .sharesName(let firstRow):
                    let first = wantedRows[type]?[firstRow] ?? nil
                    let second = wantedRows[type]?[row] ?? nil
                    error = CloudSeedError(
                        .duplicateRecordName,
                        "two rows get the record name '\(second?.name ?? "")' (the other is at \(first?.position.description ?? "")); give each row its own name, for example with \(option: .nameTemplate(nil))",
                        at: second?.position)
                case .sharesNameWithType(let otherType, let otherRow):
                    let other = wantedRows[otherType]?[otherRow] ?? nil
                    let this = wantedRows[type]?[row] ?? nil
                    let template = RunOption.nameTemplate(
                        naming.rules[type]?.pinningTemplate.map { "\(type)=\(type) \($0)" })
                    error = CloudSeedError(
                        .duplicateRecordName,
                        "record name '\(this?.name ?? "")' is this \(type)'s and the \(otherType)'s at \(other?.position.description ?? ""); a record name is unique in its zone, whatever the type: name one type's records apart, for example with \(option: template)",
                        at: this?.position)
                }
                if options.skipBadRows {
                    rowErrors[type, default: [:]][row] = [error]
                } else {
                    try errors.record(error)
                }
            }
        }
        wantedRows = [:]
        try errors.throwIfAny()
    }

    /// The record names and natural keys of the records the store holds of every type a field of
    /// the run may point to, by type, in the order the store gives them: read before the naming
    /// rules are chosen, which may wait for ICU to compile a script's rules, so the reading
    /// overlaps that wait, and added to the index after (``indexStoredRecords(_:)``).
    func storedRecordKeys(_ store: any StoredRecords, scope: StoreScope) throws -> [String: [StoredRecordKeys]] {
        // Each field name's facts worked out once, not for every stored record.
        let columnRoles = ColumnRolesCache()
        var stored: [String: [StoredRecordKeys]] = [:]
        for target in targets {
            // An app's objects are stored as Core Data writes them: `CD_` types and fields.
            let objects = options.modelMapping?.storedType(of: target)
            let storedType = objects ?? target
            guard schema.recordTypes[storedType] != nil else { continue }
            var records: [StoredRecordKeys] = []
            try store.forEachRecord(in: scope, recordType: storedType) { record in
                let fields = record.fields.compactMap { key, value -> SourceField? in
                    guard case .string(let text) = value else { return nil }
                    let name = objects != nil && key.hasPrefix("CD_") ? String(key.dropFirst(3)) : key
                    return SourceField(key: name, value: .string(text), position: SourcePosition(file: "store"))
                }
                records.append(
                    StoredRecordKeys(
                        recordName: record.recordID.recordName,
                        keys: NaturalKeys.keys(of: fields, facts: columnRoles.facts(of:near:)).map(\.1)))
            }
            stored[target] = records
        }
        return stored
    }

    /// A stored record as the reference index takes it.
    struct StoredRecordKeys {
        let recordName: String
        let keys: [String]
    }

    /// Adds the stored records ``storedRecordKeys(_:scope:)`` read to the reference index, after
    /// the run's own rows of their type.
    mutating func indexStoredRecords(_ stored: [String: [StoredRecordKeys]]) {
        for (target, records) in stored {
            var index = indexes[target] ?? ReferenceIndex()
            for record in records { index.add(recordName: record.recordName, keys: record.keys) }
            indexes[target] = index
        }
    }

    /// The types a field of the run may point to: declared with `--reference`, or named by a field.
    private static func referenceTargets(
        options: MappingOptions, surveys: [String: TypeSurvey], knownTypes: Set<String>
    ) -> Set<String> {
        var targets = Set(options.references.compactMap(\.target))
        if let mapping = options.modelMapping {
            for (type, survey) in surveys {
                targets.formUnion(
                    mapping.linkTargets(ofFields: survey.fields.keys, in: type) { field in
                        options.attributeMatch(field, in: type)
                            ?? survey.renamedKeys[field].flatMap { options.attributeMatch($0, in: type) }
                    })
            }
        }
        for survey in surveys.values {
            for field in survey.fields.keys {
                if let target = ReferenceNames.targetType(of: field, among: knownTypes, isList: true) {
                    targets.insert(target)
                }
                if let target = ReferenceNames.targetType(of: field, among: knownTypes, isList: false) {
                    targets.insert(target)
                }
            }
        }
        return targets
    }

    func plan() throws -> ImportPlan {
        let types = try sortedTypes.map { name in
            let survey = surveys[name]!
            return PlannedRecordType(
                name: name, fields: try fieldTypes(for: name, survey: survey),
                namingRule: naming.rules[name] ?? .position, rowsWithOwnName: survey.naming.rowsWithOwnName,
                rowCount: survey.rowCount, firstRowPosition: survey.firstRowPosition,
                firstPositions: survey.firstPositions,
                renamedKeys: survey.renamedKeys)
        }
        return ImportPlan(recordTypes: types, naming: naming, indexes: indexes, rowErrors: rowErrors)
    }

    private func fieldTypes(for recordType: String, survey: TypeSurvey) throws -> [String: PlannedField] {
        var result: [String: PlannedField] = [:]
        for (name, position) in survey.firstPositions {
            result[name] = try fieldType(name, in: recordType, survey: survey, at: position)
        }
        return result
    }

    /// The field's type and rule, with how its dates are read where it is a TIMESTAMP.
    private func fieldType(_ name: String, in recordType: String, survey: TypeSurvey, at position: SourcePosition)
        throws -> PlannedField
    {
        var field = try plannedType(name, in: recordType, survey: survey, at: position)
        guard field.type == .timestamp || field.type == .list(.timestamp) else { return field }
        let pin = options.dateFormat(name, in: recordType)
        let forms: NumericDateForms? = if case .numericDate(let forms)? = survey.inferred[name] { forms } else { nil }
        let order = pin?.order ?? forms?.order
        guard order != nil || options.timeZone != nil else { return field }
        field.dateReading = DateReading(
            order: order, separator: pin?.separator ?? forms?.separator ?? "/", zone: options.timeZone)
        return field
    }

    private func plannedType(_ name: String, in recordType: String, survey: TypeSurvey, at position: SourcePosition)
        throws -> PlannedField
    {
        if let mapping = options.modelMapping, let entity = mapping.entity(forType: recordType) {
            let namesRecords: Bool
            switch naming.rules[recordType] {
            case .column(let column)?, .qualifiedColumn(let column)?: namesRecords = column == name
            default: namesRecords = false
            }
            return try mapping.plannedField(
                name, of: entity,
                pinned: options.attributeMatch(name, in: recordType)
                    ?? survey.renamedKeys[name].flatMap { options.attributeMatch($0, in: recordType) },
                namesRecords: namesRecords, at: position)
        }
        let override = options.fieldType(name, in: recordType)
        let declaredReference = options.reference(name, in: recordType)
        let kind = survey.inferred[name]
        // A list under a singular name, every one a natural key, names one record (`user: ["admin"]`).
        let keyLists = IdentifierMapping.singular(name) == name ? survey.keyLists[name] : nil
        let isList: Bool = if case .list? = kind { keyLists == nil } else { override?.listElement != nil }
        let otherTypes = knownTypes.subtracting([recordType])
        let target = declaredReference?.target ?? ReferenceNames.targetType(of: name, among: otherTypes, isList: isList)
        let action = declaredReference?.action ?? .none
        if let stored = schema.fieldType(name, in: recordType) {
            if let override, override != stored {
                throw CloudSeedError(
                    .invalidSchema,
                    "invalid attempt to set value type \(override.wireName) for field '\(name)' for type '\(recordType)', defined to be: \(stored.wireName); the store's schema already defines the field, so drop \(option: .fieldType("\(name):\(override.schemaName)"))",
                    at: position)
            }
            let isReference = stored == .reference || stored == .list(.reference)
            return PlannedField(type: stored, rule: .schema, target: isReference ? target : nil, action: action)
        }
        if declaredReference != nil || override == .reference || override == .list(.reference) {
            let type = override ?? (isList ? .list(.reference) : .reference)
            return PlannedField(
                type: type, rule: .override, target: target, action: action,
                reason: target.map { "declared; values name \($0) records" } ?? "declared; values are record names")
        }
        if let override { return PlannedField(type: override, rule: .override) }
        if let (type, _, byShape) = survey.declared[name] {
            return PlannedField(type: type, rule: byShape ? .cloudKitValue : .declared)
        }
        if let inferred = inferredReference(
            name, in: recordType, target: target, kind: kind, values: keyLists ?? survey.distinctValues[name],
            areKeyLists: keyLists != nil)
        {
            return inferred
        }
        if let files = survey.assetFiles[name], files.isMostlyExisting, let kind, kind.isTextual {
            let type: FieldType = if case .list = kind { .list(.asset) } else { .asset }
            guard files.missing > 0 else {
                return PlannedField(
                    type: type, rule: .inferred, reason: "every value is a path to an existing media or document file")
            }
            let examples = files.missingExamples.map { "'\($0)'" }.joined(separator: ", ")
            return PlannedField(
                type: type, rule: .inferred,
                reason:
                    "\(files.existing) of \(files.existing + files.missing) values are paths to existing media or document files; the \(files.missing) naming none (\(examples)) are errors, or left out with \(option: .allowDangling)"
            )
        }
        if kind?.isDecimalText == true, let decimals = survey.decimals[name],
            let reason = Self.keptAsText(name, decimals)
        {
            return PlannedField(type: .string, rule: .inferred, reason: OptionText(reason))
        }
        if case .numericDate(let forms)? = kind { return numericDates(name, in: recordType, forms) }
        return PlannedField(type: kind?.fieldType ?? .string, rule: .inferred)
    }

    /// A field of dates written in numbers: a TIMESTAMP where `--date-format` or the values (a day
    /// over 12) tell which number is the month, a STRING where nothing does.
    private func numericDates(_ name: String, in recordType: String, _ forms: NumericDateForms) -> PlannedField {
        if let pin = options.dateFormat(name, in: recordType) {
            let pattern = pin.order.pattern(separator: pin.separator)
            return PlannedField(
                type: .timestamp, rule: .inferred,
                reason: "dates written \(pattern), as \(option: .dateFormat(nil)) says")
        }
        guard let order = forms.order else {
            let (monthFirst, dayFirst) = (
                DateOrder.monthFirst.pattern(separator: forms.separator),
                DateOrder.dayFirst.pattern(separator: forms.separator)
            )
            return PlannedField(
                type: .string, rule: .inferred,
                reason:
                    "kept as text: no day over 12 tells \(monthFirst) from \(dayFirst); pin one with \(option: .dateFormat("\(recordType).\(name)=\(dayFirst)"))"
            )
        }
        let pattern = order.pattern(separator: forms.separator)
        let why = forms.orders == [.monthFirst, .dayFirst] ? "dates with points are day first" : "a day over 12 tells"
        return PlannedField(type: .timestamp, rule: .inferred, reason: "dates written \(pattern): \(why)")
    }

    /// Why a field of untyped reals stays text, where storing them as numbers would lose what was
    /// written (``DecimalSpellings``): two spellings of one number, or a version's name.
    private static func keptAsText(_ name: String, _ decimals: DecimalSpellings) -> String? {
        if let pair = decimals.differing { return "kept as text: \(pair.longer) and \(pair.shorter) differ" }
        if decimals.hasReals, VersionNames.isVersion(name) { return "kept as text: '\(name)' holds versions" }
        return nil
    }

    /// A reference inferred from the field's name when every one of its values names a record of
    /// that type: a field some of whose values name nothing holds something else, and stays as
    /// typed, the plan saying which values name nothing.
    /// `values` are the field's distinct texts, or where `areKeyLists`, the natural keys its lists
    /// make (``NaturalKeyLists``), each naming one record.
    private func inferredReference(
        _ name: String, in recordType: String, target: String?, kind: InferredKind?, values: Set<String>?,
        areKeyLists isKeyList: Bool
    ) -> PlannedField? {
        guard let target, let kind, kind.isTextual, let values, !values.isEmpty, let index = indexes[target],
            !index.isEmpty
        else { return nil }
        let unresolved = values.filter { index.matches($0).isEmpty }.sorted()
        if unresolved.isEmpty {
            let type: FieldType = if case .list = kind, !isKeyList { .list(.reference) } else { .reference }
            let reason: OptionText =
                isKeyList
                ? "its name and every value name \(target) records by their natural keys"
                : "its name and every value name \(target) records"
            return PlannedField(type: type, rule: .inferred, target: target, reason: reason)
        }
        guard unresolved.count < values.count else { return nil }
        let examples = unresolved.prefix(3).map { "'\(isKeyList ? NaturalKeyLists.written($0) : $0)'" }
            .joined(separator: ", ")
        return PlannedField(
            type: kind.fieldType, rule: .inferred,
            reason:
                "not a reference: \(unresolved.count) of \(values.count) values name no \(target) record (\(examples)); \(option: .reference("\(recordType).\(name):\(target)")) makes it one"
        )
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
