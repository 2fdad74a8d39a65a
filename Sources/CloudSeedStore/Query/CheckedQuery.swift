package import CloudSeedCore
package import CloudSeedSchema
import Foundation

/// A query checked against its record type's schema, each filter with its field's type, its
/// place (NEAR) and its values typed: what every store builds its SQL from, so that the checks
/// and their errors are the same for each and only the SQL differs.
package struct CheckedQuery {
    package var query: RecordQuery
    /// The filters, in the query's order; none where the schema has no such record type yet (the
    /// store has no records of it).
    package var filters: [CheckedFilter]

    /// Checks `query` (``QueryAuthorization``) and types each filter's values with `typed`
    /// (the text, the field's type, the field's name).
    package init(
        _ query: RecordQuery, definition: SchemaDefinition, schema: Schema,
        typed: (String, FieldType, String) throws -> RecordValue
    ) throws {
        try QueryAuthorization.check(query, against: definition)
        self.query = query
        guard let recordType = schema.recordTypes[query.recordType] else {
            filters = []
            return
        }
        filters = try query.filters.map { filter in
            guard let type = filter.field == "recordName" ? .string : recordType.fields[filter.field] else {
                throw CloudSeedError(.unknownField, "Unknown field '\(filter.field)'")
            }
            var checked = CheckedFilter(filter: filter, type: type)
            switch filter.comparator {
            case .near:
                let parts = filter.value.split(separator: ",").compactMap {
                    Double($0.trimmingCharacters(in: .whitespaces))
                }
                guard parts.count == 3, type == .location else {
                    throw CloudSeedError(
                        .invalidOption,
                        "NEAR takes a LOCATION field and LATITUDE,LONGITUDE,METERS, as 'place NEAR 39.3,-123.8,5000'")
                }
                checked.near = CheckedFilter.Place(latitude: parts[0], longitude: parts[1], radius: parts[2])
            case .contains, .containsAny, .containsAll, .memberBeginsWith:
                guard case .list(let element) = type else {
                    throw CloudSeedError(
                        .unsupportedQuery,
                        "\(filter.comparator.rawValue) takes a LIST field; '\(filter.field)' is \(type.schemaName)")
                }
                if filter.comparator != .memberBeginsWith {
                    let texts = filter.comparator == .contains ? [filter.value] : filter.values
                    checked.values = try texts.map { try typed($0, element, filter.field) }
                }
            case .in: checked.values = try filter.values.map { try typed($0, type, filter.field) }
            case .beginsWith: break
            default: checked.values = [try typed(filter.value, type, filter.field)]
            }
            return checked
        }
    }
}

/// One filter of a ``CheckedQuery``.
package struct CheckedFilter {
    /// Where a NEAR filter measures from, and how far it reaches, in meters.
    package struct Place {
        package var latitude: Double
        package var longitude: Double
        package var radius: Double
    }

    package var filter: QueryFilter
    /// The field's type (STRING for `recordName`).
    package var type: FieldType
    /// A NEAR filter's place.
    package var near: Place?
    /// The values as the field's type, or its element type for the LIST comparators; none for
    /// NEAR, BEGINSWITH and MEMBERBEGINSWITH, which compare the text as written.
    package var values: [RecordValue] = []
}

extension CheckedQuery {
    /// The column, quoted for SQL, that a query names by `field`: the record name's, a system
    /// field's, or the one `fields` (a record type's fields with their types and columns) gives.
    package static func column(of field: String, in fields: [String: (type: FieldType, column: String)]) throws
        -> String
    {
        if field == "recordName" || field == "___recordID" { return "\"___recordID\"" }
        if field.hasPrefix("___") { return SQLIdentifier.quoted(field) }
        guard let column = fields[field]?.column else {
            throw CloudSeedError(.unknownField, "Unknown field '\(field)'")
        }
        return SQLIdentifier.quoted(column)
    }

    /// Whether the store's SQL may stop at the query's limit: every row it finds is then a record
    /// returned, in the order read (no NEAR filter, no order by distance, every record readable).
    package func stopsAtLimit(readable: Permissions?) -> Bool {
        filters.allSatisfy { $0.near == nil } && !query.sortsByDistance
            && (readable?.canReadEvery(query.recordType) ?? true)
    }

    /// The records of the rows the store's SQL found, in their order: those within each NEAR
    /// filter's reach that `readable` lets the user read, ordered by distance where the query is
    /// (``RecordQuery/orderedByDistance(_:)``), at most its limit. `location` reads a row's
    /// LOCATION field, `record` a row's record.
    package func records<Row>(
        from rows: some Sequence<Row>, readable: Permissions?, location: (Row, String) -> Location?,
        record: (Row) throws -> CloudRecord
    ) throws -> [CloudRecord] {
        let near = filters.compactMap { filter in filter.near.map { (field: filter.filter.field, place: $0) } }
        var records: [CloudRecord] = []
        for row in rows {
            let isNear = near.allSatisfy { near in
                guard let found = location(row, near.field) else { return false }
                return GreatCircle.meters(found.latitude, found.longitude, near.place.latitude, near.place.longitude)
                    <= near.place.radius
            }
            let found = try record(row)
            if isNear, readable?.canRead(found) ?? true { records.append(found) }
            if let limit = query.limit, !query.sortsByDistance, records.count >= limit { break }
        }
        return query.orderedByDistance(records)
    }
}
