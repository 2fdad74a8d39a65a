import CloudSeed

/// `records/lookup`: `records[{recordName}]`, `zoneID`, `desiredKeys`; each record, or a NOT_FOUND
/// error in its place.
enum RecordsLookup {
    static func answer(_ request: DatabaseRequest, store: ContainerStore) throws -> String {
        let body = try request.json()
        guard let entries = body["records"]?.items else {
            throw ServerError(.badRequest, "the request needs records, as [{\"recordName\": \"…\"}]")
        }
        let names = try entries.map { entry in
            guard let name = entry["recordName"]?.string else {
                throw ServerError(.badRequest, "each entry of records needs a recordName")
            }
            return name
        }
        let scope = request.scope(zoneID: body["zoneID"])
        let found = try RecordLookup.records(named: names, in: scope, user: request.user, store: store)
        let desiredKeys = body["desiredKeys"]?.items.map { Set($0.compactMap(\.string)) }
        let records = zip(names, found).map { name, record in
            record.map { request.json($0, desiredKeys: desiredKeys) }
                ?? ServerError(.notFound, "Record not found").json(recordName: name)
        }
        return JSONText.object([("records", JSONText.array(records))])
    }
}
