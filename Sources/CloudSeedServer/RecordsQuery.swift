import CloudSeed
import Foundation

/// `records/query`: `query{recordType, filterBy, sortBy}`, `zoneID`, `resultsLimit`,
/// `continuationMarker`, `desiredKeys`, run by the library's query, so the index rules are
/// `cloudseed query`'s.
enum RecordsQuery {
    /// CloudKit's comparators, as the library's query has them.
    static let comparators: [String: QueryFilter.Comparator] = [
        "EQUALS": .equals, "NOT_EQUALS": .notEquals, "LESS_THAN": .lessThan,
        "LESS_THAN_OR_EQUALS": .lessThanOrEquals, "GREATER_THAN": .greaterThan,
        "GREATER_THAN_OR_EQUALS": .greaterThanOrEquals, "BEGINS_WITH": .beginsWith, "IN": .in, "NEAR": .near,
        "LIST_CONTAINS": .contains,
    ]

    /// `systemFieldName`s as the schema names the fields.
    static let systemFields = [
        "recordName": "recordName", "createdTimestamp": "___createTime", "modifiedTimestamp": "___modTime",
        "createdUserRecordName": "___createdBy", "modifiedUserRecordName": "___modifiedBy",
    ]

    /// The most records one answer holds, CloudKit's limit.
    static let maximumResults = 200

    static func answer(_ request: DatabaseRequest, store: ContainerStore) throws -> String {
        let body = try request.json()
        guard let query = body["query"], let recordType = query["recordType"]?.string else {
            throw ServerError(.badRequest, "the request needs query.recordType")
        }
        var recordQuery = RecordQuery(recordType: recordType)
        recordQuery.user = request.user
        for filter in query["filterBy"]?.items ?? [] {
            try add(filter, to: &recordQuery)
        }
        let sorts = query["sortBy"]?.items ?? []
        guard sorts.count <= 1 else {
            throw ServerError(.badRequest, "cloudseed serve sorts by one field; give sortBy a single entry")
        }
        if let sort = sorts.first {
            recordQuery.sort = (try fieldName(of: sort), sort["ascending"]?.bool ?? true)
        }
        let limit = Int(body["resultsLimit"]?.integer ?? Int64(maximumResults))
        guard (1...maximumResults).contains(limit) else {
            throw ServerError(.badRequest, "resultsLimit must be between 1 and \(maximumResults)")
        }
        let offset = try body["continuationMarker"].map(offset(of:)) ?? 0
        recordQuery.limit = offset + limit + 1
        let found = try store.query(recordQuery, in: request.scope(zoneID: body["zoneID"]))
        let page = found.dropFirst(offset).prefix(limit)
        let desiredKeys = body["desiredKeys"]?.items.map { Set($0.compactMap(\.string)) }
        var members = [("records", JSONText.array(page.map { request.json($0, desiredKeys: desiredKeys) }))]
        if found.count > offset + limit {
            members.append(("continuationMarker", JSONText.quoted(marker(offset + limit))))
        }
        return JSONText.object(members)
    }

    /// Adds a `filterBy` entry: `{comparator, fieldName | systemFieldName, fieldValue{value}, distance}`.
    private static func add(_ filter: WebServicesJSON, to query: inout RecordQuery) throws {
        let name = filter["comparator"]?.string ?? ""
        let field = try fieldName(of: filter)
        guard let value = filter["fieldValue"]?["value"] else {
            throw ServerError(.badRequest, "the filter on '\(field)' needs fieldValue.value")
        }
        if name == "CONTAINS_ALL_TOKENS" {
            query.search = try text(of: value, field: field)
            return
        }
        guard let comparator = comparators[name] else {
            let known = (comparators.keys + ["CONTAINS_ALL_TOKENS"]).sorted().joined(separator: ", ")
            throw ServerError(.badRequest, "comparator '\(name)' is not one cloudseed serve runs; use one of \(known)")
        }
        var valueText: String
        switch comparator {
        case .in:
            guard let items = value.items else {
                throw ServerError(.badRequest, "IN on '\(field)' needs a list of values")
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
        query.filters.append(QueryFilter(field: field, comparator: comparator, value: valueText))
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

    /// A continuation marker: where the next page starts, opaque to clients.
    private static func marker(_ offset: Int) -> String {
        Data("offset:\(offset)".utf8).base64EncodedString()
    }

    private static func offset(of marker: WebServicesJSON) throws -> Int {
        guard let text = marker.string, let data = Data(base64Encoded: text),
            let decoded = String(data: data, encoding: .utf8), decoded.hasPrefix("offset:"),
            let offset = Int(decoded.dropFirst("offset:".count)), offset >= 0
        else { throw ServerError(.badRequest, "the continuationMarker is not one this server gave") }
        return offset
    }
}
