package import CloudSeedCore

// Each store is its own transaction: the writes a transaction takes are the store's own methods,
// called inside ``StoreBackend/write(bulk:_:)``; only the SQL behind them differs.

extension SQLiteContainerStore: StoreTransaction {
    package func createZone(_ scope: StoreScope) throws { _ = try zoneKey(scope, create: true) }
}

extension PostgresContainerStore: StoreTransaction {
    package func createZone(_ scope: StoreScope) throws { _ = try zoneKey(scope, create: true) }

    /// 128 batches of 256 rows: the writing thread waits for the server in bursts, and with 32
    /// the reading thread then stopped too, each waiting for the other in turn. More
    /// batches ahead cost some memory at the peak.
    package var rowsReadAhead: Int { 32_768 }

    /// The server builds them while the run goes on.
    package func startBuildingDeferredNameIndexes() throws { try buildDeferredNameIndexes() }
}
