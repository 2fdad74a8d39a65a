/// Sends buffered rows to the server with `COPY` in its binary format (``PostgresBinaryRow``), in the background.
extension PostgresContainerStore {
    /// Where a batch goes: a table and its columns, as SQL.
    package struct CopyTarget: Sendable {
        package let table: String
        package let columns: String
        /// `column = excluded.column` for every column a save replaces.
        package let updates: String

        /// The `COPY` of binary rows into the table's columns.
        package var statement: String { "COPY \(table) (\(columns)) FROM STDIN WITH (FORMAT binary)" }

        /// Where the rows of `layout`'s table go, leaving out the columns `shared` holds, if any.
        package init(_ layout: TypeLayout, leavingOut shared: PostgresPendingRows.SharedColumns?) {
            table = layout.qualifiedTable
            let left = PostgresPendingRows.SharedColumns.systemColumnIndexes
            columns =
                shared == nil
                ? layout.columns
                : layout.quotedColumns.enumerated().filter { !left.contains($0.offset) }.map(\.element).joined(
                    separator: ", ")
            updates = layout.quotedColumns.dropFirst(2).map { "\($0) = excluded.\($0)" }.joined(separator: ", ")
        }
    }

    /// Sends every buffered row, a table's batch at a time on the connection's background thread:
    /// the server stores a batch while the run prepares the next, and every other statement waits
    /// for it first, so reads still see every earlier write. A batch whose rows leave columns out
    /// first has the table's defaults set to their values, where they hold others.
    ///
    /// The batches of a table whose keys wait for its rows (``deferNameIndex(ofType:in:)``), which
    /// no row can conflict with, go on in one copy left open (``PostgresConnection/streamCopy(_:header:rows:trailer:)``).
    package func flushPendingRows() throws {
        guard !pendingRows.isEmpty else { return }
        var batches = pendingRows.takeAll()
        for table in batches.keys.sorted() {
            let batch = batches.removeValue(forKey: table)!
            let target = CopyTarget(batch.layout, leavingOut: batch.shared)
            let shared = batch.shared
            let streamed = deferredKeys[table] != nil
            guard let data = streamed ? batch.rowData() : batch.copyData() else { continue }
            let defaults = try shared.flatMap {
                columnDefaults[table] == $0 ? nil : try PostgresLayout.settingDefaults(of: table, to: $0)
            }
            if shared != nil { columnDefaults[table] = shared }
            try connection.inBackground { connection in
                if let defaults { try connection.execute(defaults) }
                if streamed {
                    try connection.streamCopy(
                        target.statement, header: PostgresBinaryRow.header, rows: data,
                        trailer: PostgresBinaryRow.trailer)
                } else {
                    try Self.copy(data, into: target, on: connection)
                }
            }
        }
    }

    /// Copies rows straight into their table; should the batch hold a record the table already has,
    /// it is sent again through a temporary table and merged in, replacing the stored rows as a save does.
    private static func copy(_ data: ArraySlice<UInt8>, into target: CopyTarget, on connection: PostgresConnection)
        throws
    {
        try connection.execute("SAVEPOINT cloudseed_copy")
        do {
            try connection.copy(target.statement, data)
            try connection.execute("RELEASE SAVEPOINT cloudseed_copy")
            return
        } catch  where connection.lastSQLState == "23505" {
            try connection.execute("ROLLBACK TO SAVEPOINT cloudseed_copy; RELEASE SAVEPOINT cloudseed_copy")
        }
        try connection.execute("CREATE TEMPORARY TABLE cloudseed_staging (LIKE \(target.table)) ON COMMIT DROP")
        try connection.copy("COPY cloudseed_staging (\(target.columns)) FROM STDIN WITH (FORMAT binary)", data)
        try connection.execute(
            """
            INSERT INTO \(target.table) (\(target.columns)) SELECT \(target.columns) FROM cloudseed_staging
            ON CONFLICT ("___zone", "___recordID") DO UPDATE SET \(target.updates);
            DROP TABLE cloudseed_staging
            """)
    }
}
