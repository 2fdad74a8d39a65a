/// Sends buffered rows to the server with `COPY`.
extension PostgresContainerStore {
    /// Sends every buffered row. Rows go straight into their table; should a batch hold a record the
    /// table already has, the batch is sent again through a temporary table and merged in, replacing
    /// the stored rows as a save does.
    func flushPendingRows() throws {
        guard !pendingRows.isEmpty else { return }
        let batches = pendingRows.batches
        pendingRows.removeAll()
        for (_, batch) in batches.sorted(by: { $0.key < $1.key }) {
            var data: [UInt8] = []
            for row in batch.rows { if let row { data += row.line } }
            guard !data.isEmpty else { continue }
            try copy(data, into: batch.layout)
        }
    }

    private func copy(_ data: [UInt8], into layout: TypeLayout) throws {
        try connection.execute("SAVEPOINT cloudseed_copy")
        do {
            try connection.copy("COPY \(layout.qualifiedTable) (\(layout.columns)) FROM STDIN", data)
            try connection.execute("RELEASE SAVEPOINT cloudseed_copy")
            return
        } catch where connection.lastSQLState == "23505" {
            try connection.execute("ROLLBACK TO SAVEPOINT cloudseed_copy; RELEASE SAVEPOINT cloudseed_copy")
        }
        let updates = layout.quotedColumns.dropFirst(2).map { "\($0) = excluded.\($0)" }
        try connection.execute("CREATE TEMPORARY TABLE cloudseed_staging (LIKE \(layout.qualifiedTable)) ON COMMIT DROP")
        try connection.copy("COPY cloudseed_staging (\(layout.columns)) FROM STDIN", data)
        try connection.execute("""
            INSERT INTO \(layout.qualifiedTable) (\(layout.columns)) SELECT \(layout.columns) FROM cloudseed_staging
            ON CONFLICT ("___zone", "___recordID") DO UPDATE SET \(updates.joined(separator: ", "));
            DROP TABLE cloudseed_staging
            """)
    }
}
