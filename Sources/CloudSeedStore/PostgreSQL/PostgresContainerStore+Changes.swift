package import CloudSeedCore

/// What a zone's changes need beyond its records: the deletions, each with a change tag of its
/// own so that a client's sync token orders them with the saves, and zones made or dropped whole.
extension PostgresContainerStore {
    /// Notes that a record was deleted from the zone with row id `zone`.
    package func noteDeletion(of recordName: String, ofType recordType: String, zone: Int64) throws {
        guard let counter = Int64(try nextChangeTag(), radix: 36) else { return }
        try connection.rows(
            """
            INSERT INTO cloudseed.deletions (zone, record_name, record_type, change_tag) VALUES ($1, $2, $3, $4)
            ON CONFLICT (zone, record_name) DO UPDATE SET record_type = excluded.record_type, change_tag = excluded.change_tag
            """,
            [String(zone), recordName, recordType, String(counter)])
    }

    package func deletedRecords(in scope: StoreScope) throws -> [DeletedRecord] {
        try reading {
            guard let zone = try zoneKey(scope, create: false) else { return [] }
            return try connection.rows(
                "SELECT record_name, record_type, change_tag FROM cloudseed.deletions WHERE zone = $1 ORDER BY change_tag",
                [String(zone)]
            ).compactMap { row in
                guard let name = row[0], let type = row[1], let tag = row[2].flatMap({ Int64($0) }) else { return nil }
                return DeletedRecord(recordName: name, recordType: type, changeTag: tag)
            }
        }
    }

    package func records(ofType recordType: String, in scope: StoreScope, changedAfter counter: Int64, limit: Int)
        throws -> [CloudRecord]
    {
        try reading {
            guard let layout = try typeLayouts(scope.schemaScope)[recordType],
                let zone = try zoneKey(scope, create: false)
            else { return [] }
            let tag = ChangeTag.text(of: counter)
            return try connection.rows(
                layout.selectChangedAfter, [String(zone), String(tag.utf8.count), tag, String(limit)]
            ).map { try record(from: $0, type: recordType, layout: layout, zoneID: scope.zoneID) }
        }
    }

    package func latestChangeTag(in scope: StoreScope) throws -> Int64? {
        try reading {
            guard let zone = try zoneKey(scope, create: false) else { return nil }
            return try typeLayouts(scope.schemaScope).values.compactMap { layout -> Int64? in
                try connection.value(
                    "SELECT \"___etag\" FROM \(layout.qualifiedTable) WHERE \"___zone\" = $1 ORDER BY length(\"___etag\") DESC, \"___etag\" DESC LIMIT 1",
                    [String(zone)]
                ).flatMap { Int64($0, radix: 36) }
            }.max()
        }
    }

    /// Indexes each record table by zone and change tag, a counter in base 36 that orders as a
    /// number by its length first, where it is not yet: made where a zone's changes are first
    /// read, not with the table, which imports then keep up.
    package func indexChanges(in scope: SchemaScope) throws {
        let missing = try reading {
            try typeLayouts(scope).values.sorted { $0.table < $1.table }.filter { layout in
                try connection.value(
                    "SELECT to_regclass($1)::text",
                    [PostgresLayout.qualified(layout.schema, Self.changeIndex(of: layout))]) == nil
            }
        }
        guard !missing.isEmpty else { return }
        try write { _ in
            // Not made while another run writes the table: the changes are then read without it.
            try connection.execute("SET LOCAL lock_timeout = '100ms'")
            for layout in missing {
                try connection.execute(
                    "CREATE INDEX IF NOT EXISTS \(SQLIdentifier.quoted(Self.changeIndex(of: layout))) ON \(layout.qualifiedTable) (\"___zone\", length(\"___etag\"), \"___etag\")"
                )
            }
        }
    }

    private static func changeIndex(of layout: TypeLayout) -> String {
        PostgresLayout.indexName(table: layout.table, kind: "changes", column: "")
    }

    /// Deletes a zone's records, its deletions and the zone itself.
    package func deleteZone(_ scope: StoreScope) throws -> Bool {
        try flushPendingRows()
        guard let zone = try zoneKey(scope, create: false) else { return false }
        for layout in try typeLayouts(scope.schemaScope).values {
            try connection.rows("DELETE FROM \(layout.qualifiedTable) WHERE \"___zone\" = $1", [String(zone)])
        }
        try connection.rows("DELETE FROM cloudseed.deletions WHERE zone = $1", [String(zone)])
        try connection.rows("DELETE FROM cloudseed.zones WHERE id = $1", [String(zone)])
        zoneKeys[scope] = nil
        readAhead.removeAll()
        guard let counter = Int64(try nextChangeTag(), radix: 36) else { return true }
        try connection.execute(PostgresLayout.zoneDeletionsTable)
        try connection.rows(
            """
            INSERT INTO cloudseed.zone_deletions (container, environment, database, owner, zone, change_tag)
            VALUES ($1, $2, $3, $4, $5, $6)
            ON CONFLICT (container, environment, database, owner, zone) DO UPDATE SET change_tag = excluded.change_tag
            """,
            Self.zoneArguments(scope) + [String(counter)])
        return true
    }

    package func deletedZones() throws -> [DeletedZone] {
        try reading {
            guard try connection.value("SELECT to_regclass('cloudseed.zone_deletions')::text") != nil else { return [] }
            return try connection.rows(
                "SELECT container, environment, database, owner, zone, change_tag FROM cloudseed.zone_deletions ORDER BY change_tag"
            ).compactMap { row in
                guard let container = row[0], let environment = row[1], let database = row[2], let owner = row[3],
                    let zone = row[4], let tag = row[5].flatMap({ Int64($0) }),
                    let scope = StoreScope(
                        container: container, environment: environment, database: database, owner: owner, zone: zone)
                else { return nil }
                return DeletedZone(scope: scope, changeTag: tag)
            }
        }
    }

    /// A zone's container, environment, database, owner and name, as the zone tables hold them.
    static func zoneArguments(_ scope: StoreScope) -> [String?] {
        [
            scope.container, scope.environment.rawValue, scope.database.rawValue, scope.zoneID.ownerName,
            scope.zoneID.zoneName,
        ]
    }
}
