import CloudSeedReaders

/// What a `records/modify` answer says of each operation, read without keeping the records it
/// returns: a client that sent them needs only each one's change tag, or its error.
package struct ModifyAnswer: Sendable {
    /// One operation's outcome: the record's change tag, or CloudKit's error for it.
    package struct Outcome: Sendable {
        package var changeTag: String?
        package var serverErrorCode: String?
        package var reason: String?
        /// Seconds to wait before trying again, where the server says.
        package var retryAfter: Double?
    }

    /// The outcomes in the order of the operations; `nil` where the answer has no `records` array.
    package var outcomes: [Outcome]?

    /// Reads an answer's bytes; throws where they are not JSON.
    package init(parsing bytes: [UInt8]) throws {
        var parser = JSONParser(input: ChunkedInput(bytes: bytes), file: "answer")
        guard try parser.peekValue() == .object else {
            try parser.skipValue()
            try parser.finish()
            return
        }
        _ = try parser.beginObject()
        while let (key, _) = try parser.nextKey() {
            guard key == "records", try parser.peekValue() == .array else {
                try parser.skipValue()
                continue
            }
            var outcomes: [Outcome] = []
            _ = try parser.beginArray()
            while try parser.nextElement() {
                outcomes.append(try Self.outcome(&parser))
            }
            self.outcomes = outcomes
        }
        try parser.finish()
    }

    /// One element of `records`: a record dictionary, or an error dictionary.
    private static func outcome(_ parser: inout JSONParser) throws -> Outcome {
        var outcome = Outcome()
        guard try parser.peekValue() == .object else {
            try parser.skipValue()
            return outcome
        }
        _ = try parser.beginObject()
        var keys = DistinctKeys()
        while let key = try parser.nextMember(&keys, expected: Self.outcomeKeys) {
            switch key {
            case "recordChangeTag": outcome.changeTag = try parser.readValue().stringValue
            case "serverErrorCode": outcome.serverErrorCode = try parser.readValue().stringValue
            case "reason": outcome.reason = try parser.readValue().stringValue
            case "retryAfter": outcome.retryAfter = WebServicesJSON(try parser.readValue()).number
            default: try parser.skipValue()
            }
        }
        return outcome
    }

    /// The keys of a saved record's dictionary or of an error's: those read, then those passed over.
    private static let outcomeKeys = ExpectedKeys(
        "recordChangeTag", "serverErrorCode", "reason", "retryAfter", "recordName", "recordType", "fields",
        "created", "modified", "zoneID", "uuid", "deleted")
}
