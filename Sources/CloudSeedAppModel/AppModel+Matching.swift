import CloudSeedCore

/// How a source's names meet a model's: ignoring case, `_` and `-`, so that `first_name` is
/// `firstName` and `name` is `name_`.
package enum ModelNames {
    /// `name` without case, `_` or `-`.
    package static func folded(_ name: String) -> String {
        String(name.lowercased().unicodeScalars.filter { $0 != "_" && $0 != "-" })
    }

    /// The plurals a file of an entity's rows may be named by: `trips`, `categories`, `people`.
    static func plurals(of name: String) -> [String] {
        let folded = folded(name)
        let irregular = ["person": "people", "child": "children", "man": "men", "woman": "women"]
        var forms = [folded + "s", folded + "es"]
        if folded.hasSuffix("y") { forms.append(folded.dropLast() + "ies") }
        if let plural = irregular[folded] { forms.append(plural) }
        return forms
    }
}

/// What a row's key names in an entity.
package enum PropertyMatch: Hashable, Sendable {
    case attribute(ModelAttribute)
    /// A relationship, linked by the value of the destination's attribute `by` (`locationName`),
    /// else by the related object's name.
    case relationship(ModelRelationship, by: String?)
}

extension AppModel {
    /// The entity among `entities` that rows of `typeName` are objects of: its name, or a plural of it.
    package func entity(matching typeName: String, among entities: [ModelEntity]) -> ModelEntity? {
        let folded = ModelNames.folded(typeName)
        return entities.first { ModelNames.folded($0.name) == folded }
            ?? entities.first { ModelNames.plurals(of: $0.name).contains(folded) }
    }

    /// What `key` names in `entity`: an attribute or relationship (its own or inherited), or a
    /// relationship followed by one of its destination's attributes or `id` (`location_id`).
    package func property(matching key: String, in entity: ModelEntity) -> PropertyMatch? {
        let folded = ModelNames.folded(key)
        let attributes = allAttributes(of: entity).filter { !$0.isTransient }
        let relationships = allRelationships(of: entity)
        if let attribute = attributes.first(where: { ModelNames.folded($0.name) == folded }) {
            return .attribute(attribute)
        }
        if let relationship = relationships.first(where: { ModelNames.folded($0.name) == folded }) {
            return .relationship(relationship, by: nil)
        }
        for relationship in relationships {
            let name = ModelNames.folded(relationship.name)
            guard folded.hasPrefix(name), let destination = self.entity(named: relationship.destination) else {
                continue
            }
            let rest = String(folded.dropFirst(name.count))
            if rest == "id" { return .relationship(relationship, by: nil) }
            if let attribute = allAttributes(of: destination).first(where: { ModelNames.folded($0.name) == rest }) {
                return .relationship(relationship, by: attribute.name)
            }
        }
        return nil
    }

    /// The attribute or relationship of `entity` whose name is closest to `key`, for an error:
    /// one that begins with it or it begins with, else the fewest edits away.
    package func closestProperty(to key: String, in entity: ModelEntity) -> String? {
        let names = allAttributes(of: entity).map(\.name) + allRelationships(of: entity).map(\.name)
        let folded = ModelNames.folded(key)
        func distance(_ name: String) -> Int {
            let other = ModelNames.folded(name)
            return other.hasPrefix(folded) || folded.hasPrefix(other)
                ? 0 : EditDistance.between(Array(folded), Array(other))
        }
        return names.min { distance($0) < distance($1) }
    }
}
