/// CloudKit has no dictionary type: a nested dictionary that is not a location becomes fields of
/// its own (`tintColor: {red, green}` → `tintColor_red`, `tintColor_green`), and an array holding
/// dictionaries is kept whole as JSON text in a STRING field, so nothing is dropped.
enum Flattening {
    static func flatten(_ field: SourceField) -> [SourceField] {
        guard field.declaredType == nil else { return [field] }
        switch field.value {
        case .dictionary(let entries) where !LocationKeys.isLocation(entries.map(\.key)):
            return entries.flatMap { entry in
                flatten(SourceField(key: "\(field.key)_\(entry.key)", value: entry.value, position: field.position))
            }
        case .array(let items) where items.contains(where: isNonLocationDictionary):
            var kept = field
            kept.value = .string(field.value.jsonText)
            return [kept]
        default:
            return [field]
        }
    }

    private static func isNonLocationDictionary(_ value: PlainValue) -> Bool {
        if case .dictionary(let entries) = value { return !LocationKeys.isLocation(entries.map(\.key)) }
        return false
    }
}
