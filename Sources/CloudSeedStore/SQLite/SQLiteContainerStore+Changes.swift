package import CloudSeedCore

/// What a zone's changes need beyond its records: the deletions, each with a change tag of its
/// own so that a client's sync token orders them with the saves, and zones made or dropped whole.
extension SQLiteContainerStore {
    /// Notes that a record was deleted from the zone with row id `zone`.
    package func noteDeletion(of recordName: String, ofType recordType: String, zone: Int64) throws {
        guard let counter = Int64(try nextChangeTag(), radix: 36) else { return }
        try database.rows(
            "INSERT OR REPLACE INTO _cloudseed_deletions (zone, record_name, record_type, change_tag) VALUES (?, ?, ?, ?)",
            [.integer(zone), .text(recordName), .text(recordType), .integer(counter)])
    }

    package func deletedRecords(in scope: StoreScope) throws -> [DeletedRecord] {
        guard let zone = try zoneKey(scope, create: false) else { return [] }
        return try database.rows(
            "SELECT record_name, record_type, change_tag FROM _cloudseed_deletions WHERE zone = ? ORDER BY change_tag",
            [.integer(zone)]
        ).compactMap { row in
            guard case .text(let name) = row[0], case .text(let type) = row[1], case .integer(let tag) = row[2]
            else { return nil }
            return DeletedRecord(recordName: name, recordType: type, changeTag: tag)
        }
    }

    package func records(ofType recordType: String, in scope: StoreScope, changedAfter counter: Int64, limit: Int)
        throws -> [CloudRecord]
    {
        guard let layout = try typeLayouts(scope.schemaScope)[recordType], let zone = try zoneKey(scope, create: false)
        else { return [] }
        let tag = ChangeTag.text(of: counter)
        return try database.rows(
            layout.selectChangedAfter,
            [.integer(zone), .integer(Int64(tag.utf8.count)), .text(tag), .integer(Int64(limit))]
        ).map { try record(from: $0, type: recordType, layout: layout, zoneID: scope.zoneID) }
    }

    package func latestChangeTag(in scope: StoreScope) throws -> Int64? {
        guard let zone = try zoneKey(scope, create: false) else { return nil }
        return try typeLayouts(scope.schemaScope).values.compactMap { layout -> Int64? in
            guard
                case .text(let tag)? = try database.rows(
                    "SELECT \"___etag\" FROM \(SQLIdentifier.quoted(layout.table)) WHERE \"___zone\" = ? ORDER BY length(\"___etag\") DESC, \"___etag\" DESC LIMIT 1",
                    [.integer(zone)]
                ).first?.first
            else { return nil }
            return Int64(tag, radix: 36)
        }.max()
    }

    package func indexChanges(in scope: SchemaScope) throws {
        let missing = try typeLayouts(scope).values.map(\.table).sorted().filter { table in
            try database.rows(
                "SELECT 1 FROM sqlite_master WHERE type = 'index' AND name = ?",
                [.text(SQLiteLayout.changeIndex(of: table))]
            ).isEmpty
        }
        guard !missing.isEmpty else { return }
        // Not made while another run writes: the changes are then read without it this time.
        try database.withoutWaiting {
            try write { _ in for table in missing { try database.execute(SQLiteLayout.createChangeIndex(table)) } }
        }
    }

    /// Deletes a zone's records, its deletions and the zone itself.
    package func deleteZone(_ scope: StoreScope) throws -> Bool {
        guard let zone = try zoneKey(scope, create: false) else { return false }
        for layout in try typeLayouts(scope.schemaScope).values {
            try database.rows(
                "DELETE FROM \(SQLIdentifier.quoted(layout.table)) WHERE \"___zone\" = ?", [.integer(zone)])
        }
        try database.rows("DELETE FROM _cloudseed_deletions WHERE zone = ?", [.integer(zone)])
        try database.rows("DELETE FROM _cloudseed_zones WHERE id = ?", [.integer(zone)])
        zoneKeys[scope] = nil
        guard let counter = Int64(try nextChangeTag(), radix: 36) else { return true }
        try database.rows(
            "INSERT OR REPLACE INTO _cloudseed_zone_deletions (container, environment, database, owner, zone, change_tag) VALUES (?, ?, ?, ?, ?, ?)",
            Self.zoneArguments(scope) + [.integer(counter)])
        return true
    }

    package func deletedZones() throws -> [DeletedZone] {
        try database.rows(
            "SELECT container, environment, database, owner, zone, change_tag FROM _cloudseed_zone_deletions ORDER BY change_tag"
        ).compactMap { row in
            guard case .text(let container) = row[0], case .text(let environment) = row[1],
                case .text(let database) = row[2], case .text(let owner) = row[3], case .text(let zone) = row[4],
                case .integer(let tag) = row[5],
                let scope = StoreScope(
                    container: container, environment: environment, database: database, owner: owner, zone: zone)
            else { return nil }
            return DeletedZone(scope: scope, changeTag: tag)
        }
    }

    /// A zone's container, environment, database, owner and name, as the zone tables hold them.
    static func zoneArguments(_ scope: StoreScope) -> [SQLiteValue] {
        [
            .text(scope.container), .text(scope.environment.rawValue), .text(scope.database.rawValue),
            .text(scope.zoneID.ownerName), .text(scope.zoneID.zoneName),
        ]
    }
}
