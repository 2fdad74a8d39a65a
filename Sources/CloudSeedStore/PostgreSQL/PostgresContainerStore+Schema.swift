package import CloudSeedCore
package import CloudSeedSchema

/// The schema definition of each container environment: kept as CKSL text in `cloudseed.schemas`,
/// mirrored in `cloudseed.record_types` and `cloudseed.fields`, and applied as PostgreSQL indexes.
extension PostgresContainerStore {
    package func schemaDefinition(of scope: SchemaScope) throws -> SchemaDefinition {
        try lock(scope)
        if let text = try connection.value(
            "SELECT ckdb FROM cloudseed.schemas WHERE container = $1 AND environment = $2",
            [scope.container, scope.environment.rawValue])
        {
            return try parsedSchemas.definition(of: text, for: scope)
        }
        return try SchemaDefinition(try schema(of: scope))
    }

    package func saveDefinition(_ definition: SchemaDefinition, for scope: SchemaScope) throws {
        try connection.rows(
            "INSERT INTO cloudseed.schemas (container, environment, ckdb) VALUES ($1, $2, $3) ON CONFLICT (container, environment) DO UPDATE SET ckdb = excluded.ckdb",
            [scope.container, scope.environment.rawValue, CKSLPrinter.print(definition)])
    }

    /// Records a type or field created just in time in the definition: no options, CloudKit's default grants.
    package func recordJustInTime(_ recordType: String, field: (String, FieldType)?, in scope: SchemaScope) throws {
        var definition = try schemaDefinition(of: scope)
        definition.addJustInTime(recordType, field: field)
        try saveDefinition(definition, for: scope)
    }

    package func applySchema(_ definition: SchemaDefinition, to scope: SchemaScope) throws {
        try flushPendingRows()
        try takeSteps(to: definition, in: scope)
        try saveDefinition(definition, for: scope)
        forgetLayouts()
        try synchroniseIndexes(scope)
    }

    package func removeRecordType(_ name: String, in scope: SchemaScope) throws {
        let key = [scope.container, scope.environment.rawValue, name]
        try connection.rows(
            "DELETE FROM cloudseed.fields WHERE container = $1 AND environment = $2 AND record_type = $3", key)
        try connection.rows(
            "DELETE FROM cloudseed.record_types WHERE container = $1 AND environment = $2 AND record_type = $3", key)
    }

    package func removeField(_ field: String, from recordType: String, in scope: SchemaScope) throws {
        try connection.rows(
            "DELETE FROM cloudseed.fields WHERE container = $1 AND environment = $2 AND record_type = $3 AND field = $4",
            [scope.container, scope.environment.rawValue, recordType, field])
        forgetLayouts()
    }

    /// Makes the indexes of a container environment's tables match its schema's options: a B-tree
    /// index (zone first) per QUERYABLE or SORTABLE field, and a generated `tsvector` column with a
    /// GIN index over the SEARCHABLE fields of each type.
    package func synchroniseIndexes(_ scope: SchemaScope) throws {
        guard let schema = try environmentSchema(scope, create: false) else { return }
        var wanted: [String: (table: String, column: String)] = [:]
        var searchable: [String: Set<String>] = [:]
        let layouts = try typeLayouts(scope)
        for recordType in try schemaDefinition(of: scope).recordTypes {
            guard let layout = layouts[recordType.name] else { continue }
            for field in recordType.fields {
                guard let column = field.isSystemField ? field.name : layout.fields[field.name]?.column else {
                    continue
                }
                if field.options.contains(.queryable) || field.options.contains(.sortable) {
                    wanted[PostgresLayout.indexName(table: layout.table, kind: "index", column: column)] = (
                        layout.table, column
                    )
                }
                if field.options.contains(.searchable) { searchable[layout.table, default: []].insert(column) }
            }
        }
        for row in try connection.rows(
            "SELECT indexname FROM pg_indexes WHERE schemaname = $1 AND indexname LIKE '%\\_\\_index\\_\\_%'", [schema])
        {
            guard let index = row[0], wanted[index] == nil else { continue }
            try connection.execute("DROP INDEX \(PostgresLayout.qualified(schema, index))")
        }
        for (index, target) in wanted.sorted(by: { $0.key < $1.key }) {
            try connection.execute(
                "CREATE INDEX IF NOT EXISTS \(SQLIdentifier.quoted(index)) ON \(PostgresLayout.qualified(schema, target.table)) (\"___zone\", \(SQLIdentifier.quoted(target.column)))"
            )
        }
        try synchroniseSearch(searchable, in: schema)
    }

    /// Gives each table the search column its SEARCHABLE fields need (its comment lists them), or none.
    private func synchroniseSearch(_ searchable: [String: Set<String>], in schema: String) throws {
        var current: [String: String] = [:]
        for row in try connection.rows(
            """
            SELECT c.relname, coalesce(col_description(c.oid, a.attnum), '') FROM pg_attribute a
            JOIN pg_class c ON c.oid = a.attrelid JOIN pg_namespace n ON n.oid = c.relnamespace
            WHERE n.nspname = $1 AND a.attname = $2 AND NOT a.attisdropped
            """, [schema, PostgresLayout.searchColumn])
        {
            if let table = row[0] { current[table] = row[1] ?? "" }
        }
        for table in Set(current.keys).union(searchable.keys).sorted() {
            let columns = (searchable[table] ?? []).sorted()
            let list = columns.joined(separator: ",")
            if current[table] == list { continue }
            let qualified = PostgresLayout.qualified(schema, table)
            let search = SQLIdentifier.quoted(PostgresLayout.searchColumn)
            try connection.execute("ALTER TABLE \(qualified) DROP COLUMN IF EXISTS \(search)")
            guard !columns.isEmpty else { continue }
            let text = columns.map { "coalesce(\(SQLIdentifier.quoted($0))::text, '')" }.joined(
                separator: " || ' ' || ")
            try connection.execute(
                """
                ALTER TABLE \(qualified) ADD COLUMN \(search) tsvector GENERATED ALWAYS AS (to_tsvector('simple'::regconfig, \(text))) STORED;
                COMMENT ON COLUMN \(qualified).\(search) IS \(PostgresLayout.literal(list));
                CREATE INDEX \(SQLIdentifier.quoted(PostgresLayout.indexName(table: table, kind: "search", column: ""))) ON \(qualified) USING gin (\(search))
                """)
        }
    }
}
