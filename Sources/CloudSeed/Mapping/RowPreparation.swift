/// Maps a source row's keys to identifiers and flattens what CloudKit cannot hold:
/// a nested dictionary that is not a location becomes fields (`tintColor: {red, green}` →
/// `tintColor_red`, `tintColor_green`); an array of dictionaries becomes child records of their own
/// type (`teams` → `Team`, each with a REFERENCE `league` to its parent), or JSON text in a STRING
/// field with `nestedAsJSON`. Nothing in the source is dropped.
struct RowPreparation {
    var nestedAsJSON: Bool
    var locations: (_ recordType: String) -> [LocationDeclaration]
    /// Whether name templates are in use, and so need each row's values by key.
    var keepsTemplateValues: Bool

    func prepare(_ row: SourceRow, type: String, ordinal: Int) throws -> PreparedRow {
        var row = row
        row.fields = try LocationColumns.combine(row.fields, declared: locations(type))
        var fields: [SourceField] = []
        var originalKeys: [String: String] = [:]
        var templateValues: [String: PlainValue] = [:]
        var children: [ChildRow] = []
        var renamedKeys: [String: String] = [:]
        var plainKeys: [String] = []
        var nameColumn: (column: String, value: String)?
        var nameRank = Int.max
        for field in row.fields {
            if let rank = RecordNaming.nameColumnRank(of: field.key), rank < nameRank, let text = RecordNaming.text(of: field.value) {
                nameColumn = (RecordNaming.nameColumns[rank], text)
                nameRank = rank
            }
        }
        fields.reserveCapacity(row.fields.count)
        for field in row.fields {
            if keepsTemplateValues { templateValues[field.key] = field.value }
            if RecordNaming.identityOnlyColumns.contains(field.key) { continue }
            if !field.value.isNested, IdentifierMapping.isValid(field.key) {
                // The common case, kept cheap: a plain value under a key that is already a field name.
                // Keys are only checked against each other once some key is renamed or flattened.
                if !originalKeys.isEmpty {
                    if let other = originalKeys[field.key] {
                        throw CloudSeedError(
                            "the keys '\(other)' and '\(field.key)' both map to the field name '\(field.key)'; rename one of them",
                            at: field.position)
                    }
                    originalKeys[field.key] = field.key
                } else {
                    plainKeys.append(field.key)
                }
                if field.value != .null || field.declaredType == .reference { fields.append(field) }
                continue
            }
            if originalKeys.isEmpty {
                for key in plainKeys { originalKeys[key] = key }
            }
            for flat in flatten(field) {
                if case .array(let items) = flat.value, flat.declaredType == nil, !nestedAsJSON,
                    !items.isEmpty, items.allSatisfy(Self.isNonLocationDictionary)
                {
                    let childType = IdentifierMapping.recordType(forFileStem: flat.key)
                    let parentField = type.prefix(1).lowercased() + type.dropFirst()
                    for (index, item) in items.enumerated() {
                        guard case .dictionary(let entries) = item else { continue }
                        if entries.contains(where: { $0.key == parentField }) {
                            throw CloudSeedError(
                                "the keys '\(parentField)' and '\(parentField)' both map to the field name '\(parentField)'; rename one of them",
                                at: flat.position)
                        }
                        var childFields = entries.map { SourceField(key: $0.key, value: $0.value, position: flat.position) }
                        childFields.append(SourceField(key: parentField, value: .null, position: flat.position, declaredType: .reference))
                        var childRow = row
                        childRow.fields = childFields
                        childRow.recordName = nil
                        childRow.recordType = childType
                        let prepared = try prepare(childRow, type: childType, ordinal: index + 1)
                        children.append(ChildRow(key: flat.key, index: index + 1, parentField: parentField, row: prepared))
                    }
                    continue
                }
                let name = IdentifierMapping.identifier(for: flat.key)
                if keepsTemplateValues { templateValues[name] = flat.value }
                if let other = originalKeys[name] {
                    throw CloudSeedError(
                        "the keys '\(other)' and '\(flat.key)' both map to the field name '\(name)'; rename one of them",
                        at: flat.position)
                }
                originalKeys[name] = flat.key
                if name != flat.key { renamedKeys[name] = flat.key }
                var mapped = flat
                mapped.key = name
                if mapped.value != .null && mapped.value != .array([]) || mapped.declaredType == .reference { fields.append(mapped) }
            }
        }
        return PreparedRow(
            recordType: type, givenName: row.recordName, nameColumn: nameColumn, fields: fields,
            templateValues: templateValues, position: row.position, ordinal: ordinal, children: children,
            renamedKeys: renamedKeys,
            changeTag: row.changeTag ?? row.fields.first { $0.key == "recordChangeTag" }.flatMap { RecordNaming.text(of: $0.value) })
    }

    private func flatten(_ field: SourceField) -> [SourceField] {
        guard field.declaredType == nil else { return [field] }
        switch field.value {
        case .dictionary(let entries) where !LocationKeys.isLocation(entries.map(\.key)):
            return entries.flatMap { entry in
                flatten(SourceField(key: "\(field.key)_\(entry.key)", value: entry.value, position: field.position))
            }
        case .array(let items) where items.contains(where: Self.isNonLocationDictionary):
            if !nestedAsJSON, items.allSatisfy(Self.isNonLocationDictionary) { return [field] }
            var kept = field
            kept.value = .string(field.value.jsonText)
            return [kept]
        default:
            return [field]
        }
    }

    static func isNonLocationDictionary(_ value: PlainValue) -> Bool {
        if case .dictionary(let entries) = value { return !LocationKeys.isLocation(entries.map(\.key)) }
        return false
    }
}
