package import CloudSeedCore

/// Custom roles given to users, per container environment, in `_cloudseed_role_members`.
extension SQLiteContainerStore {
    package func roles(of user: String, in scope: SchemaScope) throws -> Set<String> {
        let rows = try database.rows(
            "SELECT role FROM _cloudseed_role_members WHERE container = ? AND environment = ? AND user = ?",
            [.text(scope.container), .text(scope.environment.rawValue), .text(user)])
        return Set(rows.compactMap { if case .text(let role) = $0[0] { role } else { nil } })
    }

    package func assignRole(_ role: String, to user: String, in scope: SchemaScope) throws {
        try requireRole(role, in: scope)
        try write { _ in
            _ = try database.rows(
                "INSERT OR IGNORE INTO _cloudseed_role_members (container, environment, role, user) VALUES (?, ?, ?, ?)",
                [.text(scope.container), .text(scope.environment.rawValue), .text(role), .text(user)])
        }
    }
}
