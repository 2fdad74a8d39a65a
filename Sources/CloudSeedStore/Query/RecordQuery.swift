public import CloudSeedCore
package import CloudSeedSchema
import Foundation

/// A query of one record type, CloudKit style: filters on indexed fields, sorts, a text search.
public struct RecordQuery: Sendable {
    public var recordType: String
    public var filters: [QueryFilter]
    /// What the records are ordered by, the first first; records it leaves tied come in
    /// record-name order.
    public var sort: [QuerySort]
    /// Words that a SEARCHABLE field must contain.
    public var search: String?
    /// Whether a record needs only one of ``search``'s words rather than all of them (CloudKit's
    /// `CONTAINS_ANY_TOKENS` rather than `CONTAINS_ALL_TOKENS`).
    public var searchesAnyWord = false
    public var limit: Int?
    /// Only records whose name comes after this one, for a query without a sort (which is in
    /// record-name order): where the page before ended.
    package var after: String?
    /// Who asks: in the public database only records their roles may READ come back.
    public var user = RecordZoneID.defaultOwnerName

    public init(
        recordType: String, filters: [QueryFilter] = [], sort: [QuerySort] = [],
        search: String? = nil, limit: Int? = nil
    ) {
        self.recordType = recordType
        self.filters = filters
        self.sort = sort
        self.search = search
        self.limit = limit
    }
}

/// One key of a query's order: a field's values, or a LOCATION field's distance from a place.
public struct QuerySort: Hashable, Sendable {
    /// The field's name as the schema has it; `recordName` for the record name.
    public var field: String
    /// Smallest first; with ``relativeTo``, nearest first.
    public var ascending: Bool
    /// For a LOCATION field, the place distances are measured from (CloudKit's `relativeLocation`).
    public var relativeTo: Location?

    /// Orders by `field`, smallest first unless `ascending` is false; by its distance from
    /// `relativeTo`, where given.
    public init(_ field: String, ascending: Bool = true, relativeTo: Location? = nil) {
        self.field = field
        self.ascending = ascending
        self.relativeTo = relativeTo
    }
}

extension RecordQuery {
    /// Whether the records are ordered by distance first, which the stores do once they have read
    /// them (``orderedByDistance(_:)``); the keys after it they give to SQL.
    package var sortsByDistance: Bool { sort.first?.relativeTo != nil }

    /// The keys of ``sort`` the store's SQL orders by.
    package var sortedInSQL: ArraySlice<QuerySort> { sort.dropFirst(sortsByDistance ? 1 : 0) }

    /// `records`, read in the order of ``sortedInSQL``, ordered by distance where ``sortsByDistance``
    /// (records the others leave tied keep their order; a record without a location comes as the
    /// farthest) and cut to ``limit``.
    package func orderedByDistance(_ records: [CloudRecord]) -> [CloudRecord] {
        guard let first = sort.first, let place = first.relativeTo else { return records }
        let distances = records.map { record -> Double in
            guard case .location(let location)? = record.fields[first.field] else { return .infinity }
            return GreatCircle.meters(location.latitude, location.longitude, place.latitude, place.longitude)
        }
        let order = records.indices.sorted { a, b in
            distances[a] == distances[b]
                ? a < b : first.ascending ? distances[a] < distances[b] : distances[a] > distances[b]
        }
        return order.prefix(limit ?? order.count).map { records[$0] }
    }
}

/// One filter: `price > 100`, `title BEGINSWITH Night`, `tags CONTAINS oil`, `place NEAR 39.3,-123.8,5000`.
public struct QueryFilter: Hashable, Sendable {
    /// CloudKit's comparators, as written on the command line.
    public enum Comparator: String, CaseIterable, Sendable {
        case equals = "="
        case notEquals = "!="
        case lessThan = "<"
        case lessThanOrEquals = "<="
        case greaterThan = ">"
        case
            greaterThanOrEquals = ">="
        case beginsWith = "BEGINSWITH"
        case `in` = "IN"
        case near = "NEAR"
        /// A LIST field holds the value.
        case contains = "CONTAINS"
        /// A LIST field holds one of the values.
        case containsAny = "CONTAINSANY"
        /// A LIST field holds every one of the values.
        case containsAll = "CONTAINSALL"
        /// A member of a LIST field begins with the value.
        case memberBeginsWith = "MEMBERBEGINSWITH"

        /// Whether the comparator needs a SORTABLE index (ranges) rather than a QUERYABLE one.
        package var needsSortable: Bool {
            [.lessThan, .lessThanOrEquals, .greaterThan, .greaterThanOrEquals].contains(self)
        }
    }

    public var field: String
    public var comparator: Comparator
    /// The value as written; converted to the field's type when the query runs. `IN` and the
    /// list comparators that take several values take them separated by commas (`115,308`).
    public var value: String
    /// Whether the filter selects the records with the field set that the comparator does not
    /// select (`NOT IN`, `NOT BEGINSWITH`, CloudKit's `NOT_LIST_CONTAINS`).
    public var negated: Bool

    public init(field: String, comparator: Comparator, value: String, negated: Bool = false) {
        self.field = field
        self.comparator = comparator
        self.value = value
        self.negated = negated
    }

    /// Reads `FIELD [NOT] OP VALUE`, as `price >= 100`, `title BEGINSWITH Night Harbor` or `tags NOT CONTAINS oil`.
    public init(parsing text: String) throws {
        var parts = text.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: true).map(String.init)
        let negated = parts.count == 3 && parts[1].uppercased() == "NOT"
        if negated {
            parts =
                [parts[0]]
                + parts[2].split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true).map(
                    String.init)
        }
        guard parts.count == 3,
            let comparator = Comparator(rawValue: parts[1].uppercased()) ?? (parts[1] == "==" ? .equals : nil)
        else {
            throw CloudSeedError(
                .invalidOption,
                "\(option: .filter(nil)) '\(text)' needs FIELD [NOT] OP VALUE with OP one of \(Comparator.allCases.map(\.rawValue).joined(separator: " ")), as 'price > 100'"
            )
        }
        self.init(field: parts[0], comparator: comparator, value: parts[2], negated: negated)
    }

    /// The values of `IN` and of the list comparators that take several: the value split at its
    /// commas, brackets around it dropped.
    package var values: [String] {
        value.trimmingCharacters(in: CharacterSet(charactersIn: "[]")).split(separator: ",")
            .map { $0.trimmingCharacters(in: .whitespaces) }
    }
}

/// Checks a query against the schema's indexes, as CloudKit does, before anything runs.
package enum QueryAuthorization {
    package static func check(_ query: RecordQuery, against definition: SchemaDefinition) throws {
        guard let recordType = definition.recordType(named: query.recordType) else {
            throw CloudSeedError(
                .unknownRecordType,
                "Did not find record type: \(query.recordType); check the name with \(option: .inventory)")
        }
        func require(_ option: FieldDefinition.Option, _ field: String) throws {
            let name = field == "recordName" ? "___recordID" : field
            guard let definition = recordType.field(named: name) else {
                throw CloudSeedError(
                    .unknownField,
                    "Unknown field '\(field)' in record type \(query.recordType); check the name with \(option: .inventory)"
                )
            }
            guard definition.options.contains(option) else {
                throw CloudSeedError(
                    .unsupportedQuery,
                    "Field '\(name)' is not marked \(option.rawValue.lowercased()); add \(option.rawValue) to \(query.recordType).\(name) in the schema and run \(option: .schemaImport)"
                )
            }
        }
        for filter in query.filters {
            try require(filter.comparator.needsSortable ? .sortable : .queryable, filter.field)
            if filter.negated, filter.comparator == .near {
                throw CloudSeedError(.unsupportedQuery, "NEAR cannot be negated; filter on a smaller distance instead")
            }
        }
        for (offset, sort) in query.sort.enumerated() {
            try require(.sortable, sort.field)
            guard sort.relativeTo != nil else { continue }
            guard recordType.field(named: sort.field)?.type == .location else {
                throw CloudSeedError(
                    .unsupportedQuery, "a sort by distance takes a LOCATION field; '\(sort.field)' is not one")
            }
            guard offset == 0 else {
                throw CloudSeedError(
                    .unsupportedQuery, "sort by the distance from '\(sort.field)' first, before the other fields")
            }
        }
        if query.search != nil, !recordType.fields.contains(where: { $0.options.contains(.searchable) }) {
            throw CloudSeedError(
                .unsupportedQuery,
                "Type \(query.recordType) has no SEARCHABLE field; add SEARCHABLE to a STRING field in the schema and run \(option: .schemaImport)"
            )
        }
        if query.filters.isEmpty, query.search == nil { try require(.queryable, "___recordID") }
    }
}
