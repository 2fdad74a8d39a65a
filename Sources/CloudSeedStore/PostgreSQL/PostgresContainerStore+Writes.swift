package import CloudSeedCore
import CloudSeedSchema
package import Foundation

/// The writes of a run: record types and fields just in time, saved rows, deletions, assets and change tags.
extension PostgresContainerStore {
    /// Registers a record type, creating its table unless an earlier definition left one.
    package func createRecordType(_ name: String, in scope: SchemaScope) throws {
        try lock(scope)
        try flushPendingRows()
        guard let schema = try environmentSchema(scope, create: true) else { return }
        let table = PostgresLayout.identifier(name)
        if try connection.value("SELECT to_regclass($1)::text", [PostgresLayout.qualified(schema, table)]) == nil {
            try connection.execute(PostgresLayout.createRecordTable(table, in: schema))
        }
        try connection.rows(
            "INSERT INTO cloudseed.record_types (container, environment, record_type, table_name) VALUES ($1, $2, $3, $4)",
            [scope.container, scope.environment.rawValue, name, table])
        forgetLayouts()
        try recordJustInTime(name, field: nil, in: scope)
    }

    /// Adds a field, reusing its column when an earlier definition left one of the same SQL type.
    package func addField(_ name: String, type: FieldType, to recordType: String, in scope: SchemaScope) throws {
        try flushPendingRows()
        guard let layout = try typeLayouts(scope)[recordType] else {
            throw CloudSeedError(
                .unknownRecordType,
                "record type \(recordType) does not exist in \(scope.container) \(scope.environment.rawValue)")
        }
        let sqlType = PostgresValueCodec.sqlType(for: type)
        let existing = try connection.rows(
            """
            SELECT attname, format_type(atttypid, atttypmod) FROM pg_attribute
            WHERE attrelid = to_regclass($1) AND attnum > 0 AND NOT attisdropped
            """, [layout.qualifiedTable])
        var column = PostgresLayout.identifier(name)
        if let match = existing.first(where: { $0[0] == column }), match[1] != sqlType {
            let typeName = sqlType.replacingOccurrences(of: " ", with: "_").replacingOccurrences(
                of: "[]", with: "_array")
            column = PostgresLayout.identifier("\(name)__\(typeName)")
        }
        if !existing.contains(where: { $0[0] == column }) {
            try connection.execute(
                "ALTER TABLE \(layout.qualifiedTable) ADD COLUMN \(SQLIdentifier.quoted(column)) \(PostgresValueCodec.columnType(for: type))"
            )
        }
        try connection.rows(
            "INSERT INTO cloudseed.fields (container, environment, record_type, field, field_type, column_name) VALUES ($1, $2, $3, $4, $5, $6)",
            [scope.container, scope.environment.rawValue, recordType, name, type.schemaName, column])
        forgetLayouts()
        try recordJustInTime(recordType, field: (name, type), in: scope)
    }

    /// A new change tag: the counter of `cloudseed.meta`, counted in memory during the transaction.
    package func nextChangeTag() throws -> String {
        try changeTags.next {
            guard
                let number = try connection.value("SELECT value FROM cloudseed.meta WHERE key = 'changeTag'").flatMap({
                    Int64($0)
                })
            else { throw connection.storeError("the change tag counter is missing") }
            return number
        }
    }

    /// Writes the change tags given so far to `cloudseed.meta`. The counter only rises: a concurrent
    /// run in another container environment may have raised it further.
    package func flushChangeTagCounter() throws {
        guard let counter = changeTags.take() else { return }
        try connection.rows(
            "UPDATE cloudseed.meta SET value = greatest(value::bigint, $1::bigint)::text WHERE key = 'changeTag'",
            [String(counter)])
    }

    /// The stored records of any type with one of `recordNames`; rows still buffered are sent first.
    package func records(named recordNames: [String], in scope: StoreScope) throws -> [CloudRecord] {
        if !deferredKeys.isEmpty { try buildDeferredNameIndexes() }
        try flushPendingRows()
        return try storedRecords(named: recordNames, in: scope)
    }

    package func record(_ recordName: String, ofType recordType: String, in scope: StoreScope) throws -> CloudRecord? {
        if !deferredKeys.isEmpty { try buildDeferredNameIndexes() }
        guard let layout = try typeLayouts(scope.schemaScope)[recordType], let zone = try zoneKey(scope, create: false)
        else { return nil }
        switch pendingRows.pending(recordName, zone: zone, table: layout.qualifiedTable) {
        case .saved(var pending)?:
            pending.recordID.zoneID = scope.zoneID
            return pending
        case .inserted?:
            try flushPendingRows()
        case nil:
            break
        }
        var row = readAhead.row(recordName, zone: zone, table: layout.qualifiedTable)
        if row == nil {
            let window = try connection.rows(
                layout.selectFollowing, [String(zone), recordName, String(readAhead.size)])
            readAhead.fill(window, zone: zone, table: layout.qualifiedTable)
            row = window.first { $0[0] == recordName }
        }
        guard let row else { return nil }
        return try record(from: row, type: recordType, layout: layout, zoneID: scope.zoneID)
    }

    package func save(_ record: CloudRecord, in scope: StoreScope) throws {
        guard let layout = try typeLayouts(scope.schemaScope)[record.recordType],
            let zone = try zoneKey(scope, create: true)
        else { throw CloudSeedError(.unknownRecordType, "record type \(record.recordType) is not in the schema") }
        let system = record.system
        var row = PostgresBinaryRow(
            fieldCount: RecordColumns.system.count + layout.sortedFieldNames.count, reusing: &rowMemory)
        defer { row.giveBack(to: &rowMemory) }
        row.appendInt64(zone)
        try row.appendText(record.recordID.recordName)
        try row.appendSystemColumns(system)
        try row.appendText(system.changeTag)
        for name in layout.sortedFieldNames { try row.appendValue(record.fields[name]) }
        readAhead.forget(record.recordID.recordName)
        if pendingRows.mustSend(layout.qualifiedTable, before: nil) { try flushPendingRows() }
        insertedRowsMatchTheirBatch = false
        if pendingRows.add(record, encoded: row.bytes, zone: zone, layout: layout) { try flushPendingRows() }
    }

    package func delete(_ recordName: String, ofType recordType: String, in scope: StoreScope) throws -> Bool {
        if !deferredKeys.isEmpty { try buildDeferredNameIndexes() }
        guard let layout = try typeLayouts(scope.schemaScope)[recordType], let zone = try zoneKey(scope, create: false)
        else { return false }
        readAhead.forget(recordName)
        let wasPending = pendingRows.remove(recordName, zone: zone, table: layout.qualifiedTable)
        let sql = "DELETE FROM \(layout.qualifiedTable) WHERE \"___zone\" = $1 AND \"___recordID\" = $2 RETURNING 1"
        guard try !connection.rows(sql, [String(zone), recordName]).isEmpty || wasPending else { return false }
        try noteDeletion(of: recordName, ofType: recordType, zone: zone)
        return true
    }

    package func saveAsset(_ asset: AssetReference, content: Data?) throws {
        try connection.rows(
            "INSERT INTO cloudseed.assets (checksum, size, content) VALUES ($1, $2, $3) ON CONFLICT (checksum) DO UPDATE SET content = coalesce(cloudseed.assets.content, excluded.content)",
            [asset.fileChecksum, String(asset.size), try content.map { try PostgresValueCodec.encode(.bytes($0)) }])
    }
}
