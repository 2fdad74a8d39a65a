import CloudSeedCore

/// One difference between two ``SchemaDefinition``s, as ``SchemaDiff`` lists them.
///
/// ```
/// + record type Artist
/// + field Artwork.price DOUBLE
/// - field Artwork.oldName STRING
/// ~ field Artwork.price: INT64 → DOUBLE
/// + index Artwork.title QUERYABLE
/// + grant Artwork READ TO "_world"
/// ```
package enum SchemaChange: Hashable, Sendable, CustomStringConvertible {
    case roleAdded(String)
    case roleRemoved(String)
    case recordTypeAdded(RecordTypeDefinition)
    case recordTypeRemoved(RecordTypeDefinition)
    case fieldAdded(recordType: String, field: FieldDefinition)
    case fieldRemoved(recordType: String, field: FieldDefinition)
    /// The field's data type changed; encryption is a separate change.
    case fieldTypeChanged(recordType: String, field: String, from: FieldDataType, to: FieldDataType)
    /// The field became encrypted (`isEncrypted` true) or stopped being encrypted.
    case encryptionChanged(recordType: String, field: String, isEncrypted: Bool)
    case indexAdded(recordType: String, field: String, option: FieldDefinition.Option)
    case indexRemoved(recordType: String, field: String, option: FieldDefinition.Option)
    case grantAdded(recordType: String, role: Grant.Role, permissions: Set<Grant.Permission>)
    case grantRemoved(recordType: String, role: Grant.Role, permissions: Set<Grant.Permission>)

    /// Whether CloudKit accepts the change in a schema already deployed to production, which refuses
    /// anything that could lose data.
    ///
    /// Adding types, fields, indexes, grants and roles is additive, and so is removing an index, a
    /// grant or a role, which loses no records. Removing a type or a field, changing a field's type and
    /// changing its encryption are not; the one type change allowed is giving a `NUMBER` its
    /// `PREFERRED AS` type, which may not change afterwards.
    package var isAdditive: Bool {
        switch self {
        case .roleAdded, .roleRemoved, .recordTypeAdded, .fieldAdded, .indexAdded, .indexRemoved,
            .grantAdded, .grantRemoved:
            true
        case .fieldTypeChanged(_, _, .number(preferred: nil), .number(preferred: _?)):
            true
        case .recordTypeRemoved, .fieldRemoved, .fieldTypeChanged, .encryptionChanged:
            false
        }
    }

    /// The change on one line: `+` added, `-` removed, `~` changed.
    package var description: String {
        switch self {
        case .roleAdded(let role): "+ role \(CKSLName.spelling(role))"
        case .roleRemoved(let role): "- role \(CKSLName.spelling(role))"
        case .recordTypeAdded(let recordType): "+ record type \(recordType.name)"
        case .recordTypeRemoved(let recordType): "- record type \(recordType.name)"
        case .fieldAdded(let recordType, let field): "+ field \(recordType).\(field.name) \(field.declaration)"
        case .fieldRemoved(let recordType, let field): "- field \(recordType).\(field.name) \(field.declaration)"
        case .fieldTypeChanged(let recordType, let field, let from, let to):
            "~ field \(recordType).\(field): \(from) → \(to)"
        case .encryptionChanged(let recordType, let field, let isEncrypted):
            "\(isEncrypted ? "+" : "-") encryption \(recordType).\(field)"
        case .indexAdded(let recordType, let field, let option): "+ index \(recordType).\(field) \(option)"
        case .indexRemoved(let recordType, let field, let option): "- index \(recordType).\(field) \(option)"
        case .grantAdded(let recordType, let role, let permissions):
            "+ grant \(recordType) \(Self.grantText(permissions, to: role))"
        case .grantRemoved(let recordType, let role, let permissions):
            "- grant \(recordType) \(Self.grantText(permissions, to: role))"
        }
    }

    /// `READ, WRITE TO "_creator"`: a grant without its keyword.
    private static func grantText(_ permissions: Set<Grant.Permission>, to role: Grant.Role) -> String {
        let grant = Grant(permissions, to: role)
        return "\(grant.sortedPermissions.map(\.rawValue).joined(separator: ", ")) TO \(role)"
    }
}
