import CloudSeed
import CloudSeedServer
import CloudSeedTestSupport
import Foundation
import Testing

@Suite struct ChangesTests {
    static let database = "/database/1/iCloud.com.example.Notes/development/private"
    static let notes = #""zoneID":{"zoneName":"Notes"}"#

    static func records(_ answer: RunningServer.Answer) throws -> [[String: Any]] {
        try #require(try answer.object()["records"] as? [[String: Any]])
    }

    @Test(arguments: BackendKind.testable) func createsAZoneFollowsItsChangesAndDeletesIt(_ backend: BackendKind)
        async throws
    {
        let testStore = try TestStore(backend)
        let store = try ContainerStore(testStore.location)
        try await RunningServer.with(try CloudKitServer(store: store, user: "_alice")) { server in
            let created = try await server.post(
                Self.database + "/zones/modify",
                #"{"operations":[{"operationType":"create","zone":{\#(Self.notes)}}]}"#)
            #expect(
                created.body == #"{"zones":[{"zoneID":{"zoneName":"Notes","ownerRecordName":"_alice"},"atomic":true}]}"#
            )
            let list = try await server.get(Self.database + "/zones/list")
            #expect(list.body.contains(#""zoneName":"Notes""#))

            _ = try await server.post(
                Self.database + "/records/modify",
                #"{\#(Self.notes),"operations":[{"operationType":"create","record":{"recordName":"a","recordType":"Note","fields":{"text":{"value":"one"}}}},{"operationType":"create","record":{"recordName":"b","recordType":"Note","fields":{"text":{"value":"two"}}}}]}"#
            )
            let first = try await server.post(Self.database + "/records/changes", #"{\#(Self.notes)}"#)
            #expect(try Self.records(first).map { $0["recordName"] as? String } == ["a", "b"])
            let token = try #require(try first.object()["syncToken"] as? String)
            #expect(try first.object()["moreComing"] as? Bool == false)

            let deleted = try await server.post(
                Self.database + "/records/modify",
                #"{\#(Self.notes),"operations":[{"operationType":"forceDelete","record":{"recordName":"a"}}]}"#)
            #expect(try Self.records(deleted).first?["deleted"] as? Bool == true)
            let second = try await server.post(
                Self.database + "/records/changes", #"{\#(Self.notes),"syncToken":"\#(token)"}"#)
            let changes = try Self.records(second)
            #expect(changes.count == 1)
            #expect(changes.first?["recordName"] as? String == "a")
            #expect(changes.first?["deleted"] as? Bool == true)
            let latest = try #require(try second.object()["syncToken"] as? String)
            let none = try await server.post(
                Self.database + "/records/changes", #"{\#(Self.notes),"syncToken":"\#(latest)"}"#)
            #expect(try Self.records(none).isEmpty)

            let databaseChanges = try await server.post(Self.database + "/changes/database", "{}")
            let zones = try #require(try databaseChanges.object()["zones"] as? [[String: Any]])
            #expect(zones.compactMap { ($0["zoneID"] as? [String: Any])?["zoneName"] as? String } == ["Notes"])
            let since = try #require(try databaseChanges.object()["syncToken"] as? String)
            let nothing = try await server.post(Self.database + "/changes/database", #"{"syncToken":"\#(since)"}"#)
            #expect(try nothing.object()["zones"] as? [Any] != nil)
            #expect((try nothing.object()["zones"] as? [Any])?.isEmpty == true)

            let removed = try await server.post(
                Self.database + "/zones/modify",
                #"{"operations":[{"operationType":"delete","zone":{\#(Self.notes)}}]}"#)
            #expect(removed.body.contains(#""deleted":true"#))
            let gone = try await server.post(Self.database + "/records/changes", #"{\#(Self.notes)}"#)
            #expect(gone.status == 404)
            #expect(try gone.object()["serverErrorCode"] as? String == "ZONE_NOT_FOUND")
            let afterDeletion = try await server.post(
                Self.database + "/changes/database", #"{"syncToken":"\#(since)"}"#)
            #expect(
                afterDeletion.body.hasPrefix(
                    #"{"zones":[{"zoneID":{"zoneName":"Notes","ownerRecordName":"_alice"},"deleted":true}],"syncToken":""#
                ))
            // The zone made again is no longer deleted.
            _ = try await server.post(
                Self.database + "/zones/modify",
                #"{"operations":[{"operationType":"create","zone":{\#(Self.notes)}}]}"#)
            let remade = try await server.post(Self.database + "/changes/database", #"{"syncToken":"\#(since)"}"#)
            #expect(!remade.body.contains("deleted"))
        }
    }

    @Test func refusesAnAtomicRequestWholeInACustomZone() async throws {
        try await RunningServer.with(try CloudKitServer(store: ContainerStore.inMemory(), user: "_alice")) { server in
            _ = try await server.post(
                Self.database + "/zones/modify",
                #"{"operations":[{"operationType":"create","zone":{\#(Self.notes)}}]}"#)
            let answer = try await server.post(
                Self.database + "/records/modify",
                #"{\#(Self.notes),"operations":[{"operationType":"create","record":{"recordName":"a","recordType":"Note","fields":{"text":{"value":"one"}}}},{"operationType":"update","record":{"recordName":"missing","recordType":"Note","recordChangeTag":"1","fields":{}}}]}"#
            )
            let records = try Self.records(answer)
            #expect(records.map { $0["serverErrorCode"] as? String } == ["ATOMIC_ERROR", "NOT_FOUND"])
            let changes = try await server.post(Self.database + "/records/changes", #"{\#(Self.notes)}"#)
            #expect(try Self.records(changes).isEmpty)
        }
    }
}
