package import CloudSeedCore

/// Read-only transactions: in WAL mode a deferred transaction reads one snapshot of the file and
/// waits for no writer. The layouts and zone keys a transaction caches are read anew, as another
/// process may have changed them since.
extension SQLiteContainerStore {
    package func read<T>(_ body: () throws -> T) throws -> T {
        forgetCaches()
        defer { forgetCaches() }
        try database.execute("BEGIN DEFERRED")
        do {
            let result = try body()
            try database.execute("COMMIT")
            return result
        } catch {
            try? database.execute("ROLLBACK")
            throw error
        }
    }

    package func record(named recordName: String, ofType recordType: String, in scope: StoreScope) throws
        -> CloudRecord?
    {
        try record(recordName, ofType: recordType, in: scope)
    }
}
