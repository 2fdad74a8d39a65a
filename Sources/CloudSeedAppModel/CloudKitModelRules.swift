import CloudSeedCore

/// The rules a model must keep to sync with CloudKit, worded as Core Data words them when
/// NSPersistentCloudKitContainer refuses to load the store, each followed by what to do.
enum CloudKitModelRules {
    /// Throws one error per broken rule and offending attribute, relationship or entity, at its
    /// declaration, in the model's order.
    static func check(_ model: AppModel, synced: [ModelEntity]) throws {
        var errors = ErrorCollector()
        let syncedNames = Set(synced.map(\.name))
        for entity in synced {
            if let parent = entity.parentName, model.entity(named: parent) == nil {
                try errors.record(
                    CloudSeedError(
                        .invalidSchema, "\(entity.name): its parent entity '\(parent)' is not in the model",
                        at: entity.position))
            }
            if !entity.uniquenessConstraints.isEmpty {
                try errors.record(
                    CloudSeedError(
                        .invalidSchema,
                        "\(entity.name): CloudKit integration does not support unique constraints; remove the constraint on \(entity.uniquenessConstraints.map { $0.joined(separator: ", ") }.joined(separator: "; ")) and merge duplicates in the app",
                        at: entity.position))
            }
            for attribute in entity.attributes {
                let name = "\(entity.name): \(attribute.name)"
                switch attribute.type {
                case .undefined, .objectID:
                    try errors.record(
                        CloudSeedError(
                            .invalidSchema,
                            "\(name): CloudKit integration does not support \(attribute.type.rawValue) attributes; give it a stored type or mark it transient",
                            at: attribute.position))
                case .composite:
                    try errors.record(
                        CloudSeedError(
                            .invalidSchema,
                            "\(name): cloudseed does not read Composite attributes yet; make its elements attributes of their own",
                            at: attribute.position))
                default:
                    break
                }
                if !attribute.isOptional, !attribute.isTransient, attribute.defaultValue == nil {
                    try errors.record(
                        CloudSeedError(
                            .invalidSchema,
                            "\(name): CloudKit integration requires that all attributes be optional, or have a default value set; mark it optional or give it a default",
                            at: attribute.position))
                }
            }
            for relationship in entity.relationships {
                let name = "\(entity.name): \(relationship.name)"
                if model.entity(named: relationship.destination) == nil {
                    try errors.record(
                        CloudSeedError(
                            .invalidSchema,
                            "\(name): its destination entity '\(relationship.destination)' is not in the model",
                            at: relationship.position))
                    continue
                }
                if !syncedNames.contains(relationship.destination) {
                    try errors.record(
                        CloudSeedError(
                            .invalidSchema,
                            "\(name): CloudKit integration does not support relationships to objects in another configuration ('\(relationship.destination)' is not synced); add it to the configuration or remove the relationship",
                            at: relationship.position))
                }
                if !relationship.isOptional {
                    try errors.record(
                        CloudSeedError(
                            .invalidSchema,
                            "\(name): CloudKit integration requires that all relationships be optional; mark it optional",
                            at: relationship.position))
                }
                if model.inverse(of: relationship) == nil {
                    try errors.record(
                        CloudSeedError(
                            .invalidSchema,
                            "\(name): CloudKit integration requires that all relationships have an inverse; add one on \(relationship.destination)",
                            at: relationship.position))
                }
                if relationship.isOrdered {
                    try errors.record(
                        CloudSeedError(
                            .invalidSchema,
                            "\(name): CloudKit integration does not support ordered relationships; untick Ordered and sort by an attribute",
                            at: relationship.position))
                }
                if relationship.deleteRule == .deny {
                    try errors.record(
                        CloudSeedError(
                            .invalidSchema,
                            "\(entity.name):\(relationship.name) - Deny: CloudKit integration does not support this delete rule; use Nullify or Cascade",
                            at: relationship.position))
                }
            }
        }
        try errors.throwIfAny()
    }
}
