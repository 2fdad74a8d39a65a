/// A connection to a database that runs SQL statements.
package protocol SQLConnection {
    /// Runs statements that return no rows.
    func execute(_ sql: String) throws
}

extension SQLiteDatabase: SQLConnection {}

extension PostgresConnection: SQLConnection {}

/// Read-only transactions, the same in every store but for the statement that begins one.
package protocol ReadTransactions: AnyObject {
    /// The store's connection.
    var sqlConnection: any SQLConnection { get }
    /// Begins a read-only transaction: one snapshot of the database, which waits for no writer.
    var beginReading: String { get }
    /// Drops what the store caches of the database (layouts, zone keys), as another connection may
    /// have changed it.
    func forgetCaches()
}

extension ReadTransactions {
    /// Runs `body` in a read-only transaction, with the caches read anew.
    package func read<T>(_ body: () throws -> T) throws -> T {
        forgetCaches()
        defer { forgetCaches() }
        try sqlConnection.execute(beginReading)
        do {
            let result = try body()
            try sqlConnection.execute("COMMIT")
            return result
        } catch {
            try? sqlConnection.execute("ROLLBACK")
            throw error
        }
    }
}
