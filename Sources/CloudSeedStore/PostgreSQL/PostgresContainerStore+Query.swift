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
            let searched = PostgresLayout.quoted(PostgresLayout.searchColumn)
            let words = query.searchesAnyWord ? search.split(separator: " ").map(String.init) : [search]
            sql +=
                " AND ("
                + words.map { "\(searched) @@ plainto_tsquery('simple', \(parameter($0)))" }.joined(separator: " OR ")
                + ")"
        }
        if let after = query.after { sql += " AND \"___recordID\" > \(parameter(after))" }
        // SQLite's order: NULL before every value ascending, after every value descending.
        let order = try query.sortedInSQL.map {
            "\(try columnName($0.field, in: layout)) \($0.ascending ? "ASC NULLS FIRST" : "DESC NULLS LAST")"
        }
        sql += " ORDER BY " + (order + ["\"___recordID\""]).joined(separator: ", ")
        let readable = scope.database == .public ? try Permissions(store: self, scope: scope, user: query.user) : nil
        // Where every row found is a record returned in the order read, the database stops at the limit.
        let isFinalOrder = nearFilters.isEmpty && !query.sortsByDistance
        if let limit = query.limit, isFinalOrder, readable?.canReadEvery(query.recordType) ?? true {
            sql += " LIMIT \(max(0, limit))"
        }
        var records: [CloudRecord] = []
        for row in try connection.rows(sql, arguments) {
            let isNear = nearFilters.allSatisfy { near in
                guard let text = row[near.column],
                    case .location(let place)? = try? PostgresValueCodec.decode(
                        text, as: .location, assetSizes: { _ in 0 })
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
        if field.hasPrefix("___") { return PostgresLayout.quoted(field) }
        guard let column = layout.fields[field]?.column else {
            throw CloudSeedError(.unknownField, "Unknown field '\(field)'")
        }
        return PostgresLayout.quoted(column)
    }
}
