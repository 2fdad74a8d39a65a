import CloudSeed
import CloudSeedServer
import CloudSeedTestSupport
import Foundation
import Testing

@Suite struct AssetsTests {
    static let database = "/database/1/iCloud.com.example.Notes/development/private"

    @Test func uploadsBytesSavesThemInARecordAndServesThemBack() async throws {
        try await RunningServer.with(try CloudKitServer(store: ContainerStore.inMemory(), user: "_alice")) { server in
            let tokens = try await server.post(
                Self.database + "/assets/upload", #"{"tokens":[{"recordType":"Note","fieldName":"file"}]}"#)
            let token = try #require((try tokens.object()["tokens"] as? [[String: Any]])?.first)
            let url = try #require(token["url"] as? String)
            let upload = try await server.send(url, method: "POST", body: Data("hello asset".utf8), headers: [:])
            let singleFile = try #require(try upload.object()["singleFile"] as? [String: Any])
            let checksum = try #require(singleFile["fileChecksum"] as? String)
            #expect(checksum == "2d5eebd03955939c6aa7ad07292cc6e13934da502e92581ac55fa20c6986c7fb")
            #expect(singleFile["size"] as? Int == 11)

            let save = try await server.post(
                Self.database + "/records/modify",
                #"{"operations":[{"operationType":"create","record":{"recordName":"n1","recordType":"Note","fields":{"file":{"value":{"fileChecksum":"\#(checksum)","size":11,"receipt":"\#(checksum)"}}}}}]}"#
            )
            #expect(save.body.contains(#""downloadURL":"\#(server.baseURL)/assets/\#(checksum)""#))
            let lookup = try await server.post(Self.database + "/records/lookup", #"{"records":[{"recordName":"n1"}]}"#)
            #expect(lookup.body.contains(#""type":"ASSETID""#))
            let download = try await server.get("/assets/\(checksum)")
            #expect(String(decoding: download.data, as: UTF8.self) == "hello asset")

            let unknown = String(repeating: "0", count: 64)
            let refused = try await server.post(
                Self.database + "/records/modify",
                #"{"operations":[{"operationType":"create","record":{"recordName":"n2","recordType":"Note","fields":{"file":{"value":{"fileChecksum":"\#(unknown)","size":1}}}}}]}"#
            )
            let error = try #require((try refused.object()["records"] as? [[String: Any]])?.first)
            #expect(error["serverErrorCode"] as? String == "BAD_REQUEST")
            #expect(try await server.get("/assets/\(unknown)").status == 404)
        }
    }
}
