/// A query of one record type, CloudKit style: filters on indexed fields, a sort, a text search.
public struct RecordQuery: Sendable {
    public var recordType: String
    public var filters: [QueryFilter]
    public var sort: (field: String, ascending: Bool)?
    /// Words that a SEARCHABLE field must contain.
    public var search: String?
    public var limit: Int?
    /// Who asks: in the public database only records their roles may READ come back.
    public var user = RecordZoneID.defaultOwnerName

    public init(
        recordType: String, filters: [QueryFilter] = [], sort: (field: String, ascending: Bool)? = nil,
        search: String? = nil, limit: Int? = nil
    ) {
        self.recordType = recordType
        self.filters = filters
        self.sort = sort
        self.search = search
        self.limit = limit
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
        case contains = "CONTAINS"

        /// Whether the comparator needs a SORTABLE index (ranges) rather than a QUERYABLE one.
        var needsSortable: Bool { [.lessThan, .lessThanOrEquals, .greaterThan, .greaterThanOrEquals].contains(self) }
    }

    public var field: String
    public var comparator: Comparator
    /// The value as written; converted to the field's type when the query runs.
    public var value: String

    public init(field: String, comparator: Comparator, value: String) {
        self.field = field
        self.comparator = comparator
        self.value = value
    }

    /// Reads `FIELD OP VALUE`, as `price >= 100` or `title BEGINSWITH Night Harbor`.
    public init(parsing text: String) throws {
        let parts = text.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: true).map(String.init)
        guard parts.count == 3,
            let comparator = Comparator(rawValue: parts[1].uppercased()) ?? (parts[1] == "==" ? .equals : nil)
        else {
            throw CloudSeedError(
                .invalidOption,
                "--filter '\(text)' needs FIELD OP VALUE with OP one of \(Comparator.allCases.map(\.rawValue).joined(separator: " ")), as 'price > 100'"
            )
        }
        self.init(field: parts[0], comparator: comparator, value: parts[2])
    }
}

/// Checks a query against the schema's indexes, as CloudKit does, before anything runs.
enum QueryAuthorization {
    static func check(_ query: RecordQuery, against definition: SchemaDefinition) throws {
        guard let recordType = definition.recordType(named: query.recordType) else {
            throw CloudSeedError(
                .unknownRecordType,
                "Did not find record type: \(query.recordType); check the name with cloudseed inspect")
        }
        func require(_ option: FieldDefinition.Option, _ field: String) throws {
            let name = field == "recordName" ? "___recordID" : field
            guard let definition = recordType.field(named: name) else {
                throw CloudSeedError(
                    .unknownField,
                    "Unknown field '\(field)' in record type \(query.recordType); check the name with cloudseed inspect"
                )
            }
            guard definition.options.contains(option) else {
                throw CloudSeedError(
                    .unsupportedQuery,
                    "Field '\(name)' is not marked \(option.rawValue.lowercased()); add \(option.rawValue) to \(query.recordType).\(name) in the schema and run cloudseed schema import"
                )
            }
        }
        for filter in query.filters {
            try require(filter.comparator.needsSortable ? .sortable : .queryable, filter.field)
        }
        if let sort = query.sort { try require(.sortable, sort.field) }
        if query.search != nil, !recordType.fields.contains(where: { $0.options.contains(.searchable) }) {
            throw CloudSeedError(
                .unsupportedQuery,
                "Type \(query.recordType) has no SEARCHABLE field; add SEARCHABLE to a STRING field in the schema and run cloudseed schema import"
            )
        }
        if query.filters.isEmpty, query.search == nil { try require(.queryable, "___recordID") }
    }
}
