package import CloudSeedCore
package import CloudSeedSchema
package import Foundation

/// The embedded container store: one SQLite file a person can open with `sqlite3`.
///
/// Each record type is a table named after it with a column per field; metadata tables hold the
/// zones, the schema of each container environment and the assets (see `docs/STORE.md`).
package final class SQLiteContainerStore: StoreBackend {
    package private(set) var database: SQLiteDatabase
    /// The file being created, until its first write (or the store's end) puts it in place.
    private var creation: StoreCreation?
    /// Whether a write failed before any wrote the new file: it is then dropped, not put in place.
    private var creationFailed = false
    /// The schema definitions parsed last, kept while their text stays the same.
    package let parsedSchemas = ParsedSchemas()
    /// Tables and columns of each record type, by container environment; read again once another
    /// connection has written the file (``forgetCachesIfOthersWrote()``).
    private var layouts: [SchemaScope: [String: TypeLayout]] = [:] {
        didSet { forgetTargets() }
    }
    /// `PRAGMA data_version` when ``layouts`` and ``zoneKeys`` were last found current.
    private var cachedDataVersion: Int64?
    /// Where the last record saved went: a run saves its records a type at a time into one zone,
    /// so the layout, zone and insert statement are looked up once, not for every record.
    private var lastSaveTarget: SaveTarget?
    /// What the last record compared with its stored row was compared by (``holdsUnchanged(_:fieldNames:in:)``).
    package var lastComparison: Comparison?
    /// The buffer ``insertNew(_:fieldNames:system:in:)`` encodes a record's values in to bind them
    /// (``SQLiteEncodedFields``), where they were not encoded where they were typed.
    /// Not checked for overlapping access at run time: the store is used by one thread at a time,
    /// and the check cost as much as binding the value, for every value of every record.
    @exclusivity(unchecked) private var bindingScratch: [UInt8] = []
    /// The system columns ``insertNew(_:fieldNames:system:in:)`` bound last, other than the record
    /// name and change tag: a run's new records share them, so they stay bound from one to the next.
    private var boundSystemColumns: BoundSystemColumns?

    /// The statement and zone of the last insert, and the system fields it bound; a class, so
    /// that comparing them with the next record's takes no copy of their texts.
    private final class BoundSystemColumns {
        let statement: ObjectIdentifier
        let zone: Int64
        let system: SystemFields

        init(statement: ObjectIdentifier, zone: Int64, system: SystemFields) {
            self.statement = statement
            self.zone = zone
            self.system = system
        }

        func hold(for target: SaveTarget, _ system: SystemFields) -> Bool {
            statement == ObjectIdentifier(target.insert) && zone == target.zone
                && self.system.sharesColumns(with: system)
        }
    }
    private static let recordNameParameter = Int32(RecordColumns.system.firstIndex(of: "___recordID")! + 1)
    private static let changeTagParameter = Int32(RecordColumns.system.firstIndex(of: "___etag")! + 1)
    /// Tables whose name index waits for their rows, in this transaction (``deferNameIndex(ofType:in:)``).
    package var deferredNameIndexes: Set<String> = []
    /// The statements that make the field indexes waiting with them, by table.
    package var deferredFieldIndexes: [String: [String]] = [:]
    /// The CSV export reads a table with fewer rows (by its last rowid) on one connection
    /// (``forEachRowByName(_:of:zone:_:)``): below ~400,000 rows the second connection's setup and
    /// its own faults on the mapped file cost more than it saves.
    package var twoReadersFrom: Int64 = 400_000

    /// A record type's table, its field columns, and the SQL that reads and writes its rows.
    package struct TypeLayout {
        package let table: String
        /// Field name → (type, column).
        package let fields: [String: (type: FieldType, column: String)]
        /// Field names in byte order: the order of the field columns in ``selectAll`` and ``insert``.
        package let sortedFieldNames: [String]
        /// Every record of a zone, by record name.
        package let selectAll: String
        /// One record of a zone by name.
        package let selectByName: String
        /// The records of a zone whose names are in a JSON array of names.
        package let selectByNames: String
        /// The records of a zone saved after a change tag (`?3`, of length `?2`), in change tag
        /// order, at most `?4`: a change tag is a counter in base 36, so its length orders first.
        package let selectChangedAfter: String
        /// The record name and the fields (no other system columns) of every record of a zone, by record name.
        package let selectNamesAndFields: String
        /// Inserts or replaces a row: the system columns, then the fields.
        package let insert: String
        /// ``insert``'s row, or where the name index has its name already, that row's columns
        /// changed in place: it keeps its row id and index entry, where a replacement deletes the
        /// row and inserts it again at the table's end, with more pages to write.
        package let upsert: String

        package init(table: String, fields: [String: (type: FieldType, column: String)]) {
            self.table = table
            self.fields = fields
            sortedFieldNames = fields.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
            let quotedTable = SQLIdentifier.quoted(table)
            let read = RecordColumns.system.dropFirst() + sortedFieldNames.map { fields[$0]!.column }
            let select =
                "SELECT \(read.map(SQLIdentifier.quoted).joined(separator: ", ")) FROM \(quotedTable) WHERE \"___zone\" = ?"
            selectAll = select + " ORDER BY \"___recordID\""
            selectByName = select + " AND \"___recordID\" = ?"
            selectByNames = select + " AND \"___recordID\" IN (SELECT value FROM json_each(?))"
            // The changes of the same length after ?3, then the longer ones: each a range of the
            // change index (SQLiteLayout.createChangeIndex).
            func changes(_ condition: String, by order: String) -> String {
                "SELECT * FROM (SELECT \(read.map(SQLIdentifier.quoted).joined(separator: ", ")), length(\"___etag\") AS \"___length\" FROM \(quotedTable) WHERE \"___zone\" = ?1 AND \(condition) ORDER BY \(order) LIMIT ?4)"
            }
            selectChangedAfter =
                changes("length(\"___etag\") = ?2 AND \"___etag\" > ?3", by: "\"___etag\"") + " UNION ALL "
                + changes("length(\"___etag\") > ?2", by: "length(\"___etag\"), \"___etag\"")
                + " ORDER BY \"___length\", \"___etag\" LIMIT ?4"
            let namesAndFields = ["___recordID"] + sortedFieldNames.map { fields[$0]!.column }
            selectNamesAndFields =
                "SELECT \(namesAndFields.map(SQLIdentifier.quoted).joined(separator: ", ")) FROM \(quotedTable) WHERE \"___zone\" = ? ORDER BY \"___recordID\""
            let written = RecordColumns.system + sortedFieldNames.map { fields[$0]!.column }
            let values =
                "(\(written.map(SQLIdentifier.quoted).joined(separator: ", "))) VALUES ("
                + Array(repeating: "?", count: written.count).joined(separator: ", ") + ")"
            insert = "INSERT OR REPLACE INTO \(quotedTable) " + values
            let changed = written.filter { $0 != "___zone" && $0 != "___recordID" }.map(SQLIdentifier.quoted)
            upsert =
                "INSERT INTO \(quotedTable) " + values + " ON CONFLICT (\"___recordID\", \"___zone\") DO UPDATE SET "
                + changed.map { "\($0) = excluded.\($0)" }.joined(separator: ", ")
        }
    }

    /// SQLite's page cache, in its terms (negative: KiB): 64 MB, and 8 MB while rows go into a new
    /// table without its name index and while that index is sorted.
    package static let cacheSize = -65536
    /// The page size of a store file cloudseed creates, in bytes.
    package static let pageSize = 16384
    package static let indexingCacheSize = -8192

    /// Zone row ids by scope, kept as ``layouts`` are.
    package var zoneKeys: [StoreScope: Int64] = [:] {
        didSet { forgetTargets() }
    }

    private func forgetTargets() {
        lastSaveTarget = nil
        lastComparison = nil
    }
    /// The last change tag given in this transaction, written to `_cloudseed_meta` when it commits.
    private var changeTags = ChangeTagCounter()
    /// The last system timestamp written, formatted: a run stamps every record with the same time.
    private var lastTimestamp: (milliseconds: Int64, text: String) = (0, Timestamp.format(0)!)

    /// Opens the store at `path`, creating it if there is no file. A SQLite file that is not a
    /// cloudseed store is refused, not modified.
    package init(path: String) throws {
        creation = try StoreCreation.begin(path)
        let existed = creation == nil && FileManager.default.fileExists(atPath: path)
        do {
            database = try SQLiteDatabase(path: creation?.sidePath ?? path)
        } catch {
            creation?.abandon()
            throw error
        }
        if existed {
            let tables = try database.rows("SELECT name FROM sqlite_master WHERE type = 'table'")
            guard tables.isEmpty || tables.contains([.text("_cloudseed_meta")]) else {
                throw CloudSeedError(
                    .storeFailure,
                    "this SQLite file is not a cloudseed store, so it was left untouched; name a new file with \(option: .store)",
                    at: SourcePosition(file: path))
            }
        }
        do {
            // A file being created keeps SQLite's rollback journal until it is put in place
            // (``StoreCreation``), and gets pages of 16 KiB: a table's rows take fewer pages, each
            // written once, so writes are faster than with pages of 4 KiB.
            if creation == nil {
                database.returnToWriteAheadLog()
                try database.execute(Self.connectionSettings)
            } else {
                try database.execute("PRAGMA page_size = \(Self.pageSize); " + Self.connectionSettings)
            }
            try database.transaction {
                try database.execute(SQLiteLayout.metadataTables)
                try database.rows(
                    "INSERT OR IGNORE INTO _cloudseed_meta (key, value) VALUES ('format', ?), ('changeTag', '0')",
                    [.text(SQLiteLayout.formatVersion)])
            }
        } catch {
            creationFailed = true  // a file half made is dropped, not put in place
            throw error
        }
        let format = try database.rows("SELECT value FROM _cloudseed_meta WHERE key = 'format'")
        guard format == [[.text(SQLiteLayout.formatVersion)]] else {
            throw CloudSeedError(
                .storeFailure,
                "this store was written by another version of cloudseed (format \(format)); use that version",
                at: SourcePosition(file: path))
        }
    }

    deinit {
        guard let creation else { return }
        if creationFailed {
            database.close()
            creation.abandon()
        } else {
            try? publishCreatedFile()
        }
    }

    private static let connectionSettings = "PRAGMA recursive_triggers = ON; PRAGMA cache_size = \(cacheSize)"

    /// Puts the file being created in place, in WAL mode, and goes on with a connection to it there.
    private func publishCreatedFile() throws {
        guard let creation else { return }
        self.creation = nil
        forgetTargets()
        do {
            try database.execute("PRAGMA journal_mode = WAL")
            database.close()
            try creation.publish()
        } catch {
            database.close()
            creation.abandon()
            throw error
        }
        database = try SQLiteDatabase(path: creation.path)
        database.returnToWriteAheadLog()
        try database.execute(Self.connectionSettings)
    }

    /// A store that lives in memory only, for commands that need no file.
    package static func inMemory() throws -> SQLiteContainerStore {
        try SQLiteContainerStore(path: ":memory:")
    }

    package func schema(of scope: SchemaScope) throws -> Schema {
        Schema(fieldTypes: try typeLayouts(scope).mapValues { $0.fields.mapValues(\.type) })
    }

    /// Drops the cached layouts, which schema changes make stale.
    package func forgetLayouts() {
        layouts.removeAll()
    }

    /// Drops the layouts and zone keys where another connection has committed since they were
    /// read: `PRAGMA data_version` changes then, and only then. Called with the write lock held.
    private func forgetCachesIfOthersWrote() throws {
        guard case .integer(let version)? = try database.rows("PRAGMA data_version").first?.first else {
            return forgetCaches()
        }
        if version != cachedDataVersion { forgetCaches() }
        cachedDataVersion = version
    }

    /// Drops the layouts and zone keys.
    package func forgetCaches() {
        forgetLayouts()
        zoneKeys.removeAll()
    }

    package func typeLayouts(_ scope: SchemaScope) throws -> [String: TypeLayout] {
        if let cached = layouts[scope] { return cached }
        var tables: [String: String] = [:]
        var fields: [String: [String: (type: FieldType, column: String)]] = [:]
        let key: [SQLiteValue] = [.text(scope.container), .text(scope.environment.rawValue)]
        for row in try database.rows(
            "SELECT record_type, table_name FROM _cloudseed_record_types WHERE container = ? AND environment = ?", key)
        {
            guard case .text(let name) = row[0], case .text(let table) = row[1] else { continue }
            tables[name] = table
        }
        for row in try database.rows(
            "SELECT record_type, field, field_type, column_name FROM _cloudseed_fields WHERE container = ? AND environment = ?",
            key)
        {
            guard case .text(let recordType) = row[0], case .text(let field) = row[1],
                case .text(let typeName) = row[2],
                case .text(let column) = row[3], let type = FieldType(name: typeName)
            else { continue }
            fields[recordType, default: [:]][field] = (type, column)
        }
        let result = tables.reduce(into: [String: TypeLayout]()) { result, entry in
            result[entry.key] = TypeLayout(table: entry.value, fields: fields[entry.key] ?? [:])
        }
        layouts[scope] = result
        return result
    }

    /// A bulk write into a store that no other connection has open goes through a rollback
    /// journal, as a new store's first one does (``StoreCreation``): the rows it adds go to disk
    /// once, not to the write-ahead log and again when the log is copied back. Any other write,
    /// and one that another connection reads beside, goes through the log.
    package func write<T>(bulk: Bool, _ body: (any StoreTransaction) throws -> T) throws -> T {
        let journaled = bulk && creation == nil && database.leaveWriteAheadLog()
        defer {
            if journaled { database.returnToWriteAheadLog() }
            // A save target may hold a transaction's own choices, such as a deferred name index.
            forgetTargets()
            _ = changeTags.take()
            if !deferredNameIndexes.isEmpty { try? database.execute("PRAGMA cache_size = \(Self.cacheSize)") }
            deferredNameIndexes.removeAll()
            deferredFieldIndexes.removeAll()
        }
        let result: T
        do {
            result = try database.transaction(exclusive: journaled) {
                try forgetCachesIfOthersWrote()
                let result = try body(self)
                try buildDeferredNameIndexes()
                try flushChangeTagCounter()
                return result
            }
        } catch {
            // What the transaction cached of its own changes is undone with them.
            forgetCaches()
            if creation != nil { creationFailed = true }
            throw error
        }
        try publishCreatedFile()
        return result
    }

    /// The zone's row id, created on first use when `create` is set.
    package func zoneKey(_ scope: StoreScope, create: Bool) throws -> Int64? {
        if let known = zoneKeys[scope] { return known }
        let key = try findZoneKey(scope, create: create)
        zoneKeys[scope] = key
        return key
    }

    private func findZoneKey(_ scope: StoreScope, create: Bool) throws -> Int64? {
        let arguments = Self.zoneArguments(scope)
        let select = """
            SELECT id FROM _cloudseed_zones
            WHERE container = ? AND environment = ? AND database = ? AND owner = ? AND zone = ?
            """
        if case .integer(let id)? = try database.rows(select, arguments).first?.first { return id }
        guard create else { return nil }
        try database.rows(
            "INSERT INTO _cloudseed_zones (container, environment, database, owner, zone) VALUES (?, ?, ?, ?, ?)",
            arguments)
        // A zone made again is no longer deleted.
        try database.rows(
            "DELETE FROM _cloudseed_zone_deletions WHERE container = ? AND environment = ? AND database = ? AND owner = ? AND zone = ?",
            arguments)
        if case .integer(let id)? = try database.rows(select, arguments).first?.first { return id }
        return nil
    }

    package func assetSize(_ checksum: String) throws -> Int64 {
        if case .integer(let size)? = try database.rows(
            "SELECT size FROM _cloudseed_assets WHERE checksum = ?", [.text(checksum)]
        ).first?.first {
            return size
        }
        return 0
    }

    /// Builds a record from a row of ``TypeLayout/selectAll`` or ``TypeLayout/selectByName``.
    package func record(from row: [SQLiteValue], type: String, layout: TypeLayout, zoneID: RecordZoneID) throws
        -> CloudRecord
    {
        func text(_ index: Int) -> String {
            if case .text(let value) = row[index] { return value }
            return ""
        }
        var fields: [String: RecordValue] = [:]
        fields.reserveCapacity(layout.sortedFieldNames.count)
        for (offset, name) in layout.sortedFieldNames.enumerated() {
            if let value = try SQLiteValueCodec.decode(
                row[6 + offset], as: layout.fields[name]!.type, assetSizes: assetSize)
            {
                fields[name] = value
            }
        }
        let system = SystemFields(
            createdTimestamp: Timestamp.parse(text(1)) ?? 0, createdUserRecordName: text(2),
            modifiedTimestamp: Timestamp.parse(text(3)) ?? 0, modifiedUserRecordName: text(4), changeTag: text(5))
        return CloudRecord(
            recordType: type, recordID: RecordID(recordName: text(0), zoneID: zoneID), fields: fields, system: system)
    }

    package func forEachRecord(in scope: StoreScope, recordType: String?, _ body: (CloudRecord) throws -> Void) throws {
        try database.withMappedReads {
            guard let zone = try zoneKey(scope, create: false) else { return }
            let types = try typeLayouts(scope.schemaScope)
            for name in types.keys.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) })
            where recordType == nil || recordType == name {
                let layout = types[name]!
                try database.forEachRow(layout.selectAll, [.integer(zone)]) { row in
                    try body(try record(from: row, type: name, layout: layout, zoneID: scope.zoneID))
                }
            }
        }
    }

    package func inventory() throws -> StoreInventory {
        var zones: [StoreInventory.Zone] = []
        var schemas: [SchemaScope: Schema] = [:]
        for (id, scope) in try zoneRows() {
            var counts: [String: Int] = [:]
            for (name, layout) in try typeLayouts(scope.schemaScope) {
                if case .integer(let count)? = try database.rows(
                    "SELECT count(*) FROM \(SQLIdentifier.quoted(layout.table)) WHERE \"___zone\" = ?", [.integer(id)]
                ).first?.first {
                    counts[name] = Int(count)
                }
            }
            zones.append(
                .init(
                    container: scope.container, environment: scope.environment, database: scope.database,
                    zoneID: scope.zoneID, recordCounts: counts))
        }
        for row in try database.rows("SELECT DISTINCT container, environment FROM _cloudseed_record_types") {
            guard case .text(let container) = row[0], case .text(let name) = row[1],
                let environment = ContainerEnvironment(rawValue: name)
            else { continue }
            let scope = SchemaScope(container: container, environment: environment)
            schemas[scope] = try schema(of: scope)
        }
        return StoreInventory(zones: zones, schemas: schemas)
    }

    package func zones() throws -> [StoreScope] {
        try zoneRows().map(\.scope)
    }

    /// Each zone's row id and scope, in the order of their names.
    private func zoneRows() throws -> [(id: Int64, scope: StoreScope)] {
        try database.rows(
            "SELECT id, container, environment, database, owner, zone FROM _cloudseed_zones ORDER BY container, environment, database, owner, zone"
        ).compactMap { row in
            guard case .integer(let id) = row[0], case .text(let container) = row[1],
                case .text(let environment) = row[2], case .text(let database) = row[3],
                case .text(let owner) = row[4], case .text(let zone) = row[5],
                let scope = StoreScope(
                    container: container, environment: environment, database: database, owner: owner, zone: zone)
            else { return nil }
            return (id, scope)
        }
    }

    /// Registers a record type, creating its table if no container environment has made it yet.
    package func createRecordType(_ name: String, in scope: SchemaScope) throws {
        let table = SQLiteLayout.tableName(for: name)
        let exists = try database.rows("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", [.text(table)])
        if exists.isEmpty { try database.execute(SQLiteLayout.createRecordTable(table)) }
        try database.rows(
            "INSERT INTO _cloudseed_record_types (container, environment, record_type, table_name) VALUES (?, ?, ?, ?)",
            [.text(scope.container), .text(scope.environment.rawValue), .text(name), .text(table)])
        layouts[scope] = nil
        try recordJustInTime(name, field: nil, in: scope)
    }

    /// Adds a field, reusing its column when another environment made it with the same SQL type.
    package func addField(_ name: String, type: FieldType, to recordType: String, in scope: SchemaScope) throws {
        guard let layout = try typeLayouts(scope)[recordType] else {
            throw CloudSeedError(
                .unknownRecordType,
                "record type \(recordType) does not exist in \(scope.container) \(scope.environment.rawValue)")
        }
        let sqlType = SQLiteValueCodec.columnType(for: type)
        let existing = try database.rows("SELECT name, type FROM pragma_table_info(?)", [.text(layout.table)])
        var column = name
        if let match = existing.first(where: { $0[0] == .text(name) }), match[1] != .text(sqlType) {
            column = "\(name)__\(sqlType)"
        }
        if !existing.contains(where: { $0[0] == .text(column) }) {
            try database.execute(
                "ALTER TABLE \(SQLIdentifier.quoted(layout.table)) ADD COLUMN \(SQLIdentifier.quoted(column)) \(sqlType)"
            )
            database.forgetStatements()
        }
        try database.rows(
            "INSERT INTO _cloudseed_fields (container, environment, record_type, field, field_type, column_name) VALUES (?, ?, ?, ?, ?, ?)",
            [
                .text(scope.container), .text(scope.environment.rawValue), .text(recordType), .text(name),
                .text(type.schemaName), .text(column),
            ])
        layouts[scope] = nil
        try recordJustInTime(recordType, field: (name, type), in: scope)
    }

    /// A new change tag: the counter of `_cloudseed_meta`, counted in memory during the transaction.
    package func nextChangeTag() throws -> String {
        try changeTags.next {
            guard
                case .text(let value)? = try database.rows("SELECT value FROM _cloudseed_meta WHERE key = 'changeTag'")
                    .first?.first,
                let number = Int64(value)
            else { throw database.storeError("the change tag counter is missing") }
            return number
        }
    }

    /// Writes the change tags given so far to `_cloudseed_meta`.
    package func flushChangeTagCounter() throws {
        guard let counter = changeTags.take() else { return }
        try database.rows("UPDATE _cloudseed_meta SET value = ? WHERE key = 'changeTag'", [.text(String(counter))])
    }

    package func record(_ recordName: String, ofType recordType: String, in scope: StoreScope) throws -> CloudRecord? {
        if !deferredNameIndexes.isEmpty { try buildDeferredNameIndexes() }
        guard let layout = try typeLayouts(scope.schemaScope)[recordType], let zone = try zoneKey(scope, create: false)
        else { return nil }
        guard let row = try database.rows(layout.selectByName, [.integer(zone), .text(recordName)]).first
        else { return nil }
        return try record(from: row, type: recordType, layout: layout, zoneID: scope.zoneID)
    }

    /// The stored records of any type with one of `recordNames`, each type's names found by a join
    /// with its name index.
    package func records(named recordNames: [String], in scope: StoreScope) throws -> [CloudRecord] {
        if !deferredNameIndexes.isEmpty { try buildDeferredNameIndexes() }
        return try storedRecords(named: recordNames, in: scope)
    }

    package func save(_ record: CloudRecord, in scope: StoreScope) throws {
        let target = try saveTarget(record.recordType, in: scope)
        var values = systemValues(record.recordID.recordName, system: record.system, target: target)
        for name in target.fieldNames.names { values.append(record.fields[name].map(SQLiteValueCodec.encode) ?? .null) }
        boundSystemColumns = nil
        try target.save.run(values)
    }

    /// Inserts a record of a type the run created, binding its values as they come.
    package func insertNew(_ record: TypedRecord, fieldNames: [String], system: SystemFields, in scope: StoreScope)
        throws
    {
        let target = try saveTarget(record.recordType, in: scope)
        // Every field is bound anew, an unset one to NULL. Of the system columns, those the run's
        // records share stay bound while they are the same: only the name and change tag change
        // from one to the next.
        target.insert.resetKeepingBindings()
        if boundSystemColumns?.hold(for: target, system) == true {
            try target.insert.bindText(record.recordName, at: Self.recordNameParameter)
            try target.insert.bindText(system.changeTag, at: Self.changeTagParameter)
        } else {
            boundSystemColumns = nil
            for (offset, value) in systemValues(record.recordName, system: system, target: target).enumerated() {
                try target.insert.bind(value, at: Int32(offset + 1))
            }
            boundSystemColumns = BoundSystemColumns(
                statement: ObjectIdentifier(target.insert), zone: target.zone, system: system)
        }
        let firstField = Int32(RecordColumns.system.count + 1)
        if let encoded = record.encodedValues {
            try bindEncoded(encoded, fieldNames: fieldNames, from: firstField, to: target)
        } else {
            // Encoded here, into a buffer kept from record to record, and bound as those encoded
            // where they were typed are.
            bindingScratch.removeAll(keepingCapacity: true)
            record.values.withUnsafeBufferPointer { SQLiteEncodedFields.append($0, to: &bindingScratch) }
            try bindEncoded(bindingScratch, fieldNames: fieldNames, from: firstField, to: target)
        }
        try target.insert.runBound()
    }

    /// Binds encoded values (``SQLiteEncodedFields``), in the order of `fieldNames`; the table's
    /// other fields, where it has more, to NULL.
    private func bindEncoded(_ encoded: [UInt8], fieldNames: [String], from firstField: Int32, to target: SaveTarget)
        throws
    {
        try encoded.withUnsafeBufferPointer { encoded in
            if target.fieldNames.matches(fieldNames) {
                return try SQLiteEncodedFields.bind(encoded, to: target.insert) { firstField + Int32($0) }
            }
            let columns = Dictionary(uniqueKeysWithValues: target.fieldNames.names.enumerated().map { ($1, $0) })
            for offset in target.fieldNames.names.indices {
                try target.insert.bind(.null, at: firstField + Int32(offset))
            }
            try SQLiteEncodedFields.bind(encoded, to: target.insert) { place in
                columns[fieldNames[place]].map { firstField + Int32($0) }
            }
        }
    }

    /// Encodes the values of the records of `recordType` where they are typed, as
    /// ``insertNew(_:fieldNames:system:in:)`` binds them (``SQLiteEncodedFields``).
    package func valueEncoder(for recordType: String, fieldNames: [String], in scope: StoreScope) throws
        -> StoredValueEncoder?
    {
        StoredValueEncoder { values, texts in SQLiteEncodedFields.encoded(values, texts: texts) }
    }

    /// The system columns of a row to insert, with room for its field columns.
    private func systemValues(_ recordName: String, system: SystemFields, target: SaveTarget) -> [SQLiteValue] {
        var values: [SQLiteValue] = [
            .integer(target.zone), .text(recordName),
            .text(formatted(system.createdTimestamp)), .text(system.createdUserRecordName),
            .text(formatted(system.modifiedTimestamp)), .text(system.modifiedUserRecordName),
            .text(system.changeTag),
        ]
        values.reserveCapacity(values.count + target.fieldNames.names.count)
        return values
    }

    /// The table layout, zone and prepared insert a record of `recordType` in `scope` is saved with;
    /// a class, so that each record's save takes it without copying what it holds.
    private final class SaveTarget {
        let scope: StoreScope
        let recordType: String
        let zone: Int64
        var fieldNames: FieldNameList
        let insert: SQLiteStatement
        /// Saves a whole record (``TypeLayout/upsert``, or ``insert`` where the name index is deferred).
        let save: SQLiteStatement
        let statementGeneration: Int

        init(
            scope: StoreScope, recordType: String, zone: Int64, fieldNames: [String], insert: SQLiteStatement,
            save: SQLiteStatement,
            statementGeneration: Int
        ) {
            self.scope = scope
            self.recordType = recordType
            self.zone = zone
            self.fieldNames = FieldNameList(fieldNames)
            self.insert = insert
            self.save = save
            self.statementGeneration = statementGeneration
        }
    }

    private func saveTarget(_ recordType: String, in scope: StoreScope) throws -> SaveTarget {
        if let last = lastSaveTarget, last.recordType == recordType, last.scope == scope,
            last.statementGeneration == database.statementGeneration
        {
            return last
        }
        guard let layout = try typeLayouts(scope.schemaScope)[recordType], let zone = try zoneKey(scope, create: true)
        else { throw CloudSeedError(.unknownRecordType, "record type \(recordType) is not in the schema") }
        let insert = try database.statement(layout.insert)
        // A table whose name index is still to be built has no index to meet a name in (nor, where
        // SQLite refuses the statement, a table some other tool made without it).
        let save =
            deferredNameIndexes.contains(layout.table) ? insert : (try? database.statement(layout.upsert)) ?? insert
        let target = SaveTarget(
            scope: scope, recordType: recordType, zone: zone, fieldNames: layout.sortedFieldNames, insert: insert,
            save: save,
            statementGeneration: database.statementGeneration)
        lastSaveTarget = target
        boundSystemColumns = nil
        return target
    }

    /// A system timestamp as stored.
    private func formatted(_ milliseconds: Int64) -> String {
        if milliseconds != lastTimestamp.milliseconds {
            lastTimestamp = (milliseconds, Timestamp.format(milliseconds) ?? "")
        }
        return lastTimestamp.text
    }

    package func delete(_ recordName: String, ofType recordType: String, in scope: StoreScope) throws -> Bool {
        if !deferredNameIndexes.isEmpty { try buildDeferredNameIndexes() }
        guard let layout = try typeLayouts(scope.schemaScope)[recordType], let zone = try zoneKey(scope, create: false)
        else { return false }
        let sql =
            "DELETE FROM \(SQLIdentifier.quoted(layout.table)) WHERE \"___zone\" = ? AND \"___recordID\" = ? RETURNING 1"
        guard try !database.rows(sql, [.integer(zone), .text(recordName)]).isEmpty else { return false }
        try noteDeletion(of: recordName, ofType: recordType, zone: zone)
        return true
    }

    package func assetContent(_ checksum: String) throws -> Data? {
        if case .blob(let data)? = try database.rows(
            "SELECT content FROM _cloudseed_assets WHERE checksum = ?", [.text(checksum)]
        ).first?.first {
            return data
        }
        return nil
    }

    package func hasAssetContent(_ checksum: String) throws -> Bool {
        try database.rows(
            "SELECT 1 FROM _cloudseed_assets WHERE checksum = ? AND content IS NOT NULL", [.text(checksum)]
        ).isEmpty == false
    }

    package func saveAsset(_ asset: AssetReference, content: Data?) throws {
        try database.rows(
            "INSERT INTO _cloudseed_assets (checksum, size, content) VALUES (?, ?, ?) ON CONFLICT (checksum) DO UPDATE SET content = coalesce(content, excluded.content)",
            [.text(asset.fileChecksum), .integer(asset.size), content.map { .blob($0) } ?? .null])
    }
}
