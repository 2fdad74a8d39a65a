package import CloudSeedCore

/// A schema written in the CloudKit Schema Language (CKSL): custom roles and record types with their
/// fields, index options and grants, as `cktool export-schema` writes it and `import-schema` reads it.
///
/// The definition is kept in canonical form, so that two definitions of the same schema are equal:
/// roles and record types are unique and in byte order of their names, whatever order they are given in.
/// A later record type with the name of an earlier one replaces it.
///
/// ```swift
/// let schema = try SchemaDefinition(cksl: text, file: "schema.ckdb")
/// print(schema.cksl)  // the text, in cktool's layout
/// ```
public struct SchemaDefinition: Hashable, Sendable {
    /// The roles created with `CREATE ROLE`, in byte order. The system roles `"_creator"`, `"_icloud"`
    /// and `"_world"` exist implicitly and are not listed.
    package var roles: [String] {
        didSet { roles = Self.normalized(roles: roles) }
    }

    /// The record types, in byte order of their names.
    package var recordTypes: [RecordTypeDefinition] {
        didSet { recordTypes = Self.normalized(recordTypes: recordTypes) }
    }

    /// Creates a definition from roles and record types in any order.
    package init(roles: [String] = [], recordTypes: [RecordTypeDefinition] = []) {
        self.roles = Self.normalized(roles: roles)
        self.recordTypes = Self.normalized(recordTypes: recordTypes)
    }

    /// The record type called `name`, if the schema defines it.
    package func recordType(named name: String) -> RecordTypeDefinition? {
        recordTypes.first { $0.name == name }
    }

    /// Adds a type or field created just in time: no index options, CloudKit's default grants.
    package mutating func addJustInTime(_ typeName: String, field: (String, FieldType)?) {
        var type =
            recordType(named: typeName)
            ?? RecordTypeDefinition(name: typeName, fields: [], grants: Grant.publicDatabaseDefaults)
        if let (name, fieldType) = field, let dataType = FieldDataType(fieldType) {
            type.fields.append(FieldDefinition(name: name, type: dataType))
        }
        recordTypes.append(type)  // replaces the type of the same name
    }

    /// Whether `a` sorts before `b` in byte order (`CD_x` before `Users` before `___x` before `title`),
    /// the order cktool exports names in.
    package static func byteOrder(_ a: String, _ b: String) -> Bool {
        a.utf8.lexicographicallyPrecedes(b.utf8)
    }

    private static func normalized(roles: [String]) -> [String] {
        Set(roles).sorted(by: byteOrder)
    }

    private static func normalized(recordTypes: [RecordTypeDefinition]) -> [RecordTypeDefinition] {
        var byName: [String: RecordTypeDefinition] = [:]
        for recordType in recordTypes { byName[recordType.name] = recordType }
        return byName.values.sorted { byteOrder($0.name, $1.name) }
    }
}

extension SchemaDefinition {
    /// Reads a schema written in the CloudKit Schema Language; `file` names it in errors.
    public init(cksl text: String, file: String = "-") throws {
        self = try CKSLParser.parse(text, file: file)
    }

    /// The schema in the CloudKit Schema Language, in `cktool`'s layout.
    public var cksl: String { CKSLPrinter.print(self) }
}
