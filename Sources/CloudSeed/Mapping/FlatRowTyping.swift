/// A record typed on the reading core: its values in the order of the type's field names in byte
/// order (``PlannedRecordType/sortedFieldNames``), `nil` where the row leaves a field unset. What
/// most rows of an import become in pass two: inserted as they are into a type the run creates,
/// compared with the stored record otherwise.
package struct FlatRecord {
    package var recordType: String
    package var recordName: String
    /// Empty where the values are only kept encoded (``encodedValues``).
    package var values: [RecordValue?]
    /// The row the record comes from.
    package var position: SourcePosition
    /// The values as the store encodes them (``NewRecordEncoder``), where they were encoded where
    /// the record was typed: then only the store's ``StoreTransaction/insertNew(_:fieldNames:system:in:)`` takes the record.
    package var encodedValues: [UInt8]? = nil

    /// The record as a ``CloudRecord`` of `fieldNames` (the order of ``values``), for the long way,
    /// with `system`'s times, users and change tag where given.
    package func cloudRecord(fieldNames: [String], system: SystemFields? = nil) -> CloudRecord {
        var fields: [String: RecordValue] = [:]
        for (name, value) in zip(fieldNames, values) { fields[name] = value }
        var record = CloudRecord(recordType: recordType, recordID: RecordID(recordName: recordName), fields: fields)
        if let system { record.system = system }
        return record
    }
}

/// Pass two's short way for the rows of the types it is given (no ``CloudRecord`` to build; a
/// type the run creates has no stored record to compare with either): a prepared row without child
/// records, typed field by field by the functions the long way uses. A row it cannot take whole
/// (a value of the wrong type, a reference that finds no record, a record over CloudKit's size) is
/// left to the long way, which words the errors.
struct FlatRowTyping {
    let plan: ImportPlan
    let options: MappingOptions
    let converter: ValueConverter
    /// The record types whose rows may go this way, with where each field goes among the values.
    private let slots: [String: [String: Slot]]
    /// The slots of the last row's keys; a typing is used by one thread.
    private let recent = RecentSlots()

    /// Where a field goes among a record's values, with its plan: shared by every row rather than
    /// copied out for every value.
    final class Slot {
        let index: Int
        let field: PlannedField
        /// Whether its values are record names to resolve (``ReferenceResolution/resolves(_:)``).
        let resolvesReferences: Bool
        /// The values that texts of this field resolved to, found again by the texts' bytes: a
        /// reference field repeats the same few names (an Artwork's `artist`), each otherwise looked
        /// up and its record name transliterated again for every row. Used by
        /// ``FlatRowTyping/record(of:name:)`` alone, on the one thread a typing's records are made on.
        var resolvedReferences = ByteKeyedValues<RecordValue>()
        /// How many resolved references a field keeps (here and in ``FlatCellTyping``): memory stays
        /// flat where every row names another record.
        static let resolvedReferenceLimit = 1 << 14

        init(index: Int, field: PlannedField) {
            self.index = index
            self.field = field
            resolvesReferences = ReferenceResolution.resolves(field)
        }
    }

    /// The slots of the last row's keys by offset (``RecentKeys``), with its type's.
    private final class RecentSlots {
        var recordType = ""
        var typeSlots: [String: Slot] = [:]
        var keys = RecentKeys<Slot?>()

        func slot(of key: String, at offset: Int) -> Slot? {
            if let known = keys.value(of: key, at: offset) { return known }
            let found = typeSlots[key]
            keys.remember(found, for: key, at: offset)
            return found
        }
    }

    init(plan: ImportPlan, options: MappingOptions, converter: ValueConverter, types: Set<String>) {
        self.plan = plan
        self.options = options
        self.converter = converter
        var slots: [String: [String: Slot]] = [:]
        // Assets load files, which the writing core does: those rows keep the long way.
        for type in plan.recordTypes
        where types.contains(type.name) && !type.fields.values.contains(where: { $0.type.holdsAssets }) {
            slots[type.name] = Dictionary(
                uniqueKeysWithValues: type.sortedFieldNames.enumerated().map {
                    ($0.element, Slot(index: $0.offset, field: type.fields[$0.element]!))
                })
        }
        self.slots = slots
    }

    /// The slots of the fields of `recordType` by name, if its rows may go this way.
    func slots(of recordType: String) -> [String: Slot]? {
        slots[recordType]
    }

    /// The record `row`, named `name`, makes; `nil` for a row the long way must take.
    func record(of row: PreparedRow, name: String) -> FlatRecord? {
        guard row.children.isEmpty else { return nil }
        if recent.recordType != row.recordType {
            guard let typeSlots = slots[row.recordType] else { return nil }
            recent.recordType = row.recordType
            recent.typeSlots = typeSlots
            recent.keys.removeAll()
        }
        var values = [RecordValue?](repeating: nil, count: recent.typeSlots.count)
        var size = 0
        // Each field is lent in place: a copy of it would count references to its texts.
        for offset in row.fields.indices {
            guard let slot = recent.slot(of: row.fields[offset].key, at: offset) else { continue }
            let typedValue =
                slot.resolvesReferences
                ? resolvedReference(row.fields[offset].value, at: row.fields[offset].position, as: slot)
                : typed(row.fields[offset].value, at: row.fields[offset].position, as: slot)
            guard let value = typedValue else { return nil }
            size += value.encodedSize
            values[slot.index] = value
        }
        guard size <= RecordLimits.maximumRecordSize else { return nil }
        return FlatRecord(recordType: row.recordType, recordName: name, values: values, position: row.position)
    }

    /// ``typed(_:at:as:)`` of a value whose slot resolves references: what a text of the same
    /// bytes resolved to before, or else resolved and kept (a text's value is its bytes' alone,
    /// whether it came typed or not).
    private func resolvedReference(_ plain: PlainValue, at position: SourcePosition, as slot: Slot) -> RecordValue? {
        var text: String
        switch plain {
        case .text(let given), .string(let given): text = given
        default: return typed(plain, at: position, as: slot)
        }
        if let known = text.withUTF8({ slot.resolvedReferences.value(for: $0) }) { return known }
        guard let value = typed(plain, at: position, as: slot) else { return nil }
        if slot.resolvedReferences.count < Slot.resolvedReferenceLimit {
            text.withUTF8 { slot.resolvedReferences.insert($0, value: value) }
        }
        return value
    }

    /// A field's value (at `position`) as its slot's plan types it; `nil` where the long way must
    /// word an error. The value and position are taken apart: the whole field would be copied.
    func typed(_ plain: PlainValue, at position: SourcePosition, as slot: Slot) -> RecordValue? {
        let converted: RecordValue?
        if slot.resolvesReferences {
            guard let resolved = try? ReferenceResolution.resolve(plain, field: slot.field, in: plan, options: options)
            else { return nil }
            converted = try? converter.convert(resolved, to: slot.field, at: position)
        } else {
            converted = try? converter.convert(plain, to: slot.field, at: position)
        }
        guard var value = converted else { return nil }
        // An asset given as metadata and a reference into another zone are checked against the
        // store, which the long way does.
        switch slot.field.type {
        case .asset, .list(.asset): if plain.holdsDictionary(where: { _ in true }) { return nil }
        case .reference, .list(.reference):
            if plain.holdsDictionary(where: { $0.contains { $0.key == "zoneID" } }) { return nil }
        default: break
        }
        if slot.field.action != .none { value = value.withReferenceAction(slot.field.action) }
        return value
    }
}

extension PlainValue {
    /// Whether the value is a dictionary, or a list holding one, of which `test` holds.
    fileprivate func holdsDictionary(where test: ([PlainEntry]) -> Bool) -> Bool {
        switch self {
        case .dictionary(let entries): test(entries)
        case .array(let items): items.contains { $0.holdsDictionary(where: test) }
        default: false
        }
    }
}
