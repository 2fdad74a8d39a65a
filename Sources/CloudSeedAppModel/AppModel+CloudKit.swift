import CloudSeedCore

extension AppModel {
    /// The entities NSPersistentCloudKitContainer syncs: those of `configuration`, else those of
    /// every configuration marked used with CloudKit, else (none being marked, as in SwiftData and
    /// in models whose Default configuration is synced) every entity.
    package func syncedEntities(configuration: String? = nil) throws -> [ModelEntity] {
        let names: Set<String>
        let marked = configurations.filter(\.isUsedWithCloudKit)
        if let configuration {
            guard let chosen = configurations.first(where: { $0.name == configuration }) else {
                guard configuration == "Default" else {
                    let known = (["Default"] + configurations.map(\.name)).joined(separator: ", ")
                    throw CloudSeedError(
                        .invalidOption,
                        "the model has no configuration '\(configuration)'; name one of \(known)")
                }
                return entities
            }
            guard chosen.isUsedWithCloudKit || marked.isEmpty else {
                throw CloudSeedError(
                    .invalidOption,
                    "configuration '\(configuration)' is not used with CloudKit, so its entities do not sync; name one that is (\(marked.map(\.name).joined(separator: ", "))), or tick Used with CloudKit for it in Xcode",
                    at: chosen.position)
            }
            names = Set(chosen.entityNames)
        } else {
            guard !marked.isEmpty else { return entities }
            names = Set(marked.flatMap(\.entityNames))
        }
        return entities.filter { names.contains($0.name) }
    }

    /// ``syncedEntities(configuration:)``, refused where they break CloudKit's rules, each violation named.
    package func checkedEntities(configuration: String? = nil) throws -> [ModelEntity] {
        let synced = try syncedEntities(configuration: configuration)
        try CloudKitModelRules.check(self, synced: synced)
        return synced
    }

    /// The CloudKit record type of `entity`'s records: `CD_` and its root entity's name.
    package func recordType(of entity: ModelEntity) -> String {
        CoreDataNames.recordType(root(of: entity).name)
    }

    /// Each relationship of the synced entities that is one side of a many-to-many, with its
    /// inverse, as a `CDMR` record pairs them: the side whose entity and relationship names come
    /// first (ignoring case) first.
    package func manyToManyPairs(among synced: [ModelEntity]) -> [ManyToMany] {
        var pairs: [ManyToMany] = []
        for entity in synced {
            for relationship in entity.relationships where relationship.isToMany {
                guard let inverse = inverse(of: relationship), inverse.isToMany else { continue }
                let pair = ManyToMany(
                    first: (entity.name, relationship), second: (relationship.destination, inverse))
                if pair.isInOrder { pairs.append(pair) }
            }
        }
        return pairs
    }
}

/// A many-to-many relationship as Core Data stores it: a `CDMR` record per linked pair of objects.
package struct ManyToMany: Sendable {
    package var first: (entity: String, relationship: ModelRelationship)
    package var second: (entity: String, relationship: ModelRelationship)

    /// Whether `first` is the side Core Data names first: by entity name, then relationship
    /// name, ignoring case.
    var isInOrder: Bool {
        let one = (first.entity.lowercased(), first.relationship.name.lowercased())
        let other = (second.entity.lowercased(), second.relationship.name.lowercased())
        return one <= other
    }

    /// `CD_entityNames`: `"Post:Tag"`.
    package var entityNames: String { "\(first.entity):\(second.entity)" }
    /// `CD_relationships`: `"tags:posts"`.
    package var relationships: String { "\(first.relationship.name):\(second.relationship.name)" }
}

/// The names Core Data gives record types and fields in CloudKit.
package enum CoreDataNames {
    /// The zone of a private database's Core Data records.
    package static let zoneName = "com.apple.coredata.cloudkit.zone"
    /// The record type of many-to-many links.
    package static let manyToManyType = "CDMR"
    package static let entityName = "CD_entityName"
    package static let moveReceipt = "CD_moveReceipt"
    package static let entityNames = "CD_entityNames"
    package static let recordNames = "CD_recordNames"
    package static let relationships = "CD_relationships"

    /// `CD_Trip` for the root entity `Trip`.
    package static func recordType(_ rootEntity: String) -> String { "CD_" + rootEntity }

    /// `CD_name` for the attribute or relationship `name`.
    package static func field(_ property: String) -> String { "CD_" + property }

    /// `CD_photo_ckAsset`: where a value too large for the record goes.
    package static func assetTwin(_ property: String) -> String { "CD_" + property + "_ckAsset" }
}
