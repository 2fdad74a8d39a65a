package import CloudSeedCore

/// Which records a run's zone holds already, asked of the table's primary key a batch of names at
/// a time (``SQLQueries/storedNames(_:in:zone:)``), or of the zone as a whole; the rows still
/// buffered are sent first.
extension PostgresContainerStore {
    package func holdsRecords(ofType recordType: String, in scope: StoreScope) throws -> Bool {
        guard let layout = try typeLayouts(scope.schemaScope)[recordType], let zone = try zoneKey(scope, create: false)
        else { return false }
        try flushPendingRows()
        return try connection.value(
            "SELECT 1 FROM \(layout.qualifiedTable) WHERE \"___zone\" = $1 LIMIT 1", [String(zone)]) != nil
    }

    package func storedNames(_ recordNames: [String], ofType recordType: String, in scope: StoreScope) throws
        -> Set<String>
    {
        guard !recordNames.isEmpty, let layout = try typeLayouts(scope.schemaScope)[recordType],
            let zone = try zoneKey(scope, create: false)
        else { return [] }
        if deferredKeys[layout.qualifiedTable] != nil { try buildDeferredNameIndexes() }
        try flushPendingRows()
        return try storedNames(recordNames, in: layout, zone: zone)
    }
}
