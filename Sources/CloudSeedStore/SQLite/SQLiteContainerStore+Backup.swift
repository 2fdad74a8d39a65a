/// What a restore needs of the SQLite store beyond saving records.
extension SQLiteContainerStore {
    /// Raises the change tag counter of `_cloudseed_meta` to the highest change tag any record holds,
    /// so that ``nextChangeTag()`` never gives a tag a restored record already has.
    ///
    /// Tags are base-36 counters without leading zeros, so the highest of a table is the longest and
    /// then the last in byte order; tags of another form cannot meet the counter's and are skipped.
    package func reserveStoredChangeTags() throws {
        try flushChangeTagCounter()
        var highest: Int64 = 0
        if case .text(let value)? = try database.rows("SELECT value FROM _cloudseed_meta WHERE key = 'changeTag'")
            .first?.first
        {
            highest = Int64(value) ?? 0
        }
        let tables = try database.rows(
            """
            SELECT m.name FROM sqlite_master m
            WHERE m.type = 'table' AND EXISTS (SELECT 1 FROM pragma_table_info(m.name) WHERE name = '___etag')
            """)
        for row in tables {
            guard case .text(let table) = row[0] else { continue }
            let tag = SQLIdentifier.quoted("___etag")
            let top = try database.rows(
                """
                SELECT \(tag) FROM \(SQLIdentifier.quoted(table))
                WHERE \(tag) NOT GLOB '*[^0-9a-z]*' AND \(tag) NOT GLOB '0?*'
                ORDER BY length(\(tag)) DESC, \(tag) DESC LIMIT 1
                """)
            if case .text(let text)? = top.first?.first, let value = Int64(text, radix: 36) {
                highest = max(highest, value)
            }
        }
        try database.rows("UPDATE _cloudseed_meta SET value = ? WHERE key = 'changeTag'", [.text(String(highest))])
    }
}
