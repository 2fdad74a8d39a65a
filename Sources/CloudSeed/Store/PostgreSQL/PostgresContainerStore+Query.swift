import Foundation

/// Runs record queries as SQL on the indexed columns; values are always parameters.
extension PostgresContainerStore {
    package func query(_ query: RecordQuery, in scope: StoreScope) throws -> [CloudRecord] {
        try QueryAuthorization.check(query, against: schemaDefinition(of: scope.schemaScope))
        return try reading { try run(query, in: scope) }
    }

    private func run(_ query: RecordQuery, in scope: StoreScope) throws -> [CloudRecord] {
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
        for filter in query.filters {
            let column = try columnName(filter.field, in: layout)
            let type = filter.field == "recordName" ? FieldType.string : layout.fields[filter.field]!.type
            let clause: String
            switch filter.comparator {
            case .near:
                let parts = filter.value.split(separator: ",").compactMap {
                    Double($0.trimmingCharacters(in: .whitespaces))
                }
                guard parts.count == 3, type == .location, let index = names.firstIndex(of: filter.field) else {
                    throw CloudSeedError(
                        .invalidOption,
                        "NEAR takes a LOCATION field and LATITUDE,LONGITUDE,METERS, as 'place NEAR 39.3,-123.8,5000'")
                }
                nearFilters.append((6 + index, parts[0], parts[1], parts[2]))
                continue
            case .contains, .containsAny, .containsAll, .memberBeginsWith:
                guard case .list(let element) = type else {
                    throw CloudSeedError(
                        .unsupportedQuery,
                        "\(filter.comparator.rawValue) takes a LIST field; '\(filter.field)' is \(type.schemaName)")
                }
                // A JSON array of the values as the column holds its members.
                func members(_ values: [String]) throws -> String {
                    let elements = try values.map {
                        SQLiteValueCodec.jsonElement(try QueryFilterValue.typed($0, as: element, field: filter.field))
                    }
                    return parameter("[" + elements.joined(separator: ",") + "]")
                }
                switch filter.comparator {
                case .containsAny:
                    clause =
                        "("
                        + (try filter.values.map { "\(column) @> \(try members([$0]))::jsonb" }).joined(
                            separator: " OR ")
                        + ")"
                case .containsAll:
                    clause = "\(column) @> \(try members(filter.values))::jsonb"
                case .memberBeginsWith:
                    clause =
                        "EXISTS (SELECT 1 FROM jsonb_array_elements_text(\(column)) AS member WHERE starts_with(member, \(parameter(filter.value))))"
                default:
                    clause = "\(column) @> \(try members([filter.value]))::jsonb"
                }
            case .in:
                let placeholders = try filter.values.map {
                    parameter(
                        try PostgresValueCodec.encode(try QueryFilterValue.typed($0, as: type, field: filter.field)))
                }
                clause = "\(column) IN (\(placeholders.joined(separator: ", ")))"
            case .beginsWith:
                clause = "starts_with(\(column)::text, \(parameter(filter.value)))"
            default:
                let value = try PostgresValueCodec.encode(
                    try QueryFilterValue.typed(filter.value, as: type, field: filter.field))
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
