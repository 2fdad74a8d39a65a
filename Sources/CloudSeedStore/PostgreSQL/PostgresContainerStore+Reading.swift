package import CloudSeedCore

/// Read-only transactions: one snapshot of the database (REPEATABLE READ), which waits for no
/// writer.
extension PostgresContainerStore: ReadTransactions {
    package var sqlConnection: any SQLConnection { connection }
    package var beginReading: String { "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY" }

    /// Drops the layouts, zone keys and rows read ahead.
    package func forgetCaches() {
        layouts.removeAll()
        zoneKeys.removeAll()
        readAhead.removeAll()
    }

    package func record(named recordName: String, ofType recordType: String, in scope: StoreScope) throws
        -> CloudRecord?
    {
        try reading { try record(recordName, ofType: recordType, in: scope) }
    }
}
