import Testing

@testable import CloudKitWire
@testable import CloudSeed
@testable import CloudSeedCore
@testable import CloudSeedReaders
@testable import CloudSeedSchema
@testable import CloudSeedStore

@Suite struct ModifyAnswerTests {
    @Test func readsEachOperationsChangeTagOrErrorInOrder() throws {
        let answer = try ModifyAnswer(
            parsing: Array(
                #"""
                {"records":[
                 {"recordName":"Item 1","recordType":"Item","recordChangeTag":"2a","fields":{"tags":{"value":["a",{"b":[1,2.5,null,true]}],"type":"STRING_LIST"}},
                  "created":{"timestamp":1700000000000,"userRecordName":"__defaultOwner__"},"zoneID":{"zoneName":"_defaultZone"}},
                 {"recordName":"Item 2","serverErrorCode":"THROTTLED","reason":"slow down \"now\"","retryAfter":3},
                 "not a record"
                ],"extra":{"records":[]}}
                """#.utf8))
        let outcomes = try #require(answer.outcomes)
        #expect(outcomes.count == 3)
        #expect(outcomes[0].changeTag == "2a")
        #expect(outcomes[0].serverErrorCode == nil)
        #expect(outcomes[1].serverErrorCode == "THROTTLED" && outcomes[1].reason == #"slow down "now""#)
        #expect(outcomes[1].retryAfter == 3)
        #expect(outcomes[2].changeTag == nil && outcomes[2].serverErrorCode == nil)
    }

    @Test func anAnswerWithoutRecordsHasNoOutcomesAndOneThatIsNotJSONIsRefused() throws {
        #expect(try ModifyAnswer(parsing: Array(#"{"zones":[]}"#.utf8)).outcomes == nil)
        #expect(try ModifyAnswer(parsing: Array("[1]".utf8)).outcomes == nil)
        #expect(throws: CloudSeedError.self) { try ModifyAnswer(parsing: Array("<html>".utf8)) }
        #expect(throws: CloudSeedError.self) { try ModifyAnswer(parsing: Array(#"{"records":[{"a":}]}"#.utf8)) }
    }
}
