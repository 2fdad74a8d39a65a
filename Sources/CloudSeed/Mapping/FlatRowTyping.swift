/// A record of a type the run creates, typed straight from a flat source row: its values in the
/// order of the type's field names in byte order (``PlannedRecordType/sortedFieldNames``), `nil`
/// where the row leaves a field unset. What most CSV and JSON Lines rows become in pass two.
public struct FlatRecord {
    public var recordType: String
    public var recordName: String
    public var values: [RecordValue?]
    public var position: SourcePosition
}

/// Pass two's short way for flat rows (scalars and lists of scalars under keys that are already
/// field names): the row's name and typed values without preparing the row first. It gives what
/// preparing, naming and typing would (the same functions decide each value); a row it cannot
/// take whole (nested values, a renamed key, a value of the wrong type, a record over CloudKit's
/// size) is left to the long way, which also words the errors. One instance per reading thread.
struct FlatRowTyping {
    let plan: ImportPlan
    let options: MappingOptions
    let converter: ValueConverter
    /// The record types whose rows may go this way, with where each field goes among the values.
    private let slots: [String: TypeSlots]
    private let keyFacts = KeyFactsCache()

    private struct TypeSlots {
        var fieldNames: [String]
        var planned: [String: (slot: Int, field: PlannedField)]
    }

    init(plan: ImportPlan, options: MappingOptions, converter: ValueConverter, types: Set<String>) {
        self.plan = plan
        self.options = options
        self.converter = converter
        var slots: [String: TypeSlots] = [:]
        for type in plan.recordTypes where types.contains(type.name) {
            // Templates need every value by key, declared locations move columns, assets load files:
            // those rows keep the long way.
            guard options.template(for: type.name) == nil, options.locations(for: type.name).isEmpty,
                !type.fields.values.contains(where: { $0.type.holdsAssets })
            else { continue }
            let names = type.sortedFieldNames
            slots[type.name] = TypeSlots(
                fieldNames: names,
                planned: Dictionary(uniqueKeysWithValues: names.enumerated().map { ($0.element, ($0.offset, type.fields[$0.element]!)) }))
        }
        self.slots = slots
    }

    /// The field names of a type's values, or `nil` for a type whose rows keep the long way.
    func fieldNames(of recordType: String) -> [String]? { slots[recordType]?.fieldNames }

    /// The record `row` makes, or `nil` for a row the long way must take.
    func record(of row: SourceRow, type: String, ordinal: Int, rowNumber: Int) -> FlatRecord? {
        guard let slots = slots[type], let rule = plan.naming.rules[type], row.recordName == nil, row.changeTag == nil else { return nil }
        let fields = row.fields
        // Each key's facts once, by offset; fields are read in place, not copied.
        var facts: [KeyFacts] = []
        facts.reserveCapacity(fields.count)
        for offset in fields.indices {
            let found = keyFacts.facts(of: fields[offset].key, near: offset)
            guard found.isValidIdentifier, !found.isIdentityOnly, Self.isFlat(fields[offset].value) else { return nil }
            if fields[offset].value == .null, fields[offset].declaredType == .reference { return nil }
            facts.append(found)
        }
        let factsAt: (String, Int) -> KeyFacts = { _, offset in facts[offset] }
        guard let name = plan.naming.name(of: namingRow(of: row, type: type, ordinal: ordinal, rule: rule, facts: facts), rowNumber: rowNumber)
        else { return nil }
        let pair = LocationColumns.pair(in: fields, facts: factsAt)
        var values = [RecordValue?](repeating: nil, count: slots.fieldNames.count)
        var size = 0
        func add(_ key: String, _ value: PlainValue, at position: SourcePosition) -> Bool {
            guard let (slot, planned) = slots.planned[key] else { return true }
            do {
                let resolved = try ReferenceResolution.resolve(value, field: planned, in: plan, options: options)
                var typed = try converter.convert(resolved, to: planned.type, at: position)
                if planned.action != .none { typed = typed.withReferenceAction(planned.action) }
                size += typed.encodedSize
                values[slot] = typed
                return true
            } catch {
                return false
            }
        }
        // Preparing leaves out null values and empty lists, and makes latitude and longitude one location.
        for offset in fields.indices where offset != pair?.latitude && offset != pair?.longitude {
            let value = fields[offset].value
            guard value != .null, value != .array([]) else { continue }
            guard add(fields[offset].key, value, at: fields[offset].position) else { return nil }
        }
        if let pair {
            let location = LocationColumns.combined(fields, latitude: pair.latitude, longitude: pair.longitude)
            guard add(location.key, location.value, at: location.position) else { return nil }
        }
        guard size <= RecordLimits.maximumRecordSize else { return nil }
        return FlatRecord(recordType: type, recordName: name, values: values, position: row.position)
    }

    /// What naming needs of a row under `rule`: its name column or its natural keys, as preparing
    /// would find them (a latitude or longitude is neither).
    private func namingRow(of row: SourceRow, type: String, ordinal: Int, rule: NamingRule, facts: [KeyFacts]) -> PreparedRow {
        var nameColumn: (column: String, value: String)?
        var naturalKeys: [(String, String)] = []
        switch rule {
        case .column:
            var nameRank = Int.max
            for offset in row.fields.indices {
                if let rank = facts[offset].nameColumnRank, rank < nameRank, let text = RecordNaming.text(of: row.fields[offset].value) {
                    nameColumn = (RecordNaming.nameColumns[rank], text)
                    nameRank = rank
                }
            }
        case .naturalKey:
            naturalKeys = NaturalKeys.keys(of: row.fields) { _, offset in facts[offset] }
        default:
            break
        }
        return PreparedRow(
            recordType: type, givenName: nil, nameColumn: nameColumn, fields: [], naturalKeys: naturalKeys, templateValues: [:],
            position: row.position, ordinal: ordinal, children: [])
    }

    /// A scalar, or a list of scalars: what needs no flattening into fields or child records.
    private static func isFlat(_ value: PlainValue) -> Bool {
        switch value {
        case .dictionary: false
        case .array(let items): !items.contains { $0.isNested }
        default: true
        }
    }
}
