/// What a restore needs of the PostgreSQL store beyond saving records.
extension PostgresContainerStore {
    /// Raises the change tag counter of `cloudseed.meta` to the highest change tag any record holds,
    /// so that ``nextChangeTag()`` never gives a tag a restored record already has.
    ///
    /// Tags are base-36 counters without leading zeros, so the highest of a table is the longest and
    /// then the last in byte order; tags of another form cannot meet the counter's and are skipped.
    package func reserveStoredChangeTags() throws {
        try flushPendingRows()
        try flushChangeTagCounter()
        var highest = Int64(try connection.value("SELECT value FROM cloudseed.meta WHERE key = 'changeTag'") ?? "") ?? 0
        for row in try connection.rows(
            """
            SELECT e.schema_name, t.table_name FROM cloudseed.record_types t
            JOIN cloudseed.environments e ON e.container = t.container AND e.environment = t.environment
            """)
        {
            guard let schema = row[0], let table = row[1] else { continue }
            let top = try connection.value(
                """
                SELECT "___etag" FROM \(PostgresLayout.qualified(schema, table))
                WHERE "___etag" ~ '^(0|[1-9a-z][0-9a-z]*)$'
                ORDER BY length("___etag") DESC, "___etag" DESC LIMIT 1
                """)
            if let top, let value = Int64(top, radix: 36) { highest = max(highest, value) }
        }
        try connection.rows("UPDATE cloudseed.meta SET value = $1 WHERE key = 'changeTag'", [String(highest)])
    }
}
