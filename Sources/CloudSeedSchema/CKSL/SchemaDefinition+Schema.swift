package import CloudSeedCore

/// Conversions between the CKSL model (``SchemaDefinition``) and the store's ``Schema``, which knows
/// only user fields and their ``FieldType``s.
extension SchemaDefinition {
    /// The definition of `schema` as a just-in-time schema would export it: each type with its fields
    /// (without options), the system fields, and the three grants a public-database type needs
    /// (``Grant/publicDatabaseDefaults``).
    ///
    /// ```swift
    /// let schema = Schema(recordTypes: ["Artist": RecordTypeSchema(name: "Artist", fields: ["name": .string])])
    /// CKSLPrinter.print(try SchemaDefinition(schema)) == SchemaPrinter.print(schema)   // true
    /// ```
    ///
    /// - Throws: ``CloudSeedError`` for a list of lists, which CKSL cannot write, and for a field named
    ///   like a system field with another type.
    package init(_ schema: Schema) throws {
        let recordTypes = try schema.recordTypes.values.map { recordType in
            let fields = try recordType.fields.map { name, fieldType in
                guard let type = FieldDataType(fieldType) else {
                    throw CloudSeedError(
                        .invalidSchema,
                        "\(recordType.name).\(name) has type \(fieldType), which CKSL cannot write; lists do not nest")
                }
                if let system = FieldDefinition.systemField(named: name), system.type != type {
                    throw CloudSeedError(
                        .invalidSchema,
                        "\(recordType.name).\(name) has type \(fieldType), but the system field \(name) is \(system.type)"
                    )
                }
                return FieldDefinition(name: name, type: type)
            }
            return RecordTypeDefinition(name: recordType.name, fields: fields, grants: Grant.publicDatabaseDefaults)
        }
        self.init(recordTypes: recordTypes)
    }
}

extension Schema {
    /// The record types of `definition` with their user fields, typed as the store types values:
    /// `NUMBER` as `INT64` unless preferred as `DOUBLE`, encrypted fields as their plain type.
    package init(_ definition: SchemaDefinition) {
        var recordTypes: [String: RecordTypeSchema] = [:]
        for recordType in definition.recordTypes {
            let fields = recordType.userFields.map { ($0.name, $0.type.fieldType) }
            recordTypes[recordType.name] = RecordTypeSchema(
                name: recordType.name, fields: Dictionary(fields, uniquingKeysWith: { $1 }))
        }
        self.init(recordTypes: recordTypes)
    }
}

extension FieldDataType {
    /// The CKSL type of a store field type, or `nil` for a list of lists.
    package init?(_ fieldType: FieldType) {
        switch fieldType {
        case .list(let element):
            guard let primitive = PrimitiveType(element) else { return nil }
            self = .list(primitive)
        default:
            guard let primitive = PrimitiveType(fieldType) else { return nil }
            self = .primitive(primitive)
        }
    }

    /// The type the store gives values of this field: `NUMBER` is `INT64` unless preferred as `DOUBLE`.
    package var fieldType: FieldType {
        switch self {
        case .primitive(let primitive): primitive.fieldType
        case .number(preferred: .double): .double
        case .number: .int64
        case .list(let element): .list(element.fieldType)
        }
    }
}

extension PrimitiveType {
    /// The primitive CKSL type of a store field type, or `nil` for a list.
    package init?(_ fieldType: FieldType) {
        switch fieldType {
        case .asset: self = .asset
        case .bytes: self = .bytes
        case .double: self = .double
        case .int64: self = .int64
        case .location: self = .location
        case .reference: self = .reference
        case .string: self = .string
        case .timestamp: self = .timestamp
        case .list: return nil
        }
    }

    /// The store's field type for this primitive.
    package var fieldType: FieldType {
        switch self {
        case .asset: .asset
        case .bytes: .bytes
        case .double: .double
        case .int64: .int64
        case .location: .location
        case .reference: .reference
        case .string: .string
        case .timestamp: .timestamp
        }
    }
}
