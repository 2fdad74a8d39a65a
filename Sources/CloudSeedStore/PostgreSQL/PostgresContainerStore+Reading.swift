package import CloudSeedCore

/// Read-only transactions: one snapshot of the database (REPEATABLE READ), which waits for no
/// writer. The layouts, zone keys and rows read ahead that a transaction caches are read anew, as another client may
/// have changed them since.
extension PostgresContainerStore {
    package func read<T>(_ body: () throws -> T) throws -> T {
        layouts.removeAll()
        zoneKeys.removeAll()
        readAhead.removeAll()
        defer {
            layouts.removeAll()
            zoneKeys.removeAll()
            readAhead.removeAll()
        }
        try connection.execute("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
        do {
            let result = try body()
            try connection.execute("COMMIT")
            return result
        } catch {
            try? connection.execute("ROLLBACK")
            throw error
        }
    }

    package func record(named recordName: String, ofType recordType: String, in scope: StoreScope) throws
        -> CloudRecord?
    {
        try reading { try record(recordName, ofType: recordType, in: scope) }
    }
}
