package import CloudSeedCore
import Foundation

/// Runs record queries as SQL on the indexed columns; values are always parameters.
extension PostgresContainerStore: SQLQueries {
    package func query(_ checked: CheckedQuery, in scope: StoreScope) throws -> [CloudRecord] {
        try reading { try records(selectedBy: checked, in: scope) }
    }

    package func queryDialect(zone: Int64) -> PostgresQueryDialect {
        PostgresQueryDialect(arguments: [String(zone)])
    }

    package func rows(_ sql: String, _ dialect: PostgresQueryDialect) throws -> [[String?]] {
        try connection.rows(sql, dialect.arguments)
    }

    package func rows(_ sql: String, zone: Int64, names: [String]) throws -> [[String?]] {
        try connection.rows(sql, [String(zone), JSONText.array(quoting: names)])
    }

    /// Each name looked up on its own (`LATERAL … LIMIT 1`): a join let the planner scan a table
    /// whose statistics lag a push.
    package func namesHeld(in table: TypeLayout, offset: Int) -> String {
        "SELECT \(offset), n.name FROM json_array_elements_text($2::json) AS n(name) CROSS JOIN LATERAL (SELECT 1 FROM \(table.qualifiedTable) WHERE \"___recordID\" = n.name AND \"___zone\" = $1 LIMIT 1) AS t"
    }

    package func offsetAndName(in row: [String?]) -> (Int, String)? {
        guard let offset = row[0].flatMap({ Int($0) }), let name = row[1] else { return nil }
        return (offset, name)
    }

    package func location(in row: [String?], column: Int) -> Location? {
        let place = row[column].flatMap { try? PostgresValueCodec.decode($0, as: .location, assetSizes: { _ in 0 }) }
        return if case .location(let place)? = place { place } else { nil }
    }
}

extension PostgresContainerStore.TypeLayout: QueriedTable {}

/// PostgreSQL's words for a query: `$n` parameters, list members as `jsonb` containment, and
/// full-text search on the table's search column.
package struct PostgresQueryDialect: SQLQueryDialect {
    package var arguments: [String?]

    package mutating func bind(_ text: String) -> String {
        arguments.append(text)
        return "$\(arguments.count)"
    }

    /// A JSON array of `values` as a list column holds its members.
    private mutating func members(_ values: some Sequence<RecordValue>) -> String {
        bind("[" + values.map(SQLiteValueCodec.jsonElement).joined(separator: ",") + "]")
    }

    package mutating func clause(_ checked: CheckedFilter, column: String) throws -> String {
        let filter = checked.filter
        switch filter.comparator {
        case .containsAny:
            return "(" + checked.values.map { "\(column) @> \(members([$0]))::jsonb" }.joined(separator: " OR ") + ")"
        case .memberBeginsWith:
            return
                "EXISTS (SELECT 1 FROM jsonb_array_elements_text(\(column)) AS member WHERE starts_with(member, \(bind(filter.value))))"
        case .contains, .containsAll: return "\(column) @> \(members(checked.values))::jsonb"
        case .in:
            let placeholders = try checked.values.map { bind(try PostgresValueCodec.encode($0)) }
            return "\(column) IN (\(placeholders.joined(separator: ", ")))"
        case .beginsWith: return "starts_with(\(column)::text, \(bind(filter.value)))"
        default:
            let value = try PostgresValueCodec.encode(checked.values[0])
            return "\(column) \(filter.comparator == .notEquals ? "<>" : filter.comparator.rawValue) \(bind(value))"
        }
    }

    package mutating func searchClause(_ search: String, anyWord: Bool, table: String) -> String {
        let searched = SQLIdentifier.quoted(PostgresLayout.searchColumn)
        let words = anyWord ? search.split(separator: " ").map(String.init) : [search]
        return "(" + words.map { "\(searched) @@ plainto_tsquery('simple', \(bind($0)))" }.joined(separator: " OR ")
            + ")"
    }

    /// SQLite's order: NULL before every value ascending, after every value descending.
    package func ordering(_ column: String, ascending: Bool) -> String {
        "\(column) \(ascending ? "ASC NULLS FIRST" : "DESC NULLS LAST")"
    }
}
