import Foundation

/// Makes one LOCATION field of columns: a declared pair or single `"lat,lon"` column
/// (`--location where=lat,lng`), or else a latitude and a longitude column side by side
/// (`latitude`/`longitude`, `lat`/`lng`/`lon`/`long`), which become the field `location`.
enum LocationColumns {
    static func combine(_ fields: [SourceField], declared: [LocationDeclaration]) throws -> [SourceField] {
        var fields = fields
        for declaration in declared {
            fields = try apply(declaration, to: fields)
        }
        if declared.isEmpty, let (latitude, longitude) = pair(in: fields) {
            let location = combined(fields, latitude: latitude, longitude: longitude)
            fields.remove(at: max(latitude, longitude))
            fields.remove(at: min(latitude, longitude))
            fields.append(location)
        }
        return fields
    }

    /// Where the latitude and longitude columns side by side are, unless a `location` field is set.
    static func pair(in fields: [SourceField]) -> (latitude: Int, longitude: Int)? {
        guard !fields.contains(where: { CaseInsensitiveNames.matches($0.key, "location") }),
            let latitude = fields.firstIndex(where: { CaseInsensitiveNames.matchesAny($0.key, LocationKeys.latitude) && isScalar($0.value) }),
            let longitude = fields.firstIndex(where: { CaseInsensitiveNames.matchesAny($0.key, LocationKeys.longitude) && isScalar($0.value) })
        else { return nil }
        return (latitude, longitude)
    }

    /// The `location` field made of the pair.
    static func combined(_ fields: [SourceField], latitude: Int, longitude: Int) -> SourceField {
        let pair = PlainValue.dictionary([PlainEntry("latitude", fields[latitude].value), PlainEntry("longitude", fields[longitude].value)])
        return SourceField(key: "location", value: pair, position: fields[latitude].position)
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
            value = .dictionary([PlainEntry("latitude", fields[indices[0]].value), PlainEntry("longitude", fields[indices[1]].value)])
        } else {
            guard let text = RecordNaming.text(of: fields[indices[0]].value) else { return fields }
            let parts = text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            guard parts.count == 2 else {
                throw CloudSeedError("'\(text)' is not \"latitude,longitude\"; fix the value or drop --location \(declaration.field)", at: position)
            }
            value = .dictionary([PlainEntry("latitude", .text(parts[0])), PlainEntry("longitude", .text(parts[1]))])
        }
        for index in indices.sorted(by: >) { fields.remove(at: index) }
        fields.append(SourceField(key: declaration.field, value: value, position: position))
        return fields
    }
}
