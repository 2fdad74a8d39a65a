import Testing

@testable import CloudSeed
@testable import CloudSeedCore
@testable import CloudSeedReaders
@testable import CloudSeedSchema
@testable import CloudSeedStore

@Suite struct ModifyRequestTests {
    @Test func readsEachOperationsRecordAsARowAndPassesOverTheRest() throws {
        let request = try ModifyRequest(
            parsing: Array(
                #"""
                {"zoneID":{"zoneName":"Notes"},"atomic":false,"desiredKeys":["title"],"numbersAsStrings":[1,{"a":"\u00e9"}],
                 "operations":[
                  {"operationType":"forceUpdate","record":{"recordName":"Item 1","recordType":"Item","recordChangeTag":"2a",
                   "created":{"timestamp":1},"fields":{"title":{"value":"Zoë","type":"STRING"},"count":{"value":3},
                   "owner":{"value":{"recordName":"Ann","action":"NONE"}}}}},
                  {"record":{"recordName":"Item 2","fields":{"title":{"type":"STRING"},"price":{"value":"x","type":"MONEY"}}},
                   "operationType":"delete"}
                 ]}
                """#.utf8))
        #expect(request.zoneID?["zoneName"]?.string == "Notes")
        #expect(request.atomic == false)
        #expect(request.desiredKeys == ["title"])
        let operations = try #require(request.operations)
        #expect(operations.count == 2)
        #expect(operations[0].type == .forceUpdate && operations[0].recordName == "Item 1")
        #expect(operations[0].recordType == "Item" && operations[0].changeTag == "2a")
        let row = try operations[0].fields.get()
        #expect(row.fields.map(\.key) == ["title", "count", "owner"])
        #expect(row.fields.map(\.declaredType) == [.string, nil, .reference])
        #expect(row.fields[0].value == .string("Zoë"))
        #expect(row.fields[0].position.description == "request:4:57")
        #expect(operations[1].type == .delete && operations[1].recordType == nil)
        // The first field that cannot be read is the record's error; the request reads on.
        #expect(throws: CloudSeedError.self) { try operations[1].fields.get() }
        guard case .failure(let error) = operations[1].fields else { return }
        #expect(error.message == #"field 'title' of a CloudKit record needs a dictionary {"value": ..., "type": ...}"#)
    }

    @Test func aKeyWrittenWithAnEscapeIsTheSameKeyAndMayNotRepeat() throws {
        let escaped = try ModifyRequest(
            parsing: Array(
                #"{"operations":[{"operationType":"create","record":{"recordN\u0061me":"A","recordType":"T","fields":{"x":{"v\u0061lue":1}}}}]}"#
                    .utf8))
        let operation = try #require(escaped.operations?.first)
        #expect(operation.recordName == "A")
        #expect(try operation.fields.get().fields.map(\.value) == [.integer(1)])
        for (body, message) in [
            (
                #"{"operations":[{"operationType":"create","record":{"recordName":"A","recordN\u0061me":"B"}}]}"#,
                #"request:1:69: duplicate key "recordName" in one object; keep one of them"#
            ),
            (
                #"{"operations":[{"operationType":"create","operationType":"delete","record":{}}]}"#,
                #"request:1:42: duplicate key "operationType" in one object; keep one of them"#
            ),
        ] {
            let error = #expect(throws: CloudSeedError.self) { try ModifyRequest(parsing: Array(body.utf8)) }
            #expect(error?.description == message)
        }
    }

    @Test func refusesARequestWhoseOperationsAreNotOperations() throws {
        #expect(try ModifyRequest(parsing: Array("  ".utf8)).operations == nil)
        #expect(try ModifyRequest(parsing: Array(#"{"operations":{}}"#.utf8)).operations == nil)
        let unknown = #expect(throws: CloudSeedError.self) {
            try ModifyRequest(parsing: Array(#"{"operations":[{"operationType":"upsert","record":{}}]}"#.utf8))
        }
        #expect(
            unknown?.description.hasSuffix(
                "unknown operationType 'upsert'; use one of create, update, forceUpdate, replace, forceReplace, delete, forceDelete"
            ) == true)
        let noRecord = #expect(throws: CloudSeedError.self) {
            try ModifyRequest(parsing: Array(#"{"operations":[{"operationType":"create","record":[]}]}"#.utf8))
        }
        #expect(noRecord?.message == "each operation needs a record dictionary")
        #expect(throws: CloudSeedError.self) {
            try ModifyRequest(parsing: Array(#"{"operations":[{"operationType":"create","record":{"a":}}]}"#.utf8))
        }
    }

    @Test func theOperationsOfARequestSeeEachOthersSavesAndDeletes() throws {
        let store = try ContainerStore.inMemory()
        func apply(_ operations: String) throws -> [String] {
            let request = try ModifyRequest(parsing: Array(#"{"operations":[\#(operations)]}"#.utf8))
            return try RecordModification(scope: StoreScope(), user: "_me", now: 1).apply(
                request.operations ?? [], to: store
            ).map { outcome in
                switch outcome {
                case .saved(let record): "saved \(record.recordType) \(record.recordID.recordName)"
                case .deleted(let name): "deleted \(name)"
                case .refused(let name, let refusal): "refused \(name): \(refusal)"
                }
            }
        }
        let venus = #"{"recordName":"Venus","recordType":"Sculpture","fields":{"title":{"value":"Venus"}}}"#
        let asArtist = #"{"recordName":"Venus","recordType":"Artist","fields":{}}"#
        #expect(
            try apply(
                #"{"operationType":"create","record":\#(venus)},{"operationType":"create","record":\#(venus)},"#
                    + #"{"operationType":"forceUpdate","record":\#(asArtist)}"#)
                == [
                    "saved Sculpture Venus", "refused Venus: exists",
                    #"refused Venus: invalid(record 'Venus' is of type Sculpture, not Artist; a record name is unique in its zone)"#,
                ])
        #expect(
            try apply(
                #"{"operationType":"forceDelete","record":{"recordName":"Venus"}},"#
                    + #"{"operationType":"forceUpdate","record":\#(asArtist)}"#)
                == ["deleted Venus", "saved Artist Venus"])
        #expect(try store.records(in: StoreScope()).map(\.recordType) == ["Artist"])
    }
}
