package import CloudSeedCore
import Foundation

/// Runs record queries as SQL on the indexed columns; values are always bound.
extension SQLiteContainerStore: SQLQueries {
    package func query(_ checked: CheckedQuery, in scope: StoreScope) throws -> [CloudRecord] {
        try records(selectedBy: checked, in: scope)
    }

    package func queryDialect(zone: Int64) -> SQLiteQueryDialect {
        SQLiteQueryDialect(arguments: [.integer(zone)])
    }

    package func rows(_ sql: String, _ dialect: SQLiteQueryDialect) throws -> [[SQLiteValue]] {
        try database.rows(sql, dialect.arguments)
    }

    package func rows(_ sql: String, zone: Int64, names: [String]) throws -> [[SQLiteValue]] {
        try database.rows(sql, [.integer(zone), .text(JSONText.array(quoting: names))])
    }

    /// Each name looked up in the table's name index: a `CROSS JOIN`, which SQLite keeps in its
    /// order, so that the planner cannot scan the zone's names for each of the names given.
    package func namesHeld(in table: TypeLayout, offset: Int) -> String {
        "SELECT \(offset), n.value FROM json_each(?2) AS n CROSS JOIN \(SQLIdentifier.quoted(table.table)) AS t ON t.\"___recordID\" = n.value AND t.\"___zone\" = ?1"
    }

    package func offsetAndName(in row: [SQLiteValue]) -> (Int, String)? {
        guard case .integer(let offset) = row[0], case .text(let name) = row[1] else { return nil }
        return (Int(offset), name)
    }

    package func location(in row: [SQLiteValue], column: Int) -> Location? {
        let place = try? SQLiteValueCodec.decode(row[column], as: .location, assetSizes: { _ in 0 })
        return if case .location(let place)? = place { place } else { nil }
    }
}

extension SQLiteContainerStore.TypeLayout: QueriedTable {}

/// SQLite's words for a query: `?` placeholders, list members through `json_each`, and full-text
/// search in the type's FTS5 table.
package struct SQLiteQueryDialect: SQLQueryDialect {
    package var arguments: [SQLiteValue]

    package mutating func bind(_ text: String) -> String {
        arguments.append(.text(text))
        return "?"
    }

    private mutating func bind(_ values: [RecordValue]) -> String {
        arguments += values.map(SQLiteValueCodec.encode)
        return Array(repeating: "?", count: values.count).joined(separator: ", ")
    }

    package mutating func clause(_ checked: CheckedFilter, column: String) throws -> String {
        let filter = checked.filter
        let members = "SELECT 1 FROM json_each(\(column)) WHERE value"
        switch filter.comparator {
        case .containsAny: return "EXISTS (\(members) IN (\(bind(checked.values))))"
        case .containsAll:
            return checked.values.map { "EXISTS (\(members) = \(bind([$0])))" }.joined(separator: " AND ")
        case .memberBeginsWith:
            let prefix = bind(filter.value)
            return
                "EXISTS (SELECT 1 FROM json_each(\(column)) WHERE substr(value, 1, length(\(prefix))) = \(bind(filter.value)))"
        case .contains: return "EXISTS (\(members) = \(bind(checked.values)))"
        case .in: return "\(column) IN (\(bind(checked.values)))"
        case .beginsWith: return "substr(\(column), 1, length(\(bind(filter.value)))) = \(bind(filter.value))"
        default:
            return
                "\(column) \(filter.comparator == .notEquals ? "<>" : filter.comparator.rawValue) \(bind(checked.values))"
        }
    }

    package mutating func searchClause(_ search: String, anyWord: Bool, table: String) -> String {
        let searchTable = SQLIdentifier.quoted(table + "__search")
        let words = search.split(separator: " ").map { "\"" + $0.replacingOccurrences(of: "\"", with: "\"\"") + "\"" }
        return
            "rowid IN (SELECT rowid FROM \(searchTable) WHERE \(searchTable) MATCH \(bind(words.joined(separator: anyWord ? " OR " : " "))))"
    }

    package func ordering(_ column: String, ascending: Bool) -> String {
        "\(column) \(ascending ? "ASC" : "DESC")"
    }
}
