import Foundation

/// Makes one LOCATION field of columns: a declared pair or single `"lat,lon"` column
/// (`--location where=lat,lng`), or else a latitude and a longitude column side by side
/// (`latitude`/`longitude`, `lat`/`lng`/`lon`/`long`), which become the field `location`.
enum LocationColumns {
    /// The fields with each declared location made one field.
    static func combine(_ fields: [SourceField], declared: [LocationDeclaration]) throws -> [SourceField] {
        try declared.reduce(fields) { fields, declaration in try apply(declaration, to: fields) }
    }

    /// Where the latitude and longitude columns side by side are, unless a `location` field is set.
    static func pair(in fields: [SourceField], facts: (String, Int) -> ColumnRoles) -> (latitude: Int, longitude: Int)?
    {
        var latitude: Int?
        var longitude: Int?
        for offset in fields.indices {
            switch facts(fields[offset].key, offset).locationRole {
            case .location?: return nil
            case .latitude? where latitude == nil && isScalar(fields[offset].value): latitude = offset
            case .longitude? where longitude == nil && isScalar(fields[offset].value): longitude = offset
            default: break
            }
        }
        guard let latitude, let longitude else { return nil }
        return (latitude, longitude)
    }

    /// The `location` field made of the pair.
    static func combined(_ fields: [SourceField], latitude: Int, longitude: Int) -> SourceField {
        let pair = LocationKeys.location(latitude: fields[latitude].value, longitude: fields[longitude].value)
        return SourceField(key: LocationKeys.field, value: pair, position: fields[latitude].position)
    }

    private static func isScalar(_ value: PlainValue) -> Bool {
        switch value {
        case .array, .dictionary, .null: false
        default: true
        }
    }

    private static func apply(_ declaration: LocationDeclaration, to fields: [SourceField]) throws -> [SourceField] {
        var fields = fields
        let indices = declaration.columns.compactMap { column in fields.firstIndex { $0.key == column } }
        guard indices.count == declaration.columns.count else { return fields }
        let position = fields[indices[0]].position
        let value: PlainValue
        if indices.count == 2 {
            value = LocationKeys.location(latitude: fields[indices[0]].value, longitude: fields[indices[1]].value)
        } else {
            guard let text = fields[indices[0]].value.namingText else { return fields }
            let parts = text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            guard parts.count == 2 else {
                throw CloudSeedError(
                    .invalidValue,
                    "'\(text)' is not \"latitude,longitude\"; fix the value or drop \(option: .location(declaration.field))",
                    at: position)
            }
            value = LocationKeys.location(latitude: .text(parts[0]), longitude: .text(parts[1]))
        }
        for index in indices.sorted(by: >) { fields.remove(at: index) }
        fields.append(SourceField(key: declaration.field, value: value, position: position))
        return fields
    }
}
