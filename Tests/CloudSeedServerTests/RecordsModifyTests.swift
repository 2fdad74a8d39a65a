import CloudSeed
import CloudSeedServer
import CloudSeedTestSupport
import Foundation
import Testing

@Suite struct RecordsModifyTests {
    static func path(_ environment: String = "development") -> String {
        "/database/1/iCloud.com.example.Gallery/\(environment)/public/records/modify"
    }

    /// A server whose clock is fixed, so that records' times are known.
    static func server(_ folder: TemporaryFolder) throws -> CloudKitServer {
        try CloudKitServer(store: ContainerStore(folder.path("cloudseed.sqlite")), now: { 1_800_000_000_000 })
    }

    static func artists(_ folder: TemporaryFolder) throws -> [CloudRecord] {
        try ContainerStore(folder.path("cloudseed.sqlite")).records(
            in: StoreScope(container: "iCloud.com.example.Gallery"), ofType: "Artist")
    }

    /// Acceptance 2: an update with a stale recordChangeTag answers CONFLICT with the server's record, and changes nothing.
    @Test func refusesAStaleChangeTagAndChangesNothing() async throws {
        let folder = try RecordsQueryTests.seededGallery()
        let before = try Self.artists(folder)
        let stored = try #require(before.first { $0.recordID.recordName == "Mei Chen" })
        try await RunningServer.with(try Self.server(folder)) { server in
            let answer = try await server.post(
                Self.path(),
                #"{"operations":[{"operationType":"update","record":{"recordName":"Mei Chen","recordType":"Artist","recordChangeTag":"stale","fields":{"nationality":{"value":"Dutch"}}}}]}"#
            )
            #expect(answer.status == 200)
            let records = try #require(try answer.object()["records"] as? [[String: Any]])
            #expect(records.count == 1)
            #expect(records[0]["recordName"] as? String == "Mei Chen")
            #expect(records[0]["serverErrorCode"] as? String == "CONFLICT")
            let serverRecord = try #require(records[0]["serverRecord"] as? [String: Any])
            #expect(serverRecord["recordChangeTag"] as? String == stored.system.changeTag)
            let fields = try #require(serverRecord["fields"] as? [String: [String: Any]])
            #expect(fields["nationality"]?["value"] as? String == "Taiwanese")
        }
        #expect(try Self.artists(folder) == before)
    }

    @Test func updatesWithTheCurrentChangeTag() async throws {
        let folder = try RecordsQueryTests.seededGallery()
        let stored = try #require(try Self.artists(folder).first { $0.recordID.recordName == "Mei Chen" })
        try await RunningServer.with(try Self.server(folder)) { server in
            let answer = try await server.post(
                Self.path(),
                #"{"operations":[{"operationType":"update","record":{"recordName":"Mei Chen","recordType":"Artist","recordChangeTag":"\#(stored.system.changeTag)","fields":{"nationality":{"value":"Dutch"}}}}]}"#
            )
            let record = try #require((try answer.object()["records"] as? [[String: Any]])?.first)
            #expect(record["serverErrorCode"] == nil)
            #expect(record["recordChangeTag"] as? String != stored.system.changeTag)
            #expect((record["modified"] as? [String: Any])?["timestamp"] as? Int == 1_800_000_000_000)
        }
        let after = try #require(try Self.artists(folder).first { $0.recordID.recordName == "Mei Chen" })
        #expect(after.fields["nationality"] == .string("Dutch"))
        #expect(after.fields["firstName"] == stored.fields["firstName"])
    }

    /// Acceptance 2: a record of a new type is created just in time in development, and refused in production.
    @Test func createsANewTypeInDevelopmentOnly() async throws {
        let folder = try RecordsQueryTests.seededGallery()
        let create =
            #"{"operations":[{"operationType":"create","record":{"recordName":"Thinker","recordType":"Sculpture","fields":{"title":{"value":"The Thinker"},"height":{"value":1.86}}}}]}"#
        try await RunningServer.with(try Self.server(folder)) { server in
            let production = try await server.post(Self.path("production"), create)
            let refusal = try #require((try production.object()["records"] as? [[String: Any]])?.first)
            #expect(refusal["serverErrorCode"] as? String == "BAD_REQUEST")
            #expect(
                refusal["reason"] as? String
                    == "Cannot create new type Sculpture in production schema; import into the development environment, where types are created just in time"
            )
            let development = try await server.post(Self.path(), create)
            let created = try #require((try development.object()["records"] as? [[String: Any]])?.first)
            #expect(created["serverErrorCode"] == nil)
            #expect(created["recordType"] as? String == "Sculpture")
            let fields = try #require(created["fields"] as? [String: [String: Any]])
            #expect(fields["height"]?["type"] as? String == "DOUBLE")
            #expect(fields["title"]?["type"] as? String == "STRING")
            let again = try await server.post(Self.path(), create)
            let exists = try #require((try again.object()["records"] as? [[String: Any]])?.first)
            #expect(exists["serverErrorCode"] as? String == "EXISTS")
            let otherType = try await server.post(
                Self.path(),
                #"{"operations":[{"operationType":"forceUpdate","record":{"recordName":"Thinker","recordType":"Artist","fields":{}}}]}"#
            )
            let refused = try #require((try otherType.object()["records"] as? [[String: Any]])?.first)
            #expect(refused["serverErrorCode"] as? String == "BAD_REQUEST")
        }
        let store = try ContainerStore(folder.path("cloudseed.sqlite"))
        #expect(try store.schema(of: "iCloud.com.example.Gallery", environment: .production).recordTypes.isEmpty)
        let sculptures = try store.records(in: StoreScope(container: "iCloud.com.example.Gallery"), ofType: "Sculpture")
        #expect(sculptures.map(\.recordID.recordName) == ["Thinker"])
    }

    @Test func deletesWithTheChangeTagAndAnswersNotFoundAfter() async throws {
        let folder = try RecordsQueryTests.seededGallery()
        let stored = try #require(try Self.artists(folder).first { $0.recordID.recordName == "Tomas Ortega" })
        try await RunningServer.with(try Self.server(folder)) { server in
            let delete =
                #"{"operations":[{"operationType":"delete","record":{"recordName":"Tomas Ortega","recordChangeTag":"\#(stored.system.changeTag)"}}]}"#
            let answer = try await server.post(Self.path(), delete)
            let deleted = try #require((try answer.object()["records"] as? [[String: Any]])?.first)
            #expect(deleted["deleted"] as? Bool == true)
            let again = try await server.post(Self.path(), delete)
            let missing = try #require((try again.object()["records"] as? [[String: Any]])?.first)
            #expect(missing["serverErrorCode"] as? String == "NOT_FOUND")
        }
        #expect(try Self.artists(folder).map(\.recordID.recordName).contains("Tomas Ortega") == false)
    }

    @Test func checksValidateReferences() async throws {
        let database = "/database/1/iCloud.com.example.Notes/development/private/records/modify"
        try await RunningServer.with(try CloudKitServer(store: ContainerStore.inMemory(), user: "_alice")) { server in
            let link =
                #"{"operations":[{"operationType":"create","record":{"recordName":"child","recordType":"Note","fields":{"parent":{"value":{"recordName":"parent","action":"VALIDATE"}}}}}]}"#
            let dangling = try await server.post(database, link)
            let refusal = try #require((try dangling.object()["records"] as? [[String: Any]])?.first)
            #expect(refusal["serverErrorCode"] as? String == "VALIDATING_REFERENCE_ERROR")
            _ = try await server.post(
                database,
                #"{"operations":[{"operationType":"create","record":{"recordName":"parent","recordType":"Note","fields":{}}}]}"#
            )
            let linked = try await server.post(database, link)
            #expect((try linked.object()["records"] as? [[String: Any]])?.first?["serverErrorCode"] == nil)
            let delete = try await server.post(
                database, #"{"operations":[{"operationType":"forceDelete","record":{"recordName":"parent"}}]}"#)
            let kept = try #require((try delete.object()["records"] as? [[String: Any]])?.first)
            #expect(kept["serverErrorCode"] as? String == "VALIDATING_REFERENCE_ERROR")
        }
    }

    @Test func refusesARecordOverOneMegabyte() async throws {
        let text = String(repeating: "x", count: 1_100_000)
        try await RunningServer.with(try CloudKitServer(store: ContainerStore.inMemory())) { server in
            let answer = try await server.post(
                "/database/1/iCloud.com.example.Notes/development/public/records/modify",
                #"{"operations":[{"operationType":"create","record":{"recordName":"big","recordType":"Note","fields":{"text":{"value":"\#(text)"}}}}]}"#
            )
            let refusal = try #require((try answer.object()["records"] as? [[String: Any]])?.first)
            #expect(refusal["serverErrorCode"] as? String == "QUOTA_EXCEEDED")
            #expect(
                refusal["reason"] as? String
                    == "record 'big' of type Note is 1100000 bytes, over CloudKit's limit of 1048576 bytes; move large values into an ASSET field"
            )
        }
    }

    @Test func refusesAWriteTheGrantsDoNotAllow() async throws {
        let folder = try RecordsQueryTests.seededGallery()
        let server = try CloudKitServer(store: ContainerStore(folder.path("cloudseed.sqlite")), user: "_bob")
        try await RunningServer.with(server) { server in
            let answer = try await server.post(
                Self.path(),
                #"{"operations":[{"operationType":"forceUpdate","record":{"recordName":"Mei Chen","recordType":"Artist","fields":{"nationality":{"value":"Dutch"}}}}]}"#
            )
            let refusal = try #require((try answer.object()["records"] as? [[String: Any]])?.first)
            #expect(refusal["serverErrorCode"] as? String == "ACCESS_DENIED")
        }
    }
}
