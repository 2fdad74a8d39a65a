/// Turns the values of a REFERENCE field into the names of the records they point to, through the
/// plan's index of the target type; values that match nothing or more than one record are errors.
enum ReferenceResolution {
    struct Failure: Error {
        var code: CloudSeedError.Code
        var message: OptionText
    }

    static func resolve(_ value: PlainValue, field: PlannedField, in plan: ImportPlan, options: MappingOptions) throws
        -> PlainValue
    {
        guard resolves(field), let target = field.target else { return value }
        switch value {
        case .array(let items) where field.type == .reference:
            // A natural key written as a list, as a Django fixture writes a foreign key.
            guard let key = NaturalKeyLists.key(of: items) else { return value }
            return try resolve(key, written: NaturalKeyLists.written(key), target: target, in: plan, options: options)
        case .array(let items):
            return .array(try items.map { try resolve($0, field: field, in: plan, options: options) })
        case .dictionary: return value
        case .text(let text) where field.type == .list(.reference) && JSONListText.items(text) != nil:
            // A CSV cell that holds a JSON array of names.
            return try resolve(.array(JSONListText.items(text)!), field: field, in: plan, options: options)
        default:
            guard let text = value.namingText else { return value }
            return try resolve(text, written: text, target: target, in: plan, options: options)
        }
    }

    /// The name of the one `target` record `text` names (shown in messages as `written`).
    private static func resolve(
        _ text: String, written: String, target: String, in plan: ImportPlan, options: MappingOptions
    ) throws -> PlainValue {
        let index = plan.indexes[target] ?? ReferenceIndex()
        if let name = index.exactMatch(text) { return .string(name) }
        let matches = index.matches(text)
        if matches.count == 1 { return .string(matches.first!) }
        if matches.count > 1 {
            throw Failure(
                code: .duplicateRecordName,
                message:
                    "'\(written)' matches more than one \(target): \(matches.sorted().joined(separator: ", ")); make the value or the \(target) records unambiguous"
            )
        }
        if options.allowDangling { return .string(RecordNaming.recordName(from: written)) }
        let closest = index.closest(to: text)
        let suggestion =
            closest.isEmpty ? "there are no \(target) records" : "closest: \(closest.joined(separator: ", "))"
        throw Failure(
            code: .unresolvedReference,
            message:
                "no \(target) record matches '\(written)' (\(suggestion)); fix the value, or pass \(option: .allowDangling) to keep it as a reference to a missing record"
        )
    }

    /// Whether the values of `field` name records of a known type (a REFERENCE, or a list of them),
    /// and so are resolved by ``resolve(_:field:in:options:)``; any other value it leaves as it is.
    static func resolves(_ field: PlannedField) -> Bool {
        (field.type == .reference || field.type == .list(.reference)) && field.target != nil
    }
}
