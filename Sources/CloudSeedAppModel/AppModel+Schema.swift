public import CloudSeedCore
public import CloudSeedSchema

extension AppModel {
    /// The schema `initializeCloudKitSchema` makes in development for the entities synced with
    /// CloudKit (those of `configuration` where given), in `database`: a `CD_` type per root
    /// entity, a field per stored attribute and to-one relationship, `_ckAsset` twins, Core
    /// Data's own fields, `CDMR` for many-to-many, and every index just-in-time development gives.
    ///
    /// Throws, naming each, where the model breaks one of CloudKit's rules.
    public func schema(configuration: String? = nil, database: DatabaseScope = .private) throws -> SchemaDefinition {
        let synced = try checkedEntities(configuration: configuration)
        var types: [String: [FieldDefinition]] = [:]
        for entity in synced {
            let type = recordType(of: entity)
            var fields = types[type] ?? Self.coreDataFields
            for attribute in entity.attributes where !attribute.isTransient {
                guard let fieldType = attribute.type.fieldType else { continue }
                fields.append(
                    Self.field(CoreDataNames.field(attribute.name), fieldType, encrypted: attribute.isEncrypted))
                if attribute.type.hasAssetTwin {
                    fields.append(Self.field(CoreDataNames.assetTwin(attribute.name), .asset))
                }
            }
            for relationship in entity.relationships where !relationship.isToMany {
                fields.append(Self.field(CoreDataNames.field(relationship.name), .string))
            }
            types[type] = fields
        }
        if !manyToManyPairs(among: synced).isEmpty {
            types[CoreDataNames.manyToManyType] = [
                CoreDataNames.entityNames, CoreDataNames.recordNames, CoreDataNames.relationships,
            ].map { Self.field($0, .string) }
        }
        return SchemaDefinition(
            recordTypes: types.map { name, fields in
                var all = fields
                if database == .public { all += Self.publicDatabaseIndexes }
                return RecordTypeDefinition(name: name, fields: all, grants: Grant.publicDatabaseDefaults)
            })
    }

    /// The fields Core Data adds to every type.
    private static let coreDataFields = [
        field(CoreDataNames.entityName, .string), field(CoreDataNames.moveReceipt, .bytes),
        field(CoreDataNames.moveReceipt + "_ckAsset", .asset),
    ]

    /// The indexes a public database's Core Data types need: the container polls by record name
    /// and modification time.
    private static let publicDatabaseIndexes = [
        FieldDefinition(name: "___modTime", type: .timestamp, options: [.queryable, .sortable]),
        FieldDefinition(name: "___recordID", type: .reference, options: [.queryable]),
    ]

    /// A field as just-in-time development makes it: every index its type allows (none for an
    /// encrypted field).
    private static func field(_ name: String, _ type: FieldType, encrypted: Bool = false) -> FieldDefinition {
        let dataType = FieldDataType(type)!
        var options: Set<FieldDefinition.Option> = []
        if !encrypted {
            switch type {
            case .string: options = [.queryable, .searchable, .sortable]
            case .int64, .double, .timestamp, .bytes: options = [.queryable, .sortable]
            default: options = []
            }
        }
        return FieldDefinition(name: name, type: dataType, isEncrypted: encrypted, options: options)
    }
}
