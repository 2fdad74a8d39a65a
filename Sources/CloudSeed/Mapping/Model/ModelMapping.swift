/// An app's model that a run reads rows as objects of (`--model`): which entity a source's rows
/// are, what each key names in it, and the type each field takes from it.
package struct ModelMapping: Sendable {
    let model: AppModel
    /// The entities synced with CloudKit, which rows may be objects of.
    let entities: [ModelEntity]
    /// The container the objects are written into, whose identifier their record names derive from.
    var container = StoreScope.defaultContainer

    /// The mapping by `model`'s entities of `configuration` (else those synced with CloudKit);
    /// refused where the model breaks CloudKit's rules.
    init(model: AppModel, configuration: String?) throws {
        self.model = model
        entities = try model.checkedEntities(configuration: configuration)
    }

    /// The entity whose objects rows of `recordType` are.
    func entity(forType recordType: String) -> ModelEntity? {
        model.entity(matching: recordType, among: entities)
    }

    /// The record type rows of a source are: the entity its name (`trips.csv`) names, else `name`.
    func recordType(named name: String) -> String {
        entity(forType: name)?.name ?? name
    }

    /// The type of the rows nested under `key` in a row of `parentType`, and the key that links
    /// each back: a to-many relationship's destination and its to-one inverse.
    func childLink(parentType: String, key: String) -> (type: String, parentField: String)? {
        guard let parent = entity(forType: parentType),
            case .relationship(let relationship, nil)? = model.property(matching: key, in: parent),
            relationship.isToMany, let inverse = model.inverse(of: relationship), !inverse.isToMany
        else { return nil }
        return (relationship.destination, inverse.name)
    }

    /// The entities the fields `names` of rows of `recordType` link to, by their names or the
    /// relationship `pinned` gives a field (`--attribute`): their rows are indexed for the links.
    func linkTargets(
        ofFields names: some Sequence<String>, in recordType: String, pinned: (String) -> String?
    ) -> Set<String> {
        guard let entity = entity(forType: recordType) else { return [] }
        var targets = Set<String>()
        for name in names {
            if let property = pinned(name) {
                if let relationship = model.allRelationships(of: entity).first(where: { $0.name == property }) {
                    targets.insert(relationship.destination)
                }
            } else if case .relationship(let relationship, _)? = model.property(matching: name, in: entity) {
                targets.insert(relationship.destination)
            }
        }
        return targets
    }

    /// The record name of the object of a row of `recordType` that the row names `name`.
    func objectName(_ name: String, ofType recordType: String) -> String {
        guard let entity = entity(forType: recordType) else { return name }
        return CoreDataRecordNames.name(name, root: model.root(of: entity).name, container: container)
    }

    /// The record type the store keeps the objects of `entityName` in (`CD_` and its root's name).
    func storedType(of entityName: String) -> String? {
        model.entity(named: entityName).map { model.recordType(of: $0) }
    }

    /// The entities relationships point to: the types a field may name records of.
    var linkTargets: Set<String> {
        Set(entities.flatMap { $0.relationships.map(\.destination) })
    }

    /// The field `name` of rows of `entity`, as the model declares it: the attribute or
    /// relationship `pinned` names (`--attribute`), else the one its name matches. `namesRecords`
    /// says whether the field names the type's records (its name column), which may then be no property.
    func plannedField(
        _ name: String, of entity: ModelEntity, pinned: String?, namesRecords: Bool, at position: SourcePosition
    ) throws -> PlannedField {
        var match = model.property(matching: name, in: entity)
        if let pinned {
            match =
                model.allAttributes(of: entity).first { $0.name == pinned }.map { .attribute($0) }
                ?? model.allRelationships(of: entity).first { $0.name == pinned }.map { .relationship($0, by: nil) }
            guard match != nil else {
                let closest = model.closestProperty(to: pinned, in: entity).map { "; the closest is '\($0)'" } ?? ""
                throw CloudSeedError(
                    .invalidOption,
                    "\(option: .attribute("\(entity.name).\(name)=\(pinned)")): \(entity.name) has no attribute or relationship '\(pinned)'\(closest)",
                    at: position)
            }
        }
        switch match {
        case .attribute(let attribute)?:
            var field = PlannedField(
                type: attribute.type.fieldType ?? .string, rule: .model,
                reason: "\(entity.name).\(attribute.name), \(attribute.type.rawValue)")
            field.modelField = ModelField(property: attribute.name, attribute: attribute)
            return field
        case .relationship(let relationship, let attribute)?:
            let by = attribute.map { " by its \($0)" } ?? ""
            if relationship.isToMany, let inverse = model.inverse(of: relationship), !inverse.isToMany {
                throw CloudSeedError(
                    .invalidValue,
                    "'\(name)' names \(entity.name).\(relationship.name), the to-many side of \(relationship.destination).\(inverse.name): Core Data keeps the link on each \(relationship.destination); give each \(relationship.destination) row a '\(inverse.name)' key, or nest the \(relationship.destination) rows in this one",
                    at: position)
            }
            var field = PlannedField(
                type: relationship.isToMany ? .list(.reference) : .reference, rule: .model,
                target: relationship.destination,
                reason:
                    "\(entity.name).\(relationship.name), \(relationship.isToMany ? "to-many" : "to-one") \(relationship.destination)\(by)"
            )
            field.modelField = ModelField(property: relationship.name, relationship: relationship)
            return field
        case nil:
            if namesRecords {
                var field = PlannedField(type: .string, rule: .model, reason: "names the records; not in the model")
                field.modelField = ModelField(property: nil)
                return field
            }
            let closest = model.closestProperty(to: name, in: entity).map { "; the closest is '\($0)'" } ?? ""
            throw CloudSeedError(
                .unknownField,
                "'\(name)' names no attribute or relationship of \(entity.name) in the model\(closest): rename the key, pin it with \(option: .attribute("\(entity.name).\(name)=ATTRIBUTE")), or add the attribute to the model",
                at: position)
        }
    }
}

/// What the app's model makes of a planned field.
struct ModelField: Hashable, Sendable {
    /// The attribute or relationship the field is written as; `nil` for a key that only names the record.
    var property: String?
    var attribute: ModelAttribute?
    var relationship: ModelRelationship?

    init(property: String?, attribute: ModelAttribute? = nil, relationship: ModelRelationship? = nil) {
        self.property = property
        self.attribute = attribute
        self.relationship = relationship
    }
}
