package import CloudSeedCore

/// Custom roles given to users, per container environment, in `cloudseed.role_members`.
extension PostgresContainerStore {
    package func roles(of user: String, in scope: SchemaScope) throws -> Set<String> {
        let rows = try connection.rows(
            "SELECT role FROM cloudseed.role_members WHERE container = $1 AND environment = $2 AND user_name = $3",
            [scope.container, scope.environment.rawValue, user])
        return Set(rows.compactMap { $0[0] })
    }

    package func assignRole(_ role: String, to user: String, in scope: SchemaScope) throws {
        try requireRole(role, in: scope)
        try write { _ in
            try lock(scope)
            try connection.rows(
                "INSERT INTO cloudseed.role_members (container, environment, role, user_name) VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING",
                [scope.container, scope.environment.rawValue, role, user])
        }
    }
}
