package import CloudSeedCore

/// Which records a run's zone holds already, asked of the table's name index a batch of names at a
/// time (``SQLQueries/storedNames(_:in:zone:)``), or of the zone as a whole.
extension SQLiteContainerStore {
    package func holdsRecords(ofType recordType: String, in scope: StoreScope) throws -> Bool {
        guard let layout = try typeLayouts(scope.schemaScope)[recordType], let zone = try zoneKey(scope, create: false)
        else { return false }
        return try !database.rows(
            "SELECT 1 FROM \(SQLIdentifier.quoted(layout.table)) WHERE \"___zone\" = ? LIMIT 1", [.integer(zone)]
        ).isEmpty
    }

    package func storedNames(_ recordNames: [String], ofType recordType: String, in scope: StoreScope) throws
        -> Set<String>
    {
        guard !recordNames.isEmpty, let layout = try typeLayouts(scope.schemaScope)[recordType],
            let zone = try zoneKey(scope, create: false)
        else { return [] }
        if deferredNameIndexes.contains(layout.table) { try buildDeferredNameIndexes() }
        return try storedNames(recordNames, in: layout, zone: zone)
    }
}
