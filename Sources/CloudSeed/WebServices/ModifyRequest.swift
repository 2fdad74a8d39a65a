package import CloudKitWire

/// The body of a `records/modify` request, read as it streams: each operation's record is read
/// straight into a row of its fields, without a tree of the whole body, so that a request of 200
/// records is read in one pass.
package struct ModifyRequest: Sendable {
    /// `zoneID` as the request gives it; `nil` for the default zone.
    package var zoneID: WebServicesJSON?
    /// `atomic`, where the request gives it.
    package var atomic: Bool?
    /// `desiredKeys`, where the request gives it: the fields each saved record is answered with.
    package var desiredKeys: [String]?
    /// `operations`; `nil` where the request has none.
    package var operations: [RecordModification.Operation]?

    /// Reads a body; throws where it is not JSON, not an object of operations, or an operation
    /// is not `{operationType, record}`. A record whose fields cannot be read is not thrown: its
    /// operation carries the error, for the server to refuse that one record.
    package init(parsing bytes: [UInt8]) throws {
        guard bytes.contains(where: { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }) else { return }
        var parser = JSONParser(input: ChunkedInput(bytes: bytes), file: "request")
        guard try parser.peekValue() == .object else {
            try parser.skipValue()
            try parser.finish()
            return
        }
        _ = try parser.beginObject()
        var keys = DistinctKeys()
        while let key = try parser.nextMember(&keys, expected: Self.requestKeys) {
            switch key {
            case "zoneID": zoneID = WebServicesJSON(try parser.readValue())
            case "atomic": atomic = WebServicesJSON(try parser.readValue()).bool
            case "desiredKeys": desiredKeys = WebServicesJSON(try parser.readValue()).items?.compactMap(\.string)
            case "operations" where try parser.peekValue() == .array:
                var operations: [RecordModification.Operation] = []
                _ = try parser.beginArray()
                while try parser.nextElement() { operations.append(try Self.operation(&parser)) }
                self.operations = operations
            default: try parser.skipValue()
            }
        }
        try parser.finish()
    }

    private static let requestKeys = ExpectedKeys("zoneID", "atomic", "desiredKeys", "operations")
    private static let operationKeys = ExpectedKeys("operationType", "record")

    /// One element of `operations`: `{"operationType": …, "record": {…}}`.
    private static func operation(_ parser: inout JSONParser) throws -> RecordModification.Operation {
        guard try parser.peekValue() == .object else {
            throw CloudSeedError(
                .malformedSource, "each operation must be an object {\"operationType\": …, \"record\": …}",
                at: try parser.readValue().position)
        }
        let position = try parser.beginObject()
        var keys = DistinctKeys()
        var typeName: String?
        var record: RecordDictionary?
        while let key = try parser.nextMember(&keys, expected: Self.operationKeys) {
            switch key {
            case "operationType": typeName = try parser.readValue().stringValue
            case "record":
                guard try parser.peekValue() == .object else {
                    throw CloudSeedError(.malformedSource, "each operation needs a record dictionary", at: position)
                }
                record = try RecordDictionary(&parser)
            default: try parser.skipValue()
            }
        }
        guard let type = RecordModification.OperationType(rawValue: typeName ?? "") else {
            let known = RecordModification.OperationType.allCases.map(\.rawValue).joined(separator: ", ")
            throw CloudSeedError(
                .malformedSource, "unknown operationType '\(typeName ?? "")'; use one of \(known)", at: position)
        }
        guard let record else {
            throw CloudSeedError(.malformedSource, "each operation needs a record dictionary", at: position)
        }
        return RecordModification.Operation(
            type: type, recordName: record.recordName, recordType: record.recordType, changeTag: record.changeTag,
            fields: record.row)
    }
}

/// A record dictionary of a request, `{recordName, recordType, recordChangeTag, fields}`, its
/// other members (`created`, `zoneID`, …) passed over.
private struct RecordDictionary {
    var recordName: String?
    var recordType: String?
    var changeTag: String?
    /// The fields as a row, or the first error in them.
    var row: Result<SourceRow, CloudSeedError>

    init(_ parser: inout JSONParser) throws {
        let position = try parser.beginObject()
        var keys = DistinctKeys()
        var fields: [SourceField] = []
        var error: CloudSeedError?
        while let key = try parser.nextMember(&keys, expected: Self.recordKeys) {
            switch key {
            case "recordName": recordName = try parser.readValue().stringValue
            case "recordType": recordType = try parser.readValue().stringValue
            case "recordChangeTag": changeTag = try parser.readValue().stringValue
            case "fields":
                guard try parser.peekValue() == .object else {
                    let node = try parser.readValue()
                    error = CloudSeedError(
                        .malformedSource, "the record's fields must be an object {\"name\": {\"value\": …}}",
                        at: node.position)
                    continue
                }
                _ = try parser.beginObject()
                var fieldKeys = DistinctKeys()
                while let field = try parser.nextMember(&fieldKeys) {
                    switch try Self.field(field, &parser) {
                    case .success(let field): fields.append(field)
                    case .failure(let fieldError): error = error ?? fieldError
                    }
                }
            default: try parser.skipValue()
            }
        }
        if let error {
            row = .failure(error)
        } else {
            row = .success(
                SourceRow(
                    recordType: recordType, recordName: recordName, fields: fields, position: position,
                    changeTag: changeTag))
        }
    }

    /// The keys of a record dictionary: those read, then those of an exported record, passed over.
    private static let recordKeys = ExpectedKeys(
        "recordName", "recordType", "recordChangeTag", "fields", "created", "modified", "zoneID")
    private static let fieldKeys = ExpectedKeys("value", "type")

    /// One member of `fields`, `{"value": …, "type": …}`, or what is wrong with it; throws only
    /// where the request is not JSON.
    private static func field(_ key: String, _ parser: inout JSONParser) throws -> Result<SourceField, CloudSeedError> {
        var value: DocumentNode?
        var type: DocumentNode?
        let position: SourcePosition
        if try parser.peekValue() == .object {
            position = try parser.beginObject()
            var keys = DistinctKeys()
            while let member = try parser.nextMember(&keys, expected: Self.fieldKeys) {
                switch member {
                case "value": value = try parser.readValue()
                case "type": type = try parser.readValue()
                default: try parser.skipValue()
                }
            }
        } else {
            position = try parser.readValue().position  // which has no value: cloudKitField says so
        }
        return Result { try DocumentShape.cloudKitField(key: key, value: value, type: type, at: position) }
            .mapError { $0 as? CloudSeedError ?? CloudSeedError(.malformedSource, "\($0)") }
    }
}
