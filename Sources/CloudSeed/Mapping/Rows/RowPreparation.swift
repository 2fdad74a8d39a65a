/// Maps a source row's keys to identifiers and flattens what CloudKit cannot hold:
/// a nested dictionary that is not a location becomes fields (`tintColor: {red, green}` →
/// `tintColor_red`, `tintColor_green`), but a set kept as keys set to `true` becomes the list of its
/// keys; an array of dictionaries, or dictionaries keyed by id
/// (``isKeyedCollection(_:)``), become child records of their own type (`teams` → `Team`, each with
/// a REFERENCE `league` to its parent), or JSON text in a STRING field with `nestedAsJSON`. Nothing
/// in the source is dropped.
struct RowPreparation {
    var nestedAsJSON: Bool
    var locations: (_ recordType: String) -> [LocationDeclaration]
    /// Whether name templates are in use, and so need each row's values by key.
    var keepsTemplateValues: Bool
    /// The facts of the keys met so far; a preparation is used by one thread.
    let columnRoles: ColumnRolesCache
    /// The type and link back of the child rows under a key of a parent's type, where an app's
    /// model says (`items` of a `Trip` are `Item`s linked back by `trip`).
    var childLink: (_ parentType: String, _ key: String) -> (type: String, parentField: String)? = { _, _ in nil }

    /// Prepares `row`, using it up: its fields are taken, and where the caller holds the only
    /// reference to them, a flat row's are changed in place rather than copied.
    func prepare(_ row: inout SourceRow, type: String, ordinal: Int) throws -> PreparedRow {
        let declaredLocations = locations(type)
        // Each key's facts once, by offset.
        var facts = row.fields.indices.map { columnRoles.facts(of: row.fields[$0].key, near: $0) }
        if declaredLocations.isEmpty, !keepsTemplateValues,
            let flat = preparedFlat(&row, type: type, ordinal: ordinal, facts: facts)
        {
            return flat
        }
        // Latitude and longitude columns become one `location` field, put last.
        var locationPair: (latitude: Int, longitude: Int)?
        if !declaredLocations.isEmpty {
            row.fields = try LocationColumns.combine(row.fields, declared: declaredLocations)
            facts = row.fields.indices.map { columnRoles.facts(of: row.fields[$0].key, near: $0) }
        } else {
            locationPair = LocationColumns.pair(in: row.fields) { _, offset in facts[offset] }
        }
        var builder = PreparedFields(preparation: self, row: row, type: type)
        builder.fields.reserveCapacity(row.fields.count)
        for offset in row.fields.indices where offset != locationPair?.latitude && offset != locationPair?.longitude {
            try builder.add(row.fields[offset], facts: facts[offset])
        }
        if let locationPair {
            let location = LocationColumns.combined(
                row.fields, latitude: locationPair.latitude, longitude: locationPair.longitude)
            try builder.add(location, facts: columnRoles.facts(of: location.key, near: row.fields.count))
        }
        return PreparedRow(
            recordType: type, givenName: row.recordName,
            nameColumn: RecordNaming.nameColumn(of: row.fields, among: row.fields.indices) {
                RecordNaming.nameColumnRole(rank: facts[$0].nameColumnRank, key: row.fields[$0].key, of: type)
            },
            fields: builder.fields,
            naturalKeys: NaturalKeys.keys(of: builder.fields, facts: columnRoles.facts(of:near:)),
            templateValues: builder.templateValues, position: row.position, ordinal: ordinal,
            children: builder.children,
            renamedKeys: builder.renamedKeys,
            changeTag: row.changeTag
                ?? row.fields.first { $0.key == "recordChangeTag" }.flatMap(\.value.namingText))
    }

    /// The common row prepared in one go, as the general way would prepare it: scalars and lists
    /// of scalars under keys that are field names already, kept as they are but for null values
    /// and empty lists, which are left out, and a latitude and longitude, which become one location.
    /// `nil`, with `row` untouched, for any other row; else the row's fields are taken from it.
    private func preparedFlat(_ row: inout SourceRow, type: String, ordinal: Int, facts: [ColumnRoles]) -> PreparedRow?
    {
        var leavesOut = false
        for offset in row.fields.indices {
            guard facts[offset].isValidIdentifier, !facts[offset].isIdentityOnly else { return nil }
            switch row.fields[offset].value {
            case .dictionary: return nil
            case .array(let items) where items.contains(where: \.isNested): return nil
            default: break
            }
            if !Self.isKept(row.fields[offset]) { leavesOut = true }
        }
        let pair = LocationColumns.pair(in: row.fields) { _, offset in facts[offset] }
        let nameColumn = RecordNaming.nameColumn(of: row.fields, among: row.fields.indices) {
            RecordNaming.nameColumnRole(rank: facts[$0].nameColumnRank, key: row.fields[$0].key, of: type)
        }
        let naturalKeys = NaturalKeys.keys(of: row.fields) { _, offset in facts[offset] }
        let location = pair.map { LocationColumns.combined(row.fields, latitude: $0.latitude, longitude: $0.longitude) }
        var fields: [SourceField] = []
        swap(&fields, &row.fields)
        if leavesOut || pair != nil {
            // The kept fields moved forward, in order, over those left out.
            var kept = 0
            for offset in fields.indices
            where offset != pair?.latitude && offset != pair?.longitude && Self.isKept(fields[offset]) {
                if kept != offset { fields.swapAt(kept, offset) }
                kept += 1
            }
            fields.removeLast(fields.count - kept)
        }
        if let location { fields.append(location) }
        return PreparedRow(
            recordType: type, givenName: row.recordName, nameColumn: nameColumn, fields: fields,
            naturalKeys: naturalKeys, templateValues: [:],
            position: row.position, ordinal: ordinal, children: [], changeTag: row.changeTag)
    }

    /// Whether a flat field is kept: null values and empty lists are not, unless declared
    /// references (or, for an empty list, declared a list).
    static func isKept(_ field: SourceField) -> Bool {
        switch (field.value, field.declaredType) {
        case (.null, let type): type == .reference
        // An empty list is kept where the source says it is a list, as a typed export does.
        case (.array(let items), .list?) where items.isEmpty: true
        case (.array(let items), let type) where items.isEmpty: type == .reference
        default: true
        }
    }

    /// The fields of one prepared row, built a source field at a time.
    private struct PreparedFields {
        let preparation: RowPreparation
        let row: SourceRow
        let type: String
        var fields: [SourceField] = []
        var templateValues: [String: PlainValue] = [:]
        var children: [ChildRow] = []
        var renamedKeys: [String: String] = [:]
        /// Field name → the source key it came from; filled only once a key is renamed or flattened,
        /// since plain keys cannot clash with each other (readers refuse duplicate keys).
        private var originalKeys: [String: String] = [:]
        private var plainKeys: [String] = []

        init(preparation: RowPreparation, row: SourceRow, type: String) {
            self.preparation = preparation
            self.row = row
            self.type = type
        }

        mutating func add(_ field: SourceField, facts: ColumnRoles) throws {
            if preparation.keepsTemplateValues { templateValues[field.key] = field.value }
            if facts.isIdentityOnly { return }
            if !field.value.isNested, facts.isValidIdentifier {
                // The common case, kept cheap: a plain value under a key that is already a field name.
                if !originalKeys.isEmpty {
                    try claim(field.key, for: field.key, at: field.position)
                } else {
                    plainKeys.append(field.key)
                }
                if field.value != .null || field.declaredType == .reference { fields.append(field) }
                return
            }
            if originalKeys.isEmpty {
                for key in plainKeys { originalKeys[key] = key }
            }
            for flat in preparation.flatten(field) {
                if case .array(let items) = flat.value, flat.declaredType == nil, !preparation.nestedAsJSON,
                    !items.isEmpty, items.allSatisfy(RowPreparation.isNonLocationDictionary)
                {
                    try addChildren(of: flat, items: items.enumerated().map { (String($0.offset + 1), $0.element) })
                    continue
                }
                if case .dictionary(let entries) = flat.value, flat.declaredType == nil, !preparation.nestedAsJSON,
                    RowPreparation.isKeyedCollection(entries)
                {
                    try addChildren(of: flat, items: entries.map { ($0.key, $0.value) })
                    continue
                }
                let name = IdentifierMapping.identifier(for: flat.key)
                if preparation.keepsTemplateValues { templateValues[name] = flat.value }
                try claim(name, for: flat.key, at: flat.position)
                if name != flat.key { renamedKeys[name] = flat.key }
                var mapped = flat
                mapped.key = name
                if RowPreparation.isKept(mapped) { fields.append(mapped) }
            }
        }

        /// Records that `key` makes the field `name`, refusing a second key that makes it too.
        private mutating func claim(_ name: String, for key: String, at position: SourcePosition) throws {
            if let other = originalKeys[name] {
                throw CloudSeedError(
                    .malformedSource,
                    "the keys '\(other)' and '\(key)' both map to the field name '\(name)'; rename one of them",
                    at: position)
            }
            originalKeys[name] = key
        }

        /// An array of dictionaries, or dictionaries keyed by id: child records of their own type,
        /// each with a reference back, named after their parent, the key and their place in it (a
        /// position from 1, or their own key).
        private mutating func addChildren(of flat: SourceField, items: [(place: String, value: PlainValue)]) throws {
            let (childType, parentField) =
                preparation.childLink(type, flat.key)
                ?? (
                    RowPreparation.childType(of: flat.key, in: type, items: items.map(\.value)),
                    type.prefix(1).lowercased() + type.dropFirst()
                )
            for (index, (place, item)) in items.enumerated() {
                guard case .dictionary(let entries) = item else { continue }
                if entries.contains(where: { $0.key == parentField }) {
                    throw CloudSeedError(
                        .malformedSource,
                        "the keys '\(parentField)' and '\(parentField)' both map to the field name '\(parentField)'; rename one of them",
                        at: flat.position)
                }
                var childFields = entries.map { SourceField(key: $0.key, value: $0.value, position: flat.position) }
                childFields.append(
                    SourceField(key: parentField, value: .null, position: flat.position, declaredType: .reference))
                var childRow = row
                childRow.fields = childFields
                childRow.recordName = nil
                childRow.recordType = childType
                let prepared = try preparation.prepare(&childRow, type: childType, ordinal: index + 1)
                children.append(ChildRow(key: flat.key, place: place, parentField: parentField, row: prepared))
            }
        }
    }

    /// The type of the child records an array of dictionaries under `key` makes in a record of
    /// `parentType`: the key's singular (`teams` → `Team`), or, where its elements each hold one of
    /// those (`products: [{product: {…}, quantity: 2}]`, a cart's line items), the parent's lines of
    /// it (`Cart_product`), which are not the thing they hold.
    static func childType(of key: String, in parentType: String, items: [PlainValue]) -> String {
        let type = IdentifierMapping.recordType(forFileStem: key)
        let holdsOne = items.contains { item in
            guard case .dictionary(let entries) = item else { return false }
            return entries.contains { IdentifierMapping.recordType(forFileStem: $0.key) == type }
        }
        return holdsOne ? IdentifierMapping.recordType(forFileStem: "\(parentType)_\(key)") : type
    }

    /// Whether a nested dictionary holds records keyed by their ids, as a Firebase export nests a
    /// user's `posts: {"-Mp1": {…}}`: every value a dictionary, under keys that are no field names
    /// (`-Mp1`, `42`) or of records that share their keys. `tintColor: {red, green}` is fields.
    static func isKeyedCollection(_ entries: [PlainEntry]) -> Bool {
        guard !entries.isEmpty, entries.allSatisfy({ isNonLocationDictionary($0.value) }) else { return false }
        if entries.contains(where: { !IdentifierMapping.isValid($0.key) }) { return true }
        guard entries.count >= 2 else { return false }
        let keySets = entries.map { entry -> Set<String> in
            guard case .dictionary(let inner) = entry.value else { return [] }
            return Set(inner.map(\.key))
        }
        return keySets.dropFirst().allSatisfy { $0 == keySets[0] }
    }

    fileprivate func flatten(_ field: SourceField) -> [SourceField] {
        guard field.declaredType == nil else { return [field] }
        switch field.value {
        case .dictionary(let entries) where !nestedAsJSON && Self.isKeyedCollection(entries):
            return [field]
        case .dictionary(let entries)
        where !nestedAsJSON && !entries.isEmpty && entries.allSatisfy({ $0.value == .bool(true) }):
            // A set as Firebase keeps one, `members: {"uid1": true, "uid2": true}`: the list of its keys.
            var list = field
            list.value = .array(entries.map { .string($0.key) })
            return [list]
        case .dictionary(let entries) where !LocationKeys.isLocation(entries.lazy.map(\.key)):
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
        if case .dictionary(let entries) = value { return !LocationKeys.isLocation(entries.lazy.map(\.key)) }
        return false
    }
}
