package import CloudSeedCore

/// A bulk insert into an empty record table goes in without the table's indexes (its name index,
/// and the indexes of the fields a schema makes queryable or sortable), which are built once the
/// rows are in: SQLite then sorts each once instead of placing each row in a B-tree as it arrives,
/// in a random order, which is faster.
///
/// Meanwhile the page cache is small (8 MB, as for the sort): rows appended to a table are not
/// read again, so SQLite writes their pages as they fill instead of keeping them all for the
/// commit to write, which the run then waits for; the run's peak memory is lower too.
extension SQLiteContainerStore {
    /// Drops the name index and the field indexes of `recordType`'s table if the table holds no
    /// rows, until ``buildDeferredNameIndexes()`` (or the end of the transaction) builds them again.
    /// Until then a record saved twice under one name is kept twice, and the index then refuses to be built.
    package func deferNameIndex(ofType recordType: String, in scope: SchemaScope) throws -> Bool {
        guard let layout = try typeLayouts(scope)[recordType], !deferredNameIndexes.contains(layout.table) else {
            return false
        }
        let index = SQLiteLayout.nameIndex(of: layout.table)
        guard
            try !database.rows("SELECT 1 FROM sqlite_master WHERE type = 'index' AND name = ?", [.text(index)]).isEmpty,
            try database.rows("SELECT 1 FROM \(SQLIdentifier.quoted(layout.table)) LIMIT 1").isEmpty
        else { return false }
        try database.execute("DROP INDEX \(SQLIdentifier.quoted(index))")
        let fieldIndexes = try database.rows(
            "SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name = ? AND sql IS NOT NULL",
            [.text(layout.table)])
        for row in fieldIndexes {
            guard case .text(let name) = row[0], case .text(let creation) = row[1] else { continue }
            try database.execute("DROP INDEX \(SQLIdentifier.quoted(name))")
            deferredFieldIndexes[layout.table, default: []].append(creation)
        }
        if deferredNameIndexes.isEmpty { try database.execute("PRAGMA cache_size = \(Self.indexingCacheSize)") }
        deferredNameIndexes.insert(layout.table)
        return true
    }

    /// Builds the name indexes ``deferNameIndex(ofType:in:)`` dropped. SQLite sorts the names in
    /// as much memory as its page cache may take, so the cache is made small meanwhile (8 MB): the sort
    /// then merges runs from a temporary file, as fast, in less memory. A second thread sorts
    /// alongside, which is faster.
    package func buildDeferredNameIndexes() throws {
        guard !deferredNameIndexes.isEmpty else { return }
        try database.execute("PRAGMA cache_size = \(Self.indexingCacheSize); PRAGMA threads = 2")
        defer { try? database.execute("PRAGMA cache_size = \(Self.cacheSize); PRAGMA threads = 0") }
        for table in deferredNameIndexes.sorted() {
            do {
                try database.execute(SQLiteLayout.createNameIndex(table))
            } catch let error as CloudSeedError where error.message.contains("UNIQUE") {
                throw CloudSeedError(
                    .duplicateRecordName,
                    "two records of type \(table) were given the same record name in one run; give them distinct names")
            }
            for creation in deferredFieldIndexes[table] ?? [] { try database.execute(creation) }
        }
        deferredNameIndexes.removeAll()
        deferredFieldIndexes.removeAll()
    }
}
