import CloudSeed
import Foundation

/// `records/modify`: `operations[{operationType, record}]`, `zoneID`, `atomic`, `desiredKeys`, in
/// one transaction through the library's ``RecordModification``; each operation answers its
/// record, `{recordName, deleted: true}`, or its error. The body is read and the answer written
/// off the worker, so that the next request's are made while the store saves this one's.
enum RecordsModify {
    /// The most operations one request may hold, CloudKit's limit.
    static let maximumOperations = 200

    static func answer(_ request: DatabaseRequest, worker: StoreWorker, now: Int64) async throws -> String {
        let body = try request.read(ModifyRequest.init(parsing:))
        guard let operations = body.operations else {
            throw ServerError(.badRequest, "the request needs operations, as [{\"operationType\": …, \"record\": …}]")
        }
        guard operations.count <= maximumOperations else {
            throw ServerError(.badRequest, "a request holds at most \(maximumOperations) operations")
        }
        let modification = RecordModification(
            scope: request.scope(zoneID: body.zoneID), user: request.user, now: now, atomic: body.atomic ?? true)
        let outcomes = try await worker.run { try modification.apply(operations, to: $0) }
        let desiredKeys = body.desiredKeys.map(Set.init)
        var answer = Array(#"{"records":["#.utf8)
        for (offset, outcome) in outcomes.enumerated() {
            if offset > 0 { answer.append(UInt8(ascii: ",")) }
            switch outcome {
            case .saved(let record): request.appendJSON(record, desiredKeys: desiredKeys, to: &answer)
            case .deleted(let name):
                answer += JSONText.object([("recordName", JSONText.quoted(name)), ("deleted", "true")]).utf8
            case .refused(let name, let refusal): answer += json(of: refusal, recordName: name, request: request).utf8
            }
        }
        answer += "]}".utf8
        return String(decoding: answer, as: UTF8.self)
    }

    /// A refused operation's error dictionary; a CONFLICT carries the stored record as `serverRecord`.
    private static func json(of refusal: RecordModification.Refusal, recordName: String, request: DatabaseRequest)
        -> String
    {
        switch refusal {
        case .exists:
            ServerError(.exists, "record to insert already exists").json(recordName: recordName)
        case .conflict(let serverRecord):
            ServerError(
                .conflict,
                "record was changed on the server: the recordChangeTag given is not '\(serverRecord.system.changeTag)'"
            ).json(recordName: recordName, extra: [("serverRecord", request.json(serverRecord))])
        case .notFound:
            ServerError(.notFound, "Record not found").json(recordName: recordName)
        case .atomicFailure:
            ServerError(.atomicError, "another operation of this atomic request failed").json(recordName: recordName)
        case .invalid(let error):
            ServerError(error).json(recordName: recordName)
        }
    }
}
