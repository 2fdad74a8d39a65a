package import CloudSeedCore
import Foundation

/// Runs record queries as SQL on the indexed columns; values are always bound.
extension SQLiteContainerStore {
    package func query(_ checked: CheckedQuery, in scope: StoreScope) throws -> [CloudRecord] {
        let query = checked.query
        guard let layout = try typeLayouts(scope.schemaScope)[query.recordType],
            let zone = try zoneKey(scope, create: false)
        else {
            return []
        }
        var sql = String(layout.selectAll[..<layout.selectAll.range(of: " ORDER BY")!.lowerBound])
        var arguments: [SQLiteValue] = [.integer(zone)]
        let names = layout.sortedFieldNames
        for checked in checked.filters {
            let filter = checked.filter
            let column = try CheckedQuery.column(of: filter.field, in: layout.fields)
            let clause: String
            switch filter.comparator {
            case .near: continue
            case .contains, .containsAny, .containsAll, .memberBeginsWith:
                let members = "SELECT 1 FROM json_each(\(column)) WHERE value"
                switch filter.comparator {
                case .containsAny:
                    clause =
                        "EXISTS (\(members) IN (\(Array(repeating: "?", count: checked.values.count).joined(separator: ", "))))"
                    arguments += checked.values.map(SQLiteValueCodec.encode)
                case .containsAll:
                    clause = Array(repeating: "EXISTS (\(members) = ?)", count: checked.values.count).joined(
                        separator: " AND ")
                    arguments += checked.values.map(SQLiteValueCodec.encode)
                case .memberBeginsWith:
                    clause = "EXISTS (SELECT 1 FROM json_each(\(column)) WHERE substr(value, 1, length(?)) = ?)"
                    arguments += [.text(filter.value), .text(filter.value)]
                default:
                    clause = "EXISTS (\(members) = ?)"
                    arguments += checked.values.map(SQLiteValueCodec.encode)
                }
            case .in:
                clause = "\(column) IN (\(Array(repeating: "?", count: checked.values.count).joined(separator: ", ")))"
                arguments += checked.values.map(SQLiteValueCodec.encode)
            case .beginsWith:
                clause = "substr(\(column), 1, length(?)) = ?"
                arguments += [.text(filter.value), .text(filter.value)]
            default:
                clause = "\(column) \(filter.comparator == .notEquals ? "<>" : filter.comparator.rawValue) ?"
                arguments += checked.values.map(SQLiteValueCodec.encode)
            }
            sql += filter.negated ? " AND \(column) IS NOT NULL AND NOT (\(clause))" : " AND \(clause)"
        }
        if let search = query.search {
            let table = SQLIdentifier.quoted(layout.table + "__search")
            let words = search.split(separator: " ").map {
                "\"" + $0.replacingOccurrences(of: "\"", with: "\"\"") + "\""
            }
            sql += " AND rowid IN (SELECT rowid FROM \(table) WHERE \(table) MATCH ?)"
            arguments.append(.text(words.joined(separator: query.searchesAnyWord ? " OR " : " ")))
        }
        if let after = query.after {
            sql += " AND \"___recordID\" > ?"
            arguments.append(.text(after))
        }
        let order = try query.sortedInSQL.map {
            "\(try CheckedQuery.column(of: $0.field, in: layout.fields)) \($0.ascending ? "ASC" : "DESC")"
        }
        sql += " ORDER BY " + (order + ["\"___recordID\""]).joined(separator: ", ")
        let readable = scope.database == .public ? try Permissions(store: self, scope: scope, user: query.user) : nil
        if let limit = query.limit, checked.stopsAtLimit(readable: readable) { sql += " LIMIT \(max(0, limit))" }
        return try checked.records(
            from: try database.rows(sql, arguments), readable: readable,
            location: { row, field in
                let place = try? SQLiteValueCodec.decode(
                    row[6 + names.firstIndex(of: field)!], as: .location, assetSizes: { _ in 0 })
                return if case .location(let place)? = place { place } else { nil }
            },
            record: { try record(from: $0, type: query.recordType, layout: layout, zoneID: scope.zoneID) })
    }
}
