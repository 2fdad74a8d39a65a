package import CloudSeedCore

/// A bulk `COPY` into an empty record table goes in without the table's primary key (the index on
/// record names) and its foreign key to the zones, added again once the rows are in: PostgreSQL
/// then sorts the names once instead of placing each in a B-tree as it arrives, and checks no
/// zone for every row, which is much faster, adding them back included.
///
/// The foreign key comes back `NOT VALID`: PostgreSQL checks every row written after it, but does
/// not scan the rows the run copied in, each of which holds the zone the run found or created
/// itself in this transaction, so a scan is saved. It stays so in later runs,
/// as SQLite's store declares the key and leaves the rows it holds unchecked.
///
/// A table that holds rows keeps its primary key, which finds the records a run may replace, but
/// its foreign key waits too: checked for each row copied in, it took as long as the copy itself.
extension PostgresContainerStore {
    /// Drops the primary and foreign keys of `recordType`'s table if the table holds no rows,
    /// until ``buildDeferredNameIndexes()`` (or the end of the transaction) adds them again, under
    /// the same names. Until then a record saved twice under one name is kept twice, and the
    /// primary key then refuses to be added. From a table that holds rows, only the foreign key
    /// is dropped, and `false` returned.
    package func deferNameIndex(ofType recordType: String, in scope: SchemaScope) throws -> Bool {
        guard let layout = try typeLayouts(scope)[recordType], deferredKeys[layout.qualifiedTable] == nil else {
            return false
        }
        try flushPendingRows()
        guard try connection.value("SELECT 1 FROM \(layout.qualifiedTable) LIMIT 1") == nil else {
            try deferZoneKey(of: layout.qualifiedTable)
            return false
        }
        // The primary key first: it is added back in this order.
        let keys = try connection.rows(
            """
            SELECT conname, pg_get_constraintdef(oid) FROM pg_constraint
            WHERE conrelid = to_regclass($1) AND contype IN ('p', 'f') ORDER BY contype DESC, conname
            """, [layout.qualifiedTable]
        ).compactMap { row in row[0].flatMap { name in row[1].map { (name, $0) } } }
        guard !keys.isEmpty else { return false }
        let drops = keys.map { "DROP CONSTRAINT \(SQLIdentifier.quoted($0.0))" }.joined(separator: ", ")
        try connection.execute("ALTER TABLE \(layout.qualifiedTable) \(drops)")
        deferredKeys[layout.qualifiedTable] = (
            recordType,
            keys.map { name, definition in
                let unchecked =
                    definition.hasPrefix("FOREIGN KEY") && !definition.hasSuffix(" NOT VALID") ? " NOT VALID" : ""
                return "ADD CONSTRAINT \(SQLIdentifier.quoted(name)) \(definition)\(unchecked)"
            }
        )
        lastInsertTarget = nil  // its rows may now leave their shared columns to the table's defaults
        return true
    }

    /// Drops the foreign key to the zones of `table`, a table that holds rows, until
    /// ``buildDeferredNameIndexes()`` adds it back.
    private func deferZoneKey(of table: String) throws {
        guard deferredZoneKeys[table] == nil,
            let key = try connection.rows(
                "SELECT conname, pg_get_constraintdef(oid) FROM pg_constraint WHERE conrelid = to_regclass($1) AND contype = 'f'",
                [table]
            ).first, let name = key[0], let definition = key[1]
        else { return }
        try connection.execute("ALTER TABLE \(table) DROP CONSTRAINT \(SQLIdentifier.quoted(name))")
        let unchecked = definition.hasSuffix(" NOT VALID") ? "" : " NOT VALID"
        deferredZoneKeys[table] = "ADD CONSTRAINT \(SQLIdentifier.quoted(name)) \(definition)\(unchecked)"
    }

    /// Adds back the keys ``deferNameIndex(ofType:in:)`` dropped, and drops the column defaults the
    /// rows copied in meanwhile left their shared columns to, once every pending row is in: on
    /// the connection's background thread, so that the server builds them while the run goes on
    /// (an import checks its guessed plan meanwhile). The
    /// next statement waits for them and throws their failure; the commit is such a statement.
    package func buildDeferredNameIndexes() throws {
        guard !deferredKeys.isEmpty || !deferredZoneKeys.isEmpty else { return }
        try flushPendingRows()
        for (table, addition) in deferredZoneKeys.sorted(by: { $0.key < $1.key }) {
            try connection.execute("ALTER TABLE \(table) \(addition)")
        }
        deferredZoneKeys.removeAll()
        guard !deferredKeys.isEmpty else { return }
        let deferred = deferredKeys.sorted(by: { $0.key < $1.key }).map { table, keys in
            (
                table: table, recordType: keys.recordType,
                additions: keys.additions + (columnDefaults[table] == nil ? [] : PostgresLayout.droppingDefaults)
            )
        }
        deferredKeys.removeAll()
        columnDefaults.removeAll()
        lastInsertTarget = nil
        try connection.inBackground { connection in
            for keys in deferred {
                do {
                    try connection.execute("ALTER TABLE \(keys.table) \(keys.additions.joined(separator: ", "))")
                } catch  where connection.lastSQLState == "23505" {
                    throw CloudSeedError(
                        .duplicateRecordName,
                        "two records of type \(keys.recordType) were given the same record name in one run; give them distinct names"
                    )
                }
            }
        }
    }
}
