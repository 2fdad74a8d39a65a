/// The fields of an app's records that link objects, by record type, as `inspect --model` shows
/// them: a to-one relationship's STRING field and the record type it names, and `CDMR`'s pairs.
struct CoreDataLinks {
    private var notes: [String: [String: String]] = [:]

    init(model: AppModel, configuration: String?) throws {
        let entities = try model.syncedEntities(configuration: configuration)
        for entity in entities {
            for relationship in entity.relationships where !relationship.isToMany {
                guard let destination = model.entity(named: relationship.destination) else { continue }
                notes[model.recordType(of: entity), default: [:]][CoreDataNames.field(relationship.name)] =
                    "→ \(model.recordType(of: destination)) (\(entity.name).\(relationship.name))"
            }
        }
        let pairs = model.manyToManyPairs(among: entities).map {
            "\($0.first.entity).\($0.first.relationship.name) ↔ \($0.second.entity).\($0.second.relationship.name)"
        }
        if !pairs.isEmpty {
            notes[CoreDataNames.manyToManyType, default: [:]][CoreDataNames.recordNames] =
                "→ the two objects linked (\(pairs.joined(separator: ", ")))"
        }
    }

    /// What `inspect` prints after the type of `field` of `recordType`.
    func annotation(recordType: String, field: String) -> String? {
        notes[recordType]?[field]
    }
}
