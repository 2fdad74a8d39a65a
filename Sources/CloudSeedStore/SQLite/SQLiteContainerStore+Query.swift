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
        var nearFilters: [(column: Int, latitude: Double, longitude: Double, radius: Double)] = []
        let names = layout.sortedFieldNames
        for checked in checked.filters {
            let filter = checked.filter
            let column = try columnName(filter.field, in: layout)
            let clause: String
            switch filter.comparator {
            case .near:
                let place = checked.near!
                nearFilters.append(
                    (6 + names.firstIndex(of: filter.field)!, place.latitude, place.longitude, place.radius))
                continue
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
            let table = SQLiteLayout.quoted(layout.table + "__search")
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
            "\(try columnName($0.field, in: layout)) \($0.ascending ? "ASC" : "DESC")"
        }
        sql += " ORDER BY " + (order + ["\"___recordID\""]).joined(separator: ", ")
        let readable = scope.database == .public ? try Permissions(store: self, scope: scope, user: query.user) : nil
        // Where every row found is a record returned in the order read, the database stops at the limit.
        let isFinalOrder = nearFilters.isEmpty && !query.sortsByDistance
        if let limit = query.limit, isFinalOrder, readable?.canReadEvery(query.recordType) ?? true {
            sql += " LIMIT \(max(0, limit))"
        }
        var records: [CloudRecord] = []
        for row in try database.rows(sql, arguments) {
            let isNear = nearFilters.allSatisfy { near in
                guard case .text(let text) = row[near.column],
                    case .location(let place)? = try? SQLiteValueCodec.decode(
                        .text(text), as: .location, assetSizes: { _ in 0 })
                else { return false }
                return GreatCircle.meters(place.latitude, place.longitude, near.latitude, near.longitude) <= near.radius
            }
            let found = try record(from: row, type: query.recordType, layout: layout, zoneID: scope.zoneID)
            if isNear, readable?.canRead(found) ?? true { records.append(found) }
            if let limit = query.limit, !query.sortsByDistance, records.count >= limit { break }
        }
        return query.orderedByDistance(records)
    }

    private func columnName(_ field: String, in layout: TypeLayout) throws -> String {
        if field == "recordName" || field == "___recordID" { return "\"___recordID\"" }
        if field.hasPrefix("___") { return SQLiteLayout.quoted(field) }
        guard let column = layout.fields[field]?.column else {
            throw CloudSeedError(.unknownField, "Unknown field '\(field)'")
        }
        return SQLiteLayout.quoted(column)
    }
}
