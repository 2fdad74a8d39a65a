import CloudSeedCore

/// A `RECORD TYPE` of a ``SchemaDefinition``: its name, fields and grants.
///
/// Kept in canonical form: the six system fields (``FieldDefinition/systemFields``) are always present,
/// fields are unique and in byte order of their names (a later field replaces an earlier one of the same
/// name), and there is at most one grant per role, in the order `"_creator"`, `"_icloud"`, `"_world"`,
/// then custom roles in byte order. Grants to the same role are merged; grants without permissions are
/// dropped.
///
/// ```swift
/// var artist = RecordTypeDefinition(name: "Artist", fields: [FieldDefinition(name: "name", type: .string)])
/// artist.fields.count                       // 7: the six system fields and name
/// artist.grants = Grant.publicDatabaseDefaults
/// ```
package struct RecordTypeDefinition: Hashable, Sendable {
    /// The type name, such as `Artist` or `CD_Artist`.
    package var name: String

    /// Every field, system fields included, in byte order of their names.
    package var fields: [FieldDefinition] {
        didSet { fields = Self.normalized(fields: fields) }
    }

    /// The grants, one per role, in canonical role order.
    package var grants: [Grant] {
        didSet { grants = Self.normalized(grants: grants) }
    }

    /// Creates a record type; system fields that `fields` leaves out are added without options.
    package init(name: String, fields: [FieldDefinition] = [], grants: [Grant] = []) {
        self.name = name
        self.fields = Self.normalized(fields: fields)
        self.grants = Self.normalized(grants: grants)
    }

    /// The fields that are not system fields.
    package var userFields: [FieldDefinition] {
        fields.filter { !$0.isSystemField }
    }

    /// The field called `name`, if the type has one.
    package func field(named name: String) -> FieldDefinition? {
        fields.first { $0.name == name }
    }

    /// The permissions granted to `role`; empty when the type grants it nothing.
    package func permissions(of role: Grant.Role) -> Set<Grant.Permission> {
        grants.first { $0.role == role }?.permissions ?? []
    }

    private static func normalized(fields: [FieldDefinition]) -> [FieldDefinition] {
        var byName: [String: FieldDefinition] = [:]
        for field in FieldDefinition.systemFields + fields { byName[field.name] = field }
        return byName.values.sorted { SchemaDefinition.byteOrder($0.name, $1.name) }
    }

    private static func normalized(grants: [Grant]) -> [Grant] {
        var byRole: [Grant.Role: Set<Grant.Permission>] = [:]
        for grant in grants { byRole[grant.role, default: []].formUnion(grant.permissions) }
        return byRole.filter { !$0.value.isEmpty }
            .map { Grant($0.value, to: $0.key) }
            .sorted { $0.role < $1.role }
    }
}
