package import CloudSeedCore
package import CloudSeedSchema

/// The public database's permissions, as the schema's grants give them: a user has the role
/// `_world`, the role `_icloud` (every named user), the custom roles given to them, and `_creator`
/// on the records they created.
package struct Permissions {
    package let definition: SchemaDefinition
    package let user: String
    package let roles: Set<String>

    package init(store: any StoreBackend, scope: StoreScope, user: String) throws {
        definition = try store.schemaDefinition(of: scope.schemaScope)
        self.user = user
        roles = try store.roles(of: user, in: scope.schemaScope).union(["_world", "_icloud"])
    }

    /// Refuses saving `record` (over `existing`) without CREATE, or WRITE, for one of the user's roles.
    package func checkSave(_ record: CloudRecord, over existing: CloudRecord?) throws {
        guard let type = definition.recordType(named: record.recordType) else { return }
        let needed: Grant.Permission = existing == nil ? .create : .write
        var held = roles
        if let existing, existing.system.createdUserRecordName == user { held.insert(Grant.Role.creator.name) }
        guard !Self.anyOf(held, holds: needed, on: type) else { return }
        let granted = type.grants.filter { $0.permissions.contains(needed) }.map(\.role.name).sorted()
        throw CloudSeedError(
            .permissionDenied,
            "\(needed.rawValue.uppercased()) operation not permitted: user \(user) may not \(needed == .create ? "create" : "change") record '\(record.recordID.recordName)' of type \(record.recordType); "
                + (granted.isEmpty
                    ? "the schema grants \(needed.rawValue.uppercased()) to no role"
                    : "the schema grants it to \(granted.joined(separator: ", ")): act as such a user (\(option: .user)) or give the user a role with \(option: .roleAssignment)")
        )
    }

    /// Whether the user may create records of `recordType`.
    package func mayCreate(_ recordType: String) -> Bool {
        guard let type = definition.recordType(named: recordType) else { return true }
        return Self.anyOf(roles, holds: .create, on: type)
    }

    /// Which stored records of a type the user may change.
    package enum ChangeableRecords {
        case all
        /// Those they created (the role `_creator`).
        case own
        case none
    }

    /// Which stored records of `recordType` the user may change.
    package func changeableRecords(of recordType: String) -> ChangeableRecords {
        guard let type = definition.recordType(named: recordType) else { return .all }
        if Self.anyOf(roles, holds: .write, on: type) { return .all }
        return type.permissions(of: .creator).contains(.write) ? .own : .none
    }

    /// Whether the user may read every record of `recordType`, whoever created it.
    package func canReadEvery(_ recordType: String) -> Bool {
        guard let type = definition.recordType(named: recordType) else { return true }
        return Self.anyOf(roles, holds: .read, on: type)
    }

    /// Whether the user may read `record`.
    package func canRead(_ record: CloudRecord) -> Bool {
        guard let type = definition.recordType(named: record.recordType) else { return true }
        var held = roles
        if record.system.createdUserRecordName == user { held.insert(Grant.Role.creator.name) }
        return Self.anyOf(held, holds: .read, on: type)
    }

    /// Whether one of `roles` is granted `permission` on `type`.
    private static func anyOf(_ roles: Set<String>, holds permission: Grant.Permission, on type: RecordTypeDefinition)
        -> Bool
    {
        roles.contains { type.permissions(of: Grant.Role($0)).contains(permission) }
    }
}
