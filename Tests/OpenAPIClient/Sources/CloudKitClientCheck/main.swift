import Foundation
import OpenAPIRuntime
import OpenAPIURLSession

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Lists zones, queries, creates, updates and deletes records, uploads an asset and asks who the
/// user is, through the client generated from the description, against the server at the URL
/// given. Every answer is decoded by the generated code, so it must fit the description; where
/// the description and Apple's documentation differ, the notes printed at the end say which the
/// server follows. Exits 1 on the first check that fails.
struct CheckFailure: Error, CustomStringConvertible {
    var description: String
}

/// The value, or a failure naming what is missing.
func present<T>(_ value: T?, _ what: String) throws -> T {
    guard let value else { throw CheckFailure(description: "missing: \(what)") }
    return value
}

func check(_ condition: Bool, _ what: String) throws {
    guard condition else { throw CheckFailure(description: "failed: \(what)") }
    print("ok: \(what)")
}

guard CommandLine.arguments.count == 2, let serverURL = URL(string: CommandLine.arguments[1]) else {
    print("usage: CloudKitClientCheck http://127.0.0.1:PORT (a cloudseed serve over the seeded gallery)")
    exit(64)
}
let client = Client(serverURL: serverURL, transport: URLSessionTransport())
let container = "iCloud.com.example.Gallery"

/// The value of a STRING field of a record as the generated client decoded it.
func text(_ record: Components.Schemas.RecordResponse, _ field: String) -> String? {
    if case .StringValue(let text)? = record.fields?.additionalProperties[field]?.value { return text }
    return nil
}

func modify(_ operations: [Components.Schemas.RecordOperation]) async throws -> [Components.Schemas.RecordResponse] {
    let answer = try await client.modifyRecords(
        path: .init(version: "1", container: container, environment: .development, database: ._public),
        body: .json(.init(operations: operations)))
    return try answer.ok.body.json.records ?? []
}

func note(_ type: String, _ fields: [String: Components.Schemas.FieldValueRequest.valuePayload])
    -> Components.Schemas
    .RecordRequest
{
    .init(
        recordName: "client-check", recordType: type,
        fields: .init(additionalProperties: fields.mapValues { .init(value: $0) }))
}

do {
    let zones = try await client.listZones(
        path: .init(version: "1", container: container, environment: .development, database: ._public))
    let zoneNames = try zones.ok.body.json.zones?.compactMap { $0.zoneID?.zoneName } ?? []
    try check(zoneNames == ["_defaultZone"], "zones/list answers the public database's one zone")

    let query = try await client.queryRecords(
        path: .init(version: "1", container: container, environment: .development, database: ._public),
        body: .json(
            .init(
                query: .init(
                    recordType: "Artwork",
                    filterBy: [
                        .init(
                            comparator: .GREATER_THAN, fieldName: "price", fieldValue: .init(value: .Int64Value(1000)))
                    ],
                    sortBy: [.init(fieldName: "title", ascending: true)]),
                desiredKeys: ["title", "price"])))
    let titles = try query.ok.body.json.records?.compactMap { text($0, "title") } ?? []
    try check(
        titles == ["MacKerricher State Park", "Über den Dächern"],
        "records/query with GREATER_THAN on price, sorted by title, answers the two artworks over 1000")

    let unindexed = try await client.queryRecords(
        path: .init(version: "1", container: container, environment: .development, database: ._public),
        body: .json(
            .init(
                query: .init(
                    recordType: "Artwork",
                    filterBy: [
                        .init(comparator: .EQUALS, fieldName: "address", fieldValue: .init(value: .StringValue("x")))
                    ]))))
    try check(
        try unindexed.badRequest.body.json.serverErrorCode == .BAD_REQUEST,
        "a filter on an unindexed field answers 400 BAD_REQUEST in the described error shape")

    let created = try await modify([
        .init(operationType: .create, record: note("Note", ["title": .StringValue("first")]))
    ])
    let tag = try present(created.first?.recordChangeTag, "the created record's recordChangeTag")
    try check(created.first.map { text($0, "title") } == "first", "records/modify creates a record of a new type")

    var update = note("Note", ["title": .StringValue("second")])
    update.recordChangeTag = tag
    let updated = try await modify([.init(operationType: .update, record: update)])
    try check(
        updated.first.map { text($0, "title") } == "second" && updated.first?.recordChangeTag != tag,
        "records/modify updates it with its recordChangeTag")
    let conflict = try await modify([.init(operationType: .update, record: update)])
    try check(
        conflict.first?.recordChangeTag == nil && conflict.first?.recordName == "client-check",
        "an update with a stale recordChangeTag is refused (the record's error decodes as a record with only its name)")

    let upload = try await client.uploadAssets(
        path: .init(version: "1", container: container, environment: .development, database: ._public),
        body: .json(.init(tokens: [.init(recordName: "client-check", recordType: "Note", fieldName: "file")])))
    let uploadURL = try present(try upload.ok.body.json.tokens?.first?.url.flatMap(URL.init(string:)), "an upload URL")
    var post = URLRequest(url: uploadURL)
    post.httpMethod = "POST"
    post.httpBody = Data("asset bytes".utf8)
    let (uploaded, _) = try await URLSession.shared.data(for: post)
    let singleFile = try present(
        (try JSONSerialization.jsonObject(with: uploaded) as? [String: Any])?["singleFile"] as? [String: Any],
        "singleFile in the upload's answer")
    let checksum = try present(singleFile["fileChecksum"] as? String, "the fileChecksum")
    let size = try present(singleFile["size"] as? Int, "the size")
    let withAsset = try await modify([
        .init(
            operationType: .forceUpdate,
            record: note(
                "Note",
                [
                    "file": .AssetValue(
                        .init(fileChecksum: checksum, size: Int64(size), receipt: singleFile["receipt"] as? String))
                ]))
    ])
    try check(
        withAsset.first?.fields?.additionalProperties["file"]?._type == .ASSETID,
        "an uploaded asset saved in a record comes back as an ASSETID field")
    let (downloaded, _) = try await URLSession.shared.data(from: serverURL.appendingPathComponent("assets/\(checksum)"))
    try check(downloaded == Data("asset bytes".utf8), "the asset's bytes download from the server")

    let deleted = try await modify([.init(operationType: .forceDelete, record: .init(recordName: "client-check"))])
    try check(deleted.first?.deleted == true, "records/modify deletes the record")

    let user = try await client.getCurrentUser(
        path: .init(version: "1", container: container, environment: .development, database: ._public))
    try check(try user.ok.body.json.userRecordName == "__defaultOwner__", "users/current answers the acting user")

    print(
        """
        Where the description and Apple's documentation differ, the server follows Apple:
          - FieldValueResponse.type lists no list types; the server answers STRING_LIST and the like, so
            this check asks only for fields of other types.
          - ZoneID has ownerName; the server writes Apple's ownerRecordName, which this client does not read.
          - RecordResponse has no serverErrorCode or reason; a record's error in records/modify decodes as a
            record with only its name.
          - The value oneOf has no discriminator, so every dictionary value decodes as its first object
            case (LocationValue); this check reads an asset's type, not its dictionary.
          - The answer to posting an asset's bytes (singleFile) is not described; it is read as plain JSON.
        """)
} catch {
    print("error: \(error)")
    exit(1)
}
