package import CloudSeedCore

/// An app's data model as Core Data or SwiftData declares it: entities with their attributes and
/// relationships, and the configurations that group them into stores.
///
/// ```swift
/// let model = try AppModel(contentsOf: "Trips.xcdatamodeld")
/// print(try model.schema().cksl)  // what initializeCloudKitSchema makes in development
/// ```
public struct AppModel: Hashable, Sendable {
    /// The entities, in the order the model declares them.
    package var entities: [ModelEntity]
    /// The named configurations; the model's Default configuration holds every entity.
    package var configurations: [ModelConfiguration]
    /// Whether the model itself is marked used with CloudKit (Xcode's checkbox on the Default
    /// configuration; SwiftData's models always are).
    package var isUsedWithCloudKit: Bool

    package init(entities: [ModelEntity], configurations: [ModelConfiguration] = [], isUsedWithCloudKit: Bool) {
        self.entities = entities
        self.configurations = configurations
        self.isUsedWithCloudKit = isUsedWithCloudKit
    }

    /// The entity called `name`.
    package func entity(named name: String) -> ModelEntity? {
        entities.first { $0.name == name }
    }

    /// The entity at the top of `entity`'s inheritance: its record type's namesake.
    package func root(of entity: ModelEntity) -> ModelEntity {
        var current = entity
        var seen: Set<String> = [entity.name]
        while let parent = current.parentName.flatMap(self.entity(named:)), seen.insert(parent.name).inserted {
            current = parent
        }
        return current
    }

    /// The attributes of `entity` with those it inherits, the root's first.
    package func allAttributes(of entity: ModelEntity) -> [ModelAttribute] {
        lineage(of: entity).flatMap(\.attributes)
    }

    /// The relationships of `entity` with those it inherits, the root's first.
    package func allRelationships(of entity: ModelEntity) -> [ModelRelationship] {
        lineage(of: entity).flatMap(\.relationships)
    }

    /// `entity` and its ancestors, the root first.
    package func lineage(of entity: ModelEntity) -> [ModelEntity] {
        var chain = [entity]
        while let parent = chain[0].parentName.flatMap(self.entity(named:)), !chain.contains(parent) {
            chain.insert(parent, at: 0)
        }
        return chain
    }

    /// The inverse of `relationship`, declared on its destination (or one of its ancestors).
    package func inverse(of relationship: ModelRelationship) -> ModelRelationship? {
        guard let name = relationship.inverseName, let destination = entity(named: relationship.destination) else {
            return nil
        }
        return allRelationships(of: destination).first { $0.name == name }
    }
}

/// An entity: a class of the app's objects, stored as records of its root entity's type.
package struct ModelEntity: Hashable, Sendable {
    package var name: String
    /// The entity it inherits from (`parentEntity`; a SwiftData superclass).
    package var parentName: String?
    package var isAbstract = false
    package var attributes: [ModelAttribute] = []
    package var relationships: [ModelRelationship] = []
    /// Each uniqueness constraint: the attributes whose values together must be unique.
    package var uniquenessConstraints: [[String]] = []
    /// Where the entity is declared.
    package var position: SourcePosition

    package init(name: String, parentName: String? = nil, position: SourcePosition) {
        self.name = name
        self.parentName = parentName
        self.position = position
    }
}

/// An attribute of an entity: a value its objects hold.
package struct ModelAttribute: Hashable, Sendable {
    package var name: String
    package var type: AttributeType
    package var isOptional = true
    /// A transient attribute is not stored, so not synced.
    package var isTransient = false
    /// The default a new object gets, as the model writes it (`defaultValueString`, a SwiftData
    /// initial value); dates as seconds since 2001-01-01.
    package var defaultValue: String?
    /// Encrypted in CloudKit (`allowsCloudEncryption`, `@Attribute(.allowsCloudEncryption)`).
    package var isEncrypted = false
    package var position: SourcePosition

    package init(name: String, type: AttributeType, position: SourcePosition) {
        self.name = name
        self.type = type
        self.position = position
    }
}

/// A relationship of an entity to the objects of another.
package struct ModelRelationship: Hashable, Sendable {
    /// What happens to related objects when an object is deleted.
    package enum DeleteRule: String, Hashable, Sendable {
        case nullify = "Nullify"
        case cascade = "Cascade"
        case deny = "Deny"
        case noAction = "No Action"
    }

    package var name: String
    /// The entity related to.
    package var destination: String
    package var inverseName: String?
    package var isToMany = false
    package var isOrdered = false
    package var isOptional = true
    package var deleteRule = DeleteRule.nullify
    package var position: SourcePosition

    package init(name: String, destination: String, position: SourcePosition) {
        self.name = name
        self.destination = destination
        self.position = position
    }
}

/// A named group of entities kept in one store, synced with CloudKit where so marked.
package struct ModelConfiguration: Hashable, Sendable {
    package var name: String
    package var isUsedWithCloudKit: Bool
    package var entityNames: [String]
    package var position: SourcePosition

    package init(name: String, isUsedWithCloudKit: Bool, entityNames: [String], position: SourcePosition) {
        self.name = name
        self.isUsedWithCloudKit = isUsedWithCloudKit
        self.entityNames = entityNames
        self.position = position
    }
}

/// The type of an attribute, by Core Data's names (`attributeType` in the model file).
package enum AttributeType: String, CaseIterable, Hashable, Sendable {
    case integer16 = "Integer 16"
    case integer32 = "Integer 32"
    case integer64 = "Integer 64"
    case decimal = "Decimal"
    case double = "Double"
    case float = "Float"
    case string = "String"
    case boolean = "Boolean"
    case date = "Date"
    case binary = "Binary"
    case transformable = "Transformable"
    case uri = "URI"
    case uuid = "UUID"
    case undefined = "Undefined"
    case objectID = "Object ID"
    case composite = "Composite"

    /// The CloudKit field type Core Data writes values of this type as; `nil` for those CloudKit refuses.
    package var fieldType: FieldType? {
        switch self {
        case .integer16, .integer32, .integer64, .boolean: .int64
        case .decimal, .double, .float: .double
        case .string, .uuid, .uri: .string
        case .date: .timestamp
        case .binary, .transformable: .bytes
        case .undefined, .objectID, .composite: nil
        }
    }

    /// Whether Core Data adds a `CD_<name>_ckAsset` twin, where a value too large for the record goes.
    package var hasAssetTwin: Bool {
        switch self {
        case .string, .binary, .transformable, .uri: true
        default: false
        }
    }
}
