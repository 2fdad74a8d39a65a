import CloudKitWire
import CloudSeed
import Foundation

/// `records/query`: `query{recordType, filterBy, sortBy}`, `zoneID`, `resultsLimit`,
/// `continuationMarker`, `desiredKeys`, run by the library's query, so the index rules are
/// `cloudseed query`'s.
enum RecordsQuery {
    /// CloudKit's comparators, as the library's query has them: a comparator and whether it is negated.
    static let comparators: [String: (QueryFilter.Comparator, negated: Bool)] = [
        "EQUALS": (.equals, false), "NOT_EQUALS": (.notEquals, false), "LESS_THAN": (.lessThan, false),
        "LESS_THAN_OR_EQUALS": (.lessThanOrEquals, false), "GREATER_THAN": (.greaterThan, false),
        "GREATER_THAN_OR_EQUALS": (.greaterThanOrEquals, false), "NEAR": (.near, false),
        "BEGINS_WITH": (.beginsWith, false), "NOT_BEGINS_WITH": (.beginsWith, true),
        "IN": (.in, false), "NOT_IN": (.in, true),
        "LIST_CONTAINS": (.contains, false), "NOT_LIST_CONTAINS": (.contains, true),
        "LIST_CONTAINS_ANY": (.containsAny, false), "NOT_LIST_CONTAINS_ANY": (.containsAny, true),
        "LIST_CONTAINS_ALL": (.containsAll, false), "NOT_LIST_CONTAINS_ALL": (.containsAll, true),
        "LIST_MEMBER_BEGINS_WITH": (.memberBeginsWith, false),
        "NOT_LIST_MEMBER_BEGINS_WITH": (.memberBeginsWith, true),
    ]

    /// The comparators that search SEARCHABLE fields for words: whether a record needs any of them.
    static let tokenComparators = ["CONTAINS_ALL_TOKENS": false, "CONTAINS_ANY_TOKENS": true]

    /// `systemFieldName`s as the schema names the fields.
    static let systemFields = [
        "recordName": "recordName", "createdTimestamp": "___createTime", "modifiedTimestamp": "___modTime",
        "createdUserRecordName": "___createdBy", "modifiedUserRecordName": "___modifiedBy",
    ]

    /// The most records one answer holds, CloudKit's limit.
    static let maximumResults = 200

    static func answer(_ request: DatabaseRequest, store: ContainerStore) throws -> String {
        let body = try request.json()
        var recordQuery = try Self.recordQuery(body["query"], user: request.user)
        let limit = Int(body["resultsLimit"]?.integer ?? Int64(maximumResults))
        guard (1...maximumResults).contains(limit) else {
            throw ServerError(.badRequest, "resultsLimit must be between 1 and \(maximumResults)")
        }
        var offset = 0
        switch try body["continuationMarker"].map(continuation(of:)) {
        case .after(let name)?: recordQuery.after = name
        case .offset(let skipped)?: offset = skipped
        case nil: break
        }
        recordQuery.limit = offset + limit + 1
        let scope = request.scope(zoneID: body["zoneID"])
        let found = try store.exclusively { try store.backend.read { try store.backend.query(recordQuery, in: scope) } }
        let page = found.dropFirst(offset).prefix(limit)
        let desiredKeys = body["desiredKeys"]?.items.map { Set($0.compactMap(\.string)) }
        var members = [("records", JSONText.array(page.map { request.json($0, desiredKeys: desiredKeys) }))]
        if found.count > offset + limit, let last = page.last {
            // In record-name order the next page starts after the last name; a sorted one by counting.
            let next: Continuation =
                recordQuery.sort.isEmpty ? .after(last.recordID.recordName) : .offset(offset + limit)
            members.append(("continuationMarker", JSONText.quoted(next.marker)))
        }
        return JSONText.object(members)
    }

    /// The library's query of a request's `query{recordType, filterBy, sortBy}`, asked by `user`.
    static func recordQuery(_ query: WebServicesJSON?, user: String) throws -> RecordQuery {
        guard let query, let recordType = query["recordType"]?.string else {
            throw ServerError(.badRequest, "the request needs query.recordType")
        }
        var recordQuery = RecordQuery(recordType: recordType)
        recordQuery.user = user
        for filter in query["filterBy"]?.items ?? [] {
            try add(filter, to: &recordQuery)
        }
        for sort in query["sortBy"]?.items ?? [] {
            let field = try fieldName(of: sort)
            var place: Location?
            if let relative = sort["relativeLocation"] {
                guard let latitude = relative["latitude"]?.number, let longitude = relative["longitude"]?.number else {
                    throw ServerError(
                        .badRequest, "the sort by '\(field)' needs relativeLocation as {latitude, longitude}")
                }
                place = Location(latitude: latitude, longitude: longitude)
            }
            recordQuery.sort.append(QuerySort(field, ascending: sort["ascending"]?.bool ?? true, relativeTo: place))
        }
        return recordQuery
    }

    /// Adds a `filterBy` entry: `{comparator, fieldName | systemFieldName, fieldValue{value}, distance}`.
    private static func add(_ filter: WebServicesJSON, to query: inout RecordQuery) throws {
        let name = filter["comparator"]?.string ?? ""
        let field = try fieldName(of: filter)
        guard let value = filter["fieldValue"]?["value"] else {
            throw ServerError(.badRequest, "the filter on '\(field)' needs fieldValue.value")
        }
        if let anyWord = tokenComparators[name] {
            query.search = try text(of: value, field: field)
            query.searchesAnyWord = anyWord
            return
        }
        guard let (comparator, negated) = comparators[name] else {
            let known = (Array(comparators.keys) + tokenComparators.keys).sorted().joined(separator: ", ")
            throw ServerError(.badRequest, "comparator '\(name)' is not one of CloudKit's: \(known)")
        }
        var valueText: String
        switch comparator {
        case .in, .containsAny, .containsAll:
            guard let items = value.items else {
                throw ServerError(.badRequest, "\(name) on '\(field)' needs a list of values")
            }
            valueText = "[" + (try items.map { try text(of: $0, field: field) }).joined(separator: ",") + "]"
        case .near:
            guard let latitude = value["latitude"]?.scalarText, let longitude = value["longitude"]?.scalarText,
                let distance = filter["distance"]?.scalarText
            else {
                throw ServerError(
                    .badRequest,
                    "NEAR on '\(field)' needs a location value {latitude, longitude} and a distance in meters")
            }
            valueText = "\(latitude),\(longitude),\(distance)"
        default:
            valueText = try text(of: value, field: field)
        }
        query.filters.append(QueryFilter(field: field, comparator: comparator, value: valueText, negated: negated))
    }

    /// The field a filter or sort names: `fieldName`, or a `systemFieldName` as the schema has it.
    private static func fieldName(of entry: WebServicesJSON) throws -> String {
        if let field = entry["fieldName"]?.string { return field }
        if let system = entry["systemFieldName"]?.string {
            guard let field = systemFields[system] else {
                throw ServerError(.badRequest, "unknown systemFieldName '\(system)'")
            }
            return field
        }
        throw ServerError(.badRequest, "a filter or sort needs fieldName or systemFieldName")
    }

    /// A filter's value as the library's query reads it: a scalar as text, a reference by its record name.
    private static func text(of value: WebServicesJSON, field: String) throws -> String {
        if let text = value.scalarText ?? value["recordName"]?.string { return text }
        throw ServerError(.badRequest, "the value of the filter on '\(field)' must be a scalar or a reference")
    }

    /// Where the next page starts, written into a continuation marker that is opaque to clients.
    private enum Continuation {
        /// After this record name, for a query in record-name order.
        case after(String)
        /// After this many records, for a sorted query.
        case offset(Int)

        var marker: String {
            switch self {
            case .after(let name): Data("after:\(name)".utf8).base64EncodedString()
            case .offset(let offset): Data("offset:\(offset)".utf8).base64EncodedString()
            }
        }
    }

    private static func continuation(of marker: WebServicesJSON) throws -> Continuation {
        let refused = ServerError(.badRequest, "the continuationMarker is not one this server gave")
        guard let text = marker.string, let data = Data(base64Encoded: text),
            let decoded = String(data: data, encoding: .utf8)
        else { throw refused }
        if decoded.hasPrefix("after:") { return .after(String(decoded.dropFirst("after:".count))) }
        guard decoded.hasPrefix("offset:"), let offset = Int(decoded.dropFirst("offset:".count)), offset >= 0 else {
            throw refused
        }
        return .offset(offset)
    }
}
