package import CloudSeedCore

/// A record type's table as a query reads it.
package protocol QueriedTable {
    /// The table's name.
    var table: String { get }
    /// Field name → (type, column).
    var fields: [String: (type: FieldType, column: String)] { get }
    /// Field names in byte order: the order of the field columns in ``selectAll``.
    var sortedFieldNames: [String] { get }
    /// Every record of a zone, by record name.
    var selectAll: String { get }
    /// The records of a zone (the first argument) whose names are in a JSON array of names (the second).
    var selectByNames: String { get }
}

/// A store that runs record queries as SQL: only the SQL's words, the rows' form and how a row
/// becomes a record differ from one store to another.
package protocol SQLQueries: StoreBackend {
    associatedtype Table: QueriedTable
    associatedtype Dialect: SQLQueryDialect
    associatedtype Row

    func typeLayouts(_ scope: SchemaScope) throws -> [String: Table]
    func zoneKey(_ scope: StoreScope, create: Bool) throws -> Int64?
    /// The dialect of a query of the zone whose key is `zone`, that zone its first argument.
    func queryDialect(zone: Int64) -> Dialect
    /// The rows `sql` selects with the arguments `dialect` bound.
    func rows(_ sql: String, _ dialect: Dialect) throws -> [Row]
    /// The rows `sql` selects with a zone's key and a JSON array of record names as its arguments.
    func rows(_ sql: String, zone: Int64, names: [String]) throws -> [Row]
    /// A statement that selects `offset` and each name of the JSON array of names (the second
    /// argument) that `table` holds in the zone (the first).
    func namesHeld(in table: Table, offset: Int) -> String
    /// The offset and name in a row of ``namesHeld(in:offset:)``.
    func offsetAndName(in row: Row) -> (Int, String)?
    /// The LOCATION in the row's column `column`, if it holds one.
    func location(in row: Row, column: Int) -> Location?
    func record(from row: Row, type: String, layout: Table, zoneID: RecordZoneID) throws -> CloudRecord
}

extension SQLQueries {
    /// The records of a zone that `checked` selects, in its order.
    package func records(selectedBy checked: CheckedQuery, in scope: StoreScope) throws -> [CloudRecord] {
        let query = checked.query
        guard let layout = try typeLayouts(scope.schemaScope)[query.recordType],
            let zone = try zoneKey(scope, create: false)
        else {
            return []
        }
        let readable = scope.database == .public ? try Permissions(store: self, scope: scope, user: query.user) : nil
        var dialect = queryDialect(zone: zone)
        let sql = try checked.sql(
            from: layout.selectAll, table: layout.table, fields: layout.fields, dialect: &dialect, readable: readable)
        let names = layout.sortedFieldNames
        return try checked.records(
            from: try rows(sql, dialect), readable: readable,
            location: { row, field in location(in: row, column: 6 + names.firstIndex(of: field)!) },
            record: { try record(from: $0, type: query.recordType, layout: layout, zoneID: scope.zoneID) })
    }
}

extension SQLQueries {
    /// The stored records of any type with one of `recordNames`: which types hold which names, in one
    /// statement, then the records of each type that holds some, by another. A request's names are
    /// read once, not once per type.
    package func storedRecords(named recordNames: [String], in scope: StoreScope) throws -> [CloudRecord] {
        let layouts = try typeLayouts(scope.schemaScope)
        guard !recordNames.isEmpty, !layouts.isEmpty, let zone = try zoneKey(scope, create: false) else { return [] }
        let types = layouts.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        let probe = types.enumerated().map { namesHeld(in: layouts[$1]!, offset: $0) }.joined(separator: " UNION ALL ")
        var held: [Int: [String]] = [:]
        for row in try rows(probe, zone: zone, names: Array(Set(recordNames))) {
            guard let (offset, name) = offsetAndName(in: row) else { continue }
            held[offset, default: []].append(name)
        }
        return try held.keys.sorted().flatMap { offset in
            let layout = layouts[types[offset]]!
            return try rows(layout.selectByNames, zone: zone, names: held[offset]!).map {
                try record(from: $0, type: types[offset], layout: layout, zoneID: scope.zoneID)
            }
        }
    }
}

extension SQLQueries {
    /// The names among `recordNames` that `layout`'s table holds in the zone whose key is `zone`, in
    /// one statement. The names are looked up in byte order, the order of the table's name index,
    /// so that one lookup finds the next nearby.
    package func storedNames(_ recordNames: [String], in layout: Table, zone: Int64) throws -> Set<String> {
        let sorted = recordNames.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        return Set(
            try rows(namesHeld(in: layout, offset: 0), zone: zone, names: sorted).compactMap {
                offsetAndName(in: $0)?.1
            })
    }
}
