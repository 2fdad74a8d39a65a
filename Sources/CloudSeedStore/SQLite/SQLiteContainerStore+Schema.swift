package import CloudSeedCore
package import CloudSeedSchema

/// The schema definition of each container environment: kept as CKSL text in `_cloudseed_schemas`,
/// mirrored in `_cloudseed_record_types` and `_cloudseed_fields`, and applied as SQLite indexes.
extension SQLiteContainerStore {
    package func schemaDefinition(of scope: SchemaScope) throws -> SchemaDefinition {
        if case .text(let text)? = try database.rows(
            "SELECT ckdb FROM _cloudseed_schemas WHERE container = ? AND environment = ?",
            [.text(scope.container), .text(scope.environment.rawValue)]
        ).first?.first {
            return try parsedSchemas.definition(of: text, for: scope)
        }
        return try SchemaDefinition(try schema(of: scope))
    }

    package func saveDefinition(_ definition: SchemaDefinition, for scope: SchemaScope) throws {
        try database.rows(
            "INSERT OR REPLACE INTO _cloudseed_schemas (container, environment, ckdb) VALUES (?, ?, ?)",
            [.text(scope.container), .text(scope.environment.rawValue), .text(CKSLPrinter.print(definition))])
    }

    /// Records a type or field created just in time in the definition: no options, CloudKit's default grants.
    package func recordJustInTime(_ recordType: String, field: (String, FieldType)?, in scope: SchemaScope) throws {
        var definition = try schemaDefinition(of: scope)
        definition.addJustInTime(recordType, field: field)
        try saveDefinition(definition, for: scope)
    }

    package func applySchema(_ definition: SchemaDefinition, to scope: SchemaScope) throws {
        try takeSteps(to: definition, in: scope)
        try saveDefinition(definition, for: scope)
        forgetLayouts()
        try synchroniseIndexes()
    }

    package func removeRecordType(_ name: String, in scope: SchemaScope) throws {
        let key: [SQLiteValue] = [.text(scope.container), .text(scope.environment.rawValue), .text(name)]
        try database.rows(
            "DELETE FROM _cloudseed_fields WHERE container = ? AND environment = ? AND record_type = ?", key)
        try database.rows(
            "DELETE FROM _cloudseed_record_types WHERE container = ? AND environment = ? AND record_type = ?", key)
    }

    package func removeField(_ field: String, from recordType: String, in scope: SchemaScope) throws {
        try database.rows(
            "DELETE FROM _cloudseed_fields WHERE container = ? AND environment = ? AND record_type = ? AND field = ?",
            [.text(scope.container), .text(scope.environment.rawValue), .text(recordType), .text(field)])
        forgetLayouts()
    }

    /// Makes each record table's indexes match the options of every environment's schema:
    /// a B-tree index (zone first) per QUERYABLE or SORTABLE field, one FTS5 table over the
    /// SEARCHABLE fields, kept up to date by triggers.
    package func synchroniseIndexes() throws {
        var wanted: [String: Set<String>] = [:]
        var searchable: [String: Set<String>] = [:]
        for row in try database.rows("SELECT container, environment FROM _cloudseed_schemas") {
            guard case .text(let container) = row[0], case .text(let name) = row[1],
                let environment = ContainerEnvironment(rawValue: name)
            else { continue }
            let scope = SchemaScope(container: container, environment: environment)
            let layouts = try typeLayouts(scope)
            for recordType in try schemaDefinition(of: scope).recordTypes {
                guard let layout = layouts[recordType.name] else { continue }
                for field in recordType.fields {
                    let column = field.isSystemField ? field.name : layout.fields[field.name]?.column
                    // Record names have their index already: the table's name index.
                    guard let column, column != "___recordID" else { continue }
                    if field.options.contains(.queryable) || field.options.contains(.sortable) {
                        wanted[layout.table, default: []].insert(column)
                    }
                    if field.options.contains(.searchable) { searchable[layout.table, default: []].insert(column) }
                }
            }
        }
        let existing = try database.rows(
            "SELECT name, tbl_name FROM sqlite_master WHERE type = 'index' AND name LIKE '%\\_\\_index\\_\\_%' ESCAPE '\\'"
        )
        for row in existing {
            guard case .text(let index) = row[0], case .text(let table) = row[1] else { continue }
            let column = String(index.dropFirst(table.count + "__index__".count))
            if wanted[table]?.contains(column) != true {
                try database.execute("DROP INDEX \(SQLIdentifier.quoted(index))")
            }
        }
        for (table, columns) in wanted {
            for column in columns {
                try database.execute(
                    "CREATE INDEX IF NOT EXISTS \(SQLIdentifier.quoted("\(table)__index__\(column)")) ON \(SQLIdentifier.quoted(table)) (\"___zone\", \(SQLIdentifier.quoted(column)))"
                )
            }
        }
        try synchroniseSearch(searchable)
        database.forgetStatements()
    }

    private func synchroniseSearch(_ searchable: [String: Set<String>]) throws {
        let tables = try database.rows(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE '%\\_\\_search' ESCAPE '\\'"
        )
        .compactMap { row -> String? in if case .text(let name) = row[0] { return name } else { return nil } }
        for table in Set(tables.map { String($0.dropLast("__search".count)) }).union(searchable.keys) {
            let columns = (searchable[table] ?? []).sorted()
            let search = SQLIdentifier.quoted(table + "__search")
            let current = try database.rows("SELECT name FROM pragma_table_info(?)", [.text(table + "__search")])
                .compactMap { row -> String? in if case .text(let name) = row[0] { return name } else { return nil } }
            if current == columns { continue }
            for trigger in ["ai", "ad", "au"] {
                try database.execute("DROP TRIGGER IF EXISTS \(SQLIdentifier.quoted("\(table)__search_\(trigger)"))")
            }
            try database.execute("DROP TABLE IF EXISTS \(search)")
            guard !columns.isEmpty else { continue }
            let quotedTable = SQLIdentifier.quoted(table)
            let list = columns.map(SQLIdentifier.quoted).joined(separator: ", ")
            let new = columns.map { "new.\(SQLIdentifier.quoted($0))" }.joined(separator: ", ")
            let old = columns.map { "old.\(SQLIdentifier.quoted($0))" }.joined(separator: ", ")
            try database.execute(
                """
                CREATE VIRTUAL TABLE \(search) USING fts5(\(list), content=\(quotedTable), content_rowid=rowid);
                CREATE TRIGGER \(SQLIdentifier.quoted("\(table)__search_ai")) AFTER INSERT ON \(quotedTable) BEGIN
                    INSERT INTO \(search) (rowid, \(list)) VALUES (new.rowid, \(new));
                END;
                CREATE TRIGGER \(SQLIdentifier.quoted("\(table)__search_ad")) AFTER DELETE ON \(quotedTable) BEGIN
                    INSERT INTO \(search) (\(search), rowid, \(list)) VALUES ('delete', old.rowid, \(old));
                END;
                CREATE TRIGGER \(SQLIdentifier.quoted("\(table)__search_au")) AFTER UPDATE ON \(quotedTable) BEGIN
                    INSERT INTO \(search) (\(search), rowid, \(list)) VALUES ('delete', old.rowid, \(old));
                    INSERT INTO \(search) (rowid, \(list)) VALUES (new.rowid, \(new));
                END;
                INSERT INTO \(search) (\(search)) VALUES ('rebuild');
                """)
        }
    }
}
