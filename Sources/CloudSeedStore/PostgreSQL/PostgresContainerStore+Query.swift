package import CloudSeedCore
import Foundation

/// Runs record queries as SQL on the indexed columns; values are always parameters.
extension PostgresContainerStore {
    package func query(_ checked: CheckedQuery, in scope: StoreScope) throws -> [CloudRecord] {
        try reading { try run(checked, in: scope) }
    }

    private func run(_ checked: CheckedQuery, in scope: StoreScope) throws -> [CloudRecord] {
        let query = checked.query
        guard let layout = try typeLayouts(scope.schemaScope)[query.recordType],
            let zone = try zoneKey(scope, create: false)
        else {
            return []
        }
        var sql = String(layout.selectAll[..<layout.selectAll.range(of: " ORDER BY")!.lowerBound])
        var arguments: [String?] = [String(zone)]
        func parameter(_ value: String) -> String {
            arguments.append(value)
            return "$\(arguments.count)"
        }
        let names = layout.sortedFieldNames
        for checked in checked.filters {
            let filter = checked.filter
            let column = try CheckedQuery.column(of: filter.field, in: layout.fields)
            let clause: String
            switch filter.comparator {
            case .near: continue
            case .contains, .containsAny, .containsAll, .memberBeginsWith:
                // A JSON array of the values as the column holds its members.
                func members(_ values: some Sequence<RecordValue>) -> String {
                    parameter("[" + values.map(SQLiteValueCodec.jsonElement).joined(separator: ",") + "]")
                }
                switch filter.comparator {
                case .containsAny:
                    clause =
                        "(" + checked.values.map { "\(column) @> \(members([$0]))::jsonb" }.joined(separator: " OR ")
                        + ")"
                case .memberBeginsWith:
                    clause =
                        "EXISTS (SELECT 1 FROM jsonb_array_elements_text(\(column)) AS member WHERE starts_with(member, \(parameter(filter.value))))"
                default:
                    clause = "\(column) @> \(members(checked.values))::jsonb"
                }
            case .in:
                let placeholders = try checked.values.map { parameter(try PostgresValueCodec.encode($0)) }
                clause = "\(column) IN (\(placeholders.joined(separator: ", ")))"
            case .beginsWith:
                clause = "starts_with(\(column)::text, \(parameter(filter.value)))"
            default:
                let value = try PostgresValueCodec.encode(checked.values[0])
                clause =
                    "\(column) \(filter.comparator == .notEquals ? "<>" : filter.comparator.rawValue) \(parameter(value))"
            }
            sql += filter.negated ? " AND \(column) IS NOT NULL AND NOT (\(clause))" : " AND \(clause)"
        }
        if let search = query.search {
            let searched = SQLIdentifier.quoted(PostgresLayout.searchColumn)
            let words = query.searchesAnyWord ? search.split(separator: " ").map(String.init) : [search]
            sql +=
                " AND ("
                + words.map { "\(searched) @@ plainto_tsquery('simple', \(parameter($0)))" }.joined(separator: " OR ")
                + ")"
        }
        if let after = query.after { sql += " AND \"___recordID\" > \(parameter(after))" }
        // SQLite's order: NULL before every value ascending, after every value descending.
        let order = try query.sortedInSQL.map {
            "\(try CheckedQuery.column(of: $0.field, in: layout.fields)) \($0.ascending ? "ASC NULLS FIRST" : "DESC NULLS LAST")"
        }
        sql += " ORDER BY " + (order + ["\"___recordID\""]).joined(separator: ", ")
        let readable = scope.database == .public ? try Permissions(store: self, scope: scope, user: query.user) : nil
        if let limit = query.limit, checked.stopsAtLimit(readable: readable) { sql += " LIMIT \(max(0, limit))" }
        return try checked.records(
            from: try connection.rows(sql, arguments), readable: readable,
            location: { row, field in
                let place = row[6 + names.firstIndex(of: field)!].flatMap {
                    try? PostgresValueCodec.decode($0, as: .location, assetSizes: { _ in 0 })
                }
                return if case .location(let place)? = place { place } else { nil }
            },
            record: { try record(from: $0, type: query.recordType, layout: layout, zoneID: scope.zoneID) })
    }
}
