package import CloudSeedCore
package import CloudSeedSchema
package import Foundation

/// A container store on a PostgreSQL server, for teams that share one development store across machines.
///
/// Each container environment is a schema of its own with a table per record type and a column per
/// field; metadata lives in the schema `cloudseed` (see `docs/STORE.md`). A write runs as one
/// transaction; saved rows are sent in batches with `COPY`. Concurrent runs against one container
/// environment wait for each other on an advisory lock, taken when the run first touches it.
///
/// ```swift
/// let store = try PostgresContainerStore(url: "postgres://seed@db.example.com/cloudseed")
/// ```
package final class PostgresContainerStore: StoreBackend {
    package let connection: PostgresConnection
    /// The schema definitions parsed last, kept while their text stays the same.
    package let parsedSchemas = ParsedSchemas()
    /// Tables and columns of each record type, by container environment; reloaded after each transaction.
    package var layouts: [SchemaScope: [String: TypeLayout]] = [:]
    /// Zone row ids by scope, for the length of a transaction.
    package var zoneKeys: [StoreScope: Int64] = [:]
    /// The container environments whose lock the open write transaction holds.
    private var lockedEnvironments: Set<SchemaScope> = []
    private var isWriting = false
    /// The last change tag given in this transaction, written to `cloudseed.meta` when it commits.
    package var changeTags = ChangeTagCounter()
    /// Asset sizes by checksum; content-addressed, so they never change.
    private var assetSizes: [String: Int64] = [:]
    /// Saved rows not yet sent to the server.
    package var pendingRows = PostgresPendingRows()
    /// The memory each row is encoded in before it joins its batch (``PostgresBinaryRow/init(fieldCount:reusing:)``).
    package var rowMemory: [UInt8] = []
    /// Rows read ahead of record lookups, for the length of a transaction.
    package var readAhead = PostgresReadAhead()
    /// The keys dropped from empty tables while their rows go in, by qualified table: the
    /// table's record type and the `ADD CONSTRAINT` clauses that add them back
    /// (``deferNameIndex(ofType:in:)``).
    package var deferredKeys: [String: (recordType: String, additions: [String])] = [:]
    /// The foreign keys to the zones dropped from tables that hold rows while a bulk insert adds
    /// more, by qualified table: the `ADD CONSTRAINT` clause that adds each back.
    package var deferredZoneKeys: [String: String] = [:]
    /// The tables whose columns hold the values a bulk insert's rows share as their defaults,
    /// until their keys are added back (``PostgresPendingRows/SharedColumns``).
    package var columnDefaults: [String: PostgresPendingRows.SharedColumns] = [:]
    /// Whether the batch the last record inserted new joined leaves out the columns the next one
    /// does (``PostgresPendingRows/mustSend(_:before:)`` asked once, not for every row): until a
    /// record saved whole joins a batch, or the next record's target or shared columns differ.
    package var insertedRowsMatchTheirBatch = false
    /// Where the last record inserted new went (``insertNew(_:fieldNames:system:in:)``), for the length of a transaction.
    package var lastInsertTarget: InsertTarget?

    /// A record type's table, its field columns, and the SQL that reads and writes its rows.
    package struct TypeLayout {
        package let schema: String
        package let table: String
        /// Field name → (type, column).
        package let fields: [String: (type: FieldType, column: String)]
        /// Field names in byte order: the order of the field columns in ``selectAll`` and ``columns``.
        package let sortedFieldNames: [String]
        /// Every record of a zone, by record name.
        package let selectAll: String
        /// The record of a zone named `$2` and up to `$3` rows stored after it (``PostgresReadAhead``).
        package let selectFollowing: String
        /// The records of a zone whose names are in the JSON array of names `$2`, each found by its
        /// name in the name index.
        package let selectByNames: String
        /// The records of a zone saved after a change tag (`$3`, of length `$2`), in change tag
        /// order, at most `$4`: a change tag is a counter in base 36, so its length orders first.
        package let selectChangedAfter: String
        /// The written columns, quoted: the system columns, then the fields.
        package let quotedColumns: [String]
        /// `schema.table`, both quoted.
        package let qualifiedTable: String

        package init(schema: String, table: String, fields: [String: (type: FieldType, column: String)]) {
            self.schema = schema
            self.table = table
            self.fields = fields
            qualifiedTable = PostgresLayout.qualified(schema, table)
            sortedFieldNames = fields.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
            let system = [
                "\"___recordID\"", PostgresValueCodec.selected("___createTime", as: .timestamp), "\"___createdBy\"",
                PostgresValueCodec.selected("___modTime", as: .timestamp), "\"___modifiedBy\"", "\"___etag\"",
            ]
            let read =
                system + sortedFieldNames.map { PostgresValueCodec.selected(fields[$0]!.column, as: fields[$0]!.type) }
            let select = "SELECT \(read.joined(separator: ", ")) FROM \(qualifiedTable) WHERE \"___zone\" = $1"
            selectAll = select + " ORDER BY \"___recordID\""
            selectFollowing =
                select
                + " AND ctid >= (SELECT ctid FROM \(qualifiedTable) WHERE \"___zone\" = $1 AND \"___recordID\" = $2) LIMIT $3"
            selectByNames =
                "SELECT t.* FROM json_array_elements_text($2::json) AS n(name) CROSS JOIN LATERAL (\(select) AND \"___recordID\" = n.name LIMIT 1) AS t"
            // The changes of the same length after $3, then the longer ones: each a range of the
            // change index (PostgresContainerStore.indexChanges).
            let table = qualifiedTable
            func changes(_ condition: String, by order: String, as name: String) -> String {
                "SELECT * FROM (SELECT \(read.joined(separator: ", ")), length(\"___etag\") AS \"___length\" FROM \(table) WHERE \"___zone\" = $1 AND \(condition) ORDER BY \(order) LIMIT $4) AS \(name)"
            }
            selectChangedAfter =
                changes("length(\"___etag\") = $2 AND \"___etag\" > $3", by: "\"___etag\"", as: "same_length")
                + " UNION ALL "
                + changes("length(\"___etag\") > $2", by: "length(\"___etag\"), \"___etag\"", as: "longer")
                + " ORDER BY \"___length\", \"___etag\" LIMIT $4"
            quotedColumns = (RecordColumns.system + sortedFieldNames.map { fields[$0]!.column }).map(
                SQLIdentifier.quoted)
        }

        /// ``quotedColumns`` as a column list.
        package var columns: String { quotedColumns.joined(separator: ", ") }
    }

    /// Connects to the store at `url` (`postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE`), creating
    /// its metadata tables in the schema `cloudseed` if the database has none yet.
    package init(url: String) throws {
        connection = try PostgresConnection(url: url)
        if try connection.value("SELECT to_regclass('cloudseed.meta')::text") == nil {
            // Two first runs at once: the lock makes the second wait and then find the tables made.
            try connection.transaction {
                try connection.rows("SELECT pg_advisory_xact_lock(\(PostgresLayout.lockClass), 0)")
                try connection.execute(PostgresLayout.metadataTables)
                try connection.rows(
                    "INSERT INTO cloudseed.meta (key, value) VALUES ('format', $1), ('changeTag', '0') ON CONFLICT (key) DO NOTHING",
                    [PostgresLayout.formatVersion])
            }
        }
        var format = try connection.value("SELECT value FROM cloudseed.meta WHERE key = 'format'")
        if format == Self.jsonLocationFormat {
            try Self.upgradeJSONLocations(on: connection)
            format = try connection.value("SELECT value FROM cloudseed.meta WHERE key = 'format'")
        }
        guard format == PostgresLayout.formatVersion else {
            throw CloudSeedError(
                .storeFailure,
                "this store was written by another version of cloudseed (format \(format ?? "none")); use that version",
                at: SourcePosition(file: connection.location))
        }
    }

    package func schema(of scope: SchemaScope) throws -> Schema {
        Schema(fieldTypes: try typeLayouts(scope).mapValues { $0.fields.mapValues(\.type) })
    }

    /// Drops the cached layouts, which schema changes make stale.
    package func forgetLayouts() {
        layouts.removeAll()
        lastInsertTarget = nil
        readAhead.removeAll()
    }

    /// Inside a write, waits for every other run's hold on this container environment to end
    /// and holds it until this transaction ends, so that runs never interleave.
    package func lock(_ scope: SchemaScope) throws {
        guard isWriting, !lockedEnvironments.contains(scope) else { return }
        try connection.rows(
            "SELECT pg_advisory_xact_lock(\(PostgresLayout.lockClass), hashtext($1))",
            [scope.container + "\n" + scope.environment.rawValue])
        lockedEnvironments.insert(scope)
    }

    /// The schema holding a container environment's record tables, created on first use when `create` is set.
    package func environmentSchema(_ scope: SchemaScope, create: Bool) throws -> String? {
        let key = [scope.container, scope.environment.rawValue]
        if let name = try connection.value(
            "SELECT schema_name FROM cloudseed.environments WHERE container = $1 AND environment = $2", key)
        {
            return name
        }
        guard create else { return nil }
        let base = PostgresLayout.schemaName(container: scope.container, environment: scope.environment)
        var name = base
        var suffix = 1
        while try !connection.rows("SELECT 1 FROM pg_namespace WHERE nspname = $1", [name]).isEmpty {
            suffix += 1
            name = PostgresLayout.identifier(
                base.utf8.count > 58 ? String(base.prefix(58)) + "_\(suffix)" : base + "_\(suffix)")
        }
        try connection.execute("CREATE SCHEMA \(SQLIdentifier.quoted(name))")
        try connection.rows(
            "INSERT INTO cloudseed.environments (container, environment, schema_name) VALUES ($1, $2, $3)", key + [name]
        )
        return name
    }

    package func typeLayouts(_ scope: SchemaScope) throws -> [String: TypeLayout] {
        try lock(scope)
        if let cached = layouts[scope] { return cached }
        guard let schema = try environmentSchema(scope, create: false) else { return [:] }
        let key = [scope.container, scope.environment.rawValue]
        var fields: [String: [String: (type: FieldType, column: String)]] = [:]
        for row in try connection.rows(
            "SELECT record_type, field, field_type, column_name FROM cloudseed.fields WHERE container = $1 AND environment = $2",
            key)
        {
            guard let recordType = row[0], let field = row[1], let typeName = row[2], let column = row[3],
                let type = FieldType(name: typeName)
            else { continue }
            fields[recordType, default: [:]][field] = (type, column)
        }
        var result: [String: TypeLayout] = [:]
        for row in try connection.rows(
            "SELECT record_type, table_name FROM cloudseed.record_types WHERE container = $1 AND environment = $2", key)
        {
            guard let name = row[0], let table = row[1] else { continue }
            result[name] = TypeLayout(schema: schema, table: table, fields: fields[name] ?? [:])
        }
        layouts[scope] = result
        return result
    }

    package func write<T>(bulk: Bool, _ body: (any StoreTransaction) throws -> T) throws -> T {
        layouts.removeAll()
        isWriting = true
        defer {
            isWriting = false
            layouts.removeAll()
            zoneKeys.removeAll()
            lockedEnvironments.removeAll()
            _ = changeTags.take()
            pendingRows.removeAll()
            readAhead.removeAll()
            deferredKeys.removeAll()
            deferredZoneKeys.removeAll()
            columnDefaults.removeAll()
            lastInsertTarget = nil
        }
        return try connection.transaction {
            let result = try body(self)
            try buildDeferredNameIndexes()
            try flushPendingRows()
            try flushChangeTagCounter()
            return result
        }
    }

    /// Runs `body` in a transaction of its own when no write is open (cursors need one), after
    /// sending the open write's pending rows, so that reads see every earlier write.
    package func reading<T>(_ body: () throws -> T) throws -> T {
        if isWriting {
            try flushPendingRows()
            return try body()
        }
        if try connection.isInTransaction() { return try body() }
        return try connection.transaction(body)
    }

    /// The zone's row id, created on first use when `create` is set.
    package func zoneKey(_ scope: StoreScope, create: Bool) throws -> Int64? {
        try lock(scope.schemaScope)
        if let known = zoneKeys[scope] { return known }
        let arguments = Self.zoneArguments(scope)
        let select = """
            SELECT id FROM cloudseed.zones
            WHERE container = $1 AND environment = $2 AND database = $3 AND owner = $4 AND zone = $5
            """
        var key = try connection.value(select, arguments).flatMap { Int64($0) }
        if key == nil, create {
            // Numbered after the highest number, not by the column's sequence, which a run that
            // fails or is killed would leave advanced (sequences ignore rollbacks): the store is
            // then exactly as it was. Two runs cannot take one number: the lock (the one adding a
            // table's foreign key to the zones takes) holds until this run ends.
            try connection.execute("LOCK TABLE cloudseed.zones IN SHARE ROW EXCLUSIVE MODE")
            key = try connection.value(
                """
                INSERT INTO cloudseed.zones (id, container, environment, database, owner, zone)
                SELECT coalesce(max(id), 0) + 1, $1, $2, $3, $4, $5 FROM cloudseed.zones RETURNING id
                """,
                arguments
            ).flatMap { Int64($0) }
            // A zone made again is no longer deleted.
            if try connection.value("SELECT to_regclass('cloudseed.zone_deletions')::text") != nil {
                try connection.rows(
                    "DELETE FROM cloudseed.zone_deletions WHERE container = $1 AND environment = $2 AND database = $3 AND owner = $4 AND zone = $5",
                    arguments)
            }
        }
        if let key { zoneKeys[scope] = key }
        return key
    }

    package func assetSize(_ checksum: String) throws -> Int64 {
        if let known = assetSizes[checksum] { return known }
        guard
            let size = try connection.value("SELECT size FROM cloudseed.assets WHERE checksum = $1", [checksum])
                .flatMap({ Int64($0) })
        else { return 0 }
        assetSizes[checksum] = size
        return size
    }

    /// Builds a record from a row of ``TypeLayout/selectAll`` or ``TypeLayout/selectFollowing``.
    package func record(from row: [String?], type: String, layout: TypeLayout, zoneID: RecordZoneID) throws
        -> CloudRecord
    {
        var fields: [String: RecordValue] = [:]
        for (offset, name) in layout.sortedFieldNames.enumerated() {
            if let value = try PostgresValueCodec.decode(
                row[6 + offset], as: layout.fields[name]!.type, assetSizes: assetSize)
            {
                fields[name] = value
            }
        }
        let system = SystemFields(
            createdTimestamp: row[1].flatMap { Int64($0) } ?? 0, createdUserRecordName: row[2] ?? "",
            modifiedTimestamp: row[3].flatMap { Int64($0) } ?? 0, modifiedUserRecordName: row[4] ?? "",
            changeTag: row[5] ?? "")
        return CloudRecord(
            recordType: type, recordID: RecordID(recordName: row[0] ?? "", zoneID: zoneID), fields: fields,
            system: system)
    }

    package func forEachRecord(in scope: StoreScope, recordType: String?, _ body: (CloudRecord) throws -> Void) throws {
        try reading {
            guard let zone = try zoneKey(scope, create: false) else { return }
            let types = try typeLayouts(scope.schemaScope)
            for name in types.keys.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) })
            where recordType == nil || recordType == name {
                let layout = types[name]!
                try connection.forEachRow(layout.selectAll, [String(zone)]) { row in
                    try body(try record(from: row, type: name, layout: layout, zoneID: scope.zoneID))
                }
            }
        }
    }

    package func zones() throws -> [StoreScope] {
        try reading { try zoneRows().map(\.scope) }
    }

    /// Each zone's row id and scope, in the order of their names.
    private func zoneRows() throws -> [(id: Int64, scope: StoreScope)] {
        try connection.rows(
            "SELECT id, container, environment, database, owner, zone FROM cloudseed.zones ORDER BY container COLLATE \"C\", environment COLLATE \"C\", database COLLATE \"C\", owner COLLATE \"C\", zone COLLATE \"C\""
        ).compactMap { row in
            guard let id = row[0].flatMap({ Int64($0) }), let container = row[1], let environment = row[2],
                let database = row[3], let owner = row[4], let zone = row[5],
                let scope = StoreScope(
                    container: container, environment: environment, database: database, owner: owner, zone: zone)
            else { return nil }
            return (id, scope)
        }
    }

    package func inventory() throws -> StoreInventory {
        try reading {
            var zones: [StoreInventory.Zone] = []
            var schemas: [SchemaScope: Schema] = [:]
            for (id, scope) in try zoneRows() {
                var counts: [String: Int] = [:]
                for (name, layout) in try typeLayouts(scope.schemaScope) {
                    let count = try connection.value(
                        "SELECT count(*) FROM \(layout.qualifiedTable) WHERE \"___zone\" = $1", [String(id)])
                    counts[name] = count.flatMap { Int($0) } ?? 0
                }
                zones.append(
                    .init(
                        container: scope.container, environment: scope.environment, database: scope.database,
                        zoneID: scope.zoneID, recordCounts: counts))
            }
            for row in try connection.rows("SELECT DISTINCT container, environment FROM cloudseed.record_types") {
                guard let container = row[0], let name = row[1], let environment = ContainerEnvironment(rawValue: name)
                else { continue }
                let scope = SchemaScope(container: container, environment: environment)
                schemas[scope] = try schema(of: scope)
            }
            return StoreInventory(zones: zones, schemas: schemas)
        }
    }

    package func hasAssetContent(_ checksum: String) throws -> Bool {
        try connection.value(
            "SELECT 1 FROM cloudseed.assets WHERE checksum = $1 AND content IS NOT NULL", [checksum]) != nil
    }

    package func assetContent(_ checksum: String) throws -> Data? {
        try connection.value("SELECT content FROM cloudseed.assets WHERE checksum = $1", [checksum]).flatMap(
            PostgresValueCodec.bytes(hex:))
    }
}
