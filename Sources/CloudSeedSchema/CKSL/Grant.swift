import CloudSeedCore

/// A `GRANT` of a record type: permissions on the type's records in the public database, given to a role.
///
/// ```swift
/// Grant([.read, .create, .write], to: .icloud).description   // GRANT READ, CREATE, WRITE TO "_icloud"
/// Grant([.write, .create], to: "moderator").description      // GRANT CREATE, WRITE TO moderator
/// ```
package struct Grant: Hashable, Sendable, CustomStringConvertible {
    /// What a role may do with a type's records, in the order cktool prints them.
    package enum Permission: String, CaseIterable, Hashable, Sendable, CustomStringConvertible {
        case read = "READ"
        case create = "CREATE"
        case write = "WRITE"

        /// The CKSL keyword: `READ`.
        package var description: String { rawValue }
    }

    /// A role: one of the three system roles, or one created with `CREATE ROLE`.
    ///
    /// Roles sort as cktool prints their grants: `"_creator"`, `"_icloud"`, `"_world"`, then the others
    /// in byte order.
    package struct Role: Hashable, Sendable, Comparable, CustomStringConvertible, ExpressibleByStringLiteral {
        /// The name, such as `_world`, `moderator` or `test role`.
        package var name: String

        /// Creates the role called `name`.
        package init(_ name: String) { self.name = name }

        /// The role called `name`: `Grant([.read], to: "moderator")`.
        package init(stringLiteral name: String) { self.name = name }

        /// The user who created a record ("Creator" in the dashboard).
        package static let creator = Role("_creator")
        /// Every authenticated iCloud user ("Authenticated" in the dashboard).
        package static let icloud = Role("_icloud")
        /// Everyone ("World" in the dashboard).
        package static let world = Role("_world")
        /// The roles every container has, in print order.
        package static let systemRoles: [Role] = [.creator, .icloud, .world]

        /// Whether this is one of the ``systemRoles``.
        package var isSystemRole: Bool { Self.systemRoles.contains(self) }

        /// The name as CKSL writes it: system roles and names that are not plain identifiers in
        /// double quotes (`"_world"`, `"test role"`), others bare (`moderator`).
        package var description: String { CKSLName.spelling(name) }

        /// Whether `a`'s grant prints before `b`'s.
        package static func < (a: Role, b: Role) -> Bool {
            let rankA = systemRoles.firstIndex(of: a) ?? systemRoles.count
            let rankB = systemRoles.firstIndex(of: b) ?? systemRoles.count
            return rankA != rankB ? rankA < rankB : SchemaDefinition.byteOrder(a.name, b.name)
        }
    }

    /// The permissions granted.
    package var permissions: Set<Permission>
    /// The role they are granted to.
    package var role: Role

    /// Grants `permissions` to `role`.
    package init(_ permissions: Set<Permission>, to role: Role) {
        self.permissions = permissions
        self.role = role
    }

    /// The grants a type needs to be usable in the public database: `WRITE` to `"_creator"`, `CREATE`
    /// to `"_icloud"` and `READ` to `"_world"`.
    package static let publicDatabaseDefaults: [Grant] = [
        Grant([.write], to: .creator), Grant([.create], to: .icloud), Grant([.read], to: .world),
    ]

    /// The permissions in print order: `READ`, `CREATE`, `WRITE`.
    package var sortedPermissions: [Permission] {
        Permission.allCases.filter(permissions.contains)
    }

    /// The grant as CKSL writes it: `GRANT READ, WRITE TO "_creator"`.
    package var description: String {
        "GRANT \(sortedPermissions.map(\.rawValue).joined(separator: ", ")) TO \(role)"
    }
}
