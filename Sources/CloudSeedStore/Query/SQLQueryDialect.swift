package import CloudSeedCore

/// What a store's SQL says its own way in a record query: the placeholders its arguments take,
/// each comparator's clause, full-text search and where NULLs sort. ``CheckedQuery/sql(from:fields:dialect:)``
/// builds the rest of the statement, the same for every store.
package protocol SQLQueryDialect {
    /// The placeholder for `text` as the next argument.
    mutating func bind(_ text: String) -> String
    /// The clause that `filter` (not NEAR, which is applied to the rows) makes of `column`, its
    /// arguments bound.
    mutating func clause(_ filter: CheckedFilter, column: String) throws -> String
    /// The clause that finds records whose searchable text holds `words`: all of them, or with
    /// `anyWord` any one.
    mutating func searchClause(_ search: String, anyWord: Bool, table: String) -> String
    /// How a column sorts, ascending or not, with NULL before every value ascending and after every
    /// value descending, as CloudKit sorts a missing value.
    func ordering(_ column: String, ascending: Bool) -> String
}

extension CheckedQuery {
    /// The statement that selects the query's records from the rows `select` reads (a zone's,
    /// ordered by record name), on the indexed columns of `fields`; values are always arguments of `dialect`.
    package func sql(
        from select: String, table: String, fields: [String: (type: FieldType, column: String)],
        dialect: inout some SQLQueryDialect, readable: Permissions?
    ) throws -> String {
        var sql = String(select[..<select.range(of: " ORDER BY")!.lowerBound])
        for checked in filters where checked.filter.comparator != .near {
            let column = try Self.column(of: checked.filter.field, in: fields)
            let clause = try dialect.clause(checked, column: column)
            sql += checked.filter.negated ? " AND \(column) IS NOT NULL AND NOT (\(clause))" : " AND \(clause)"
        }
        if let search = query.search {
            sql += " AND " + dialect.searchClause(search, anyWord: query.searchesAnyWord, table: table)
        }
        if let after = query.after { sql += " AND \"___recordID\" > \(dialect.bind(after))" }
        let order = try query.sortedInSQL.map {
            dialect.ordering(try Self.column(of: $0.field, in: fields), ascending: $0.ascending)
        }
        sql += " ORDER BY " + (order + ["\"___recordID\""]).joined(separator: ", ")
        if let limit = query.limit, stopsAtLimit(readable: readable) { sql += " LIMIT \(max(0, limit))" }
        return sql
    }
}
