package import CloudSeedCore

/// Read-only transactions: in WAL mode a deferred transaction reads one snapshot of the file and
/// waits for no writer.
extension SQLiteContainerStore: ReadTransactions {
    package var sqlConnection: any SQLConnection { database }
    package var beginReading: String { "BEGIN DEFERRED" }

    package func record(named recordName: String, ofType recordType: String, in scope: StoreScope) throws
        -> CloudRecord?
    {
        try record(recordName, ofType: recordType, in: scope)
    }
}
