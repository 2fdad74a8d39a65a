import CloudSeed
import CloudSeedClient
import CloudSeedServer
import CloudSeedTestSupport
import Crypto
import Foundation
import Testing

/// `push` through a server that fails as CloudKit may, and the signature of what it sends.
@Suite struct PushTests {
    let folder: TemporaryFolder
    let key = P256.Signing.PrivateKey()

    init() throws {
        folder = try TemporaryFolder()
    }

    /// A store holding `count` records of type Item, named `Item 0`, `Item 1`, ….
    func localStore(count: Int) throws -> ContainerStore {
        let rows = (0..<count).map { "Item \($0),\($0 % 7)" }.joined(separator: "\n")
        let file = try folder.write("items.csv", "title,priority\n" + rows + "\n")
        let store = try ContainerStore(folder.path("local.sqlite"))
        _ = try Importer(store: store, scope: StoreScope()).run([SourceFile(path: file, recordType: "Item")])
        return store
    }

    func client(_ endpoint: String, retry: RetryPolicy = RetryPolicy()) throws -> WebServicesClient {
        WebServicesClient(
            database: database(endpoint),
            credentials: try .serverKey(id: "test-key", pem: key.pemRepresentation), retry: retry)
    }

    func database(_ endpoint: String) -> CloudKitDatabase {
        CloudKitDatabase(
            endpoint: URL(string: endpoint)!, container: StoreScope.defaultContainer, environment: .development,
            database: .public)
    }

    @Test func everyRecordIsSavedOnceThroughThrottlingUnavailabilityAndADroppedConnection() async throws {
        let store = try localStore(count: 450)
        let served = try ContainerStore.inMemory()
        let server = try CloudKitServer(store: served, serverKey: key.publicKey.pemRepresentation)
        try await RunningServer.with(server) { server in
            let faulty = try FaultyServer(
                upstream: server.baseURL, faults: [.throttled(retryAfter: 1), .unavailable, .dropAfterForwarding])
            defer { faulty.stop() }
            let pusher = RecordPusher(store: store, database: database(faulty.baseURL))
            let start = Date()
            let summary = try await pusher.run(
                through: try client(faulty.baseURL, retry: RetryPolicy(attempts: 4, initialDelay: 0.05)))
            #expect(Date().timeIntervalSince(start) >= 1)
            #expect(summary.sent == 450)
            #expect(summary.retries == 3)
            #expect(summary.refused.isEmpty)
            // 3 batches: the first answered THROTTLED, then 503, then passed on and its answer cut
            // off, then sent again; the other two once each.
            #expect(faulty.taken.filter { $0.path.hasSuffix("/records/modify") }.count == 6)
        }
        let records = try served.records(in: StoreScope())
        #expect(records.count == 450)
        #expect(Set(records.map(\.recordID.recordName)).count == 450)
        // Each save takes the next change tag: 450 saves in all is each record saved once.
        #expect(try ZoneChanges.latestToken(in: StoreScope(), store: served) == String(450, radix: 36))
    }

    @Test func aRecordGoesAfterTheRecordItsValidateReferenceNames() async throws {
        let store = try ContainerStore(folder.path("local.sqlite"))
        func save(_ name: String, _ fields: String) throws {
            let body =
                #"{"operations": [{"operationType": "forceReplace", "record": {"recordName": "\#(name)", "recordType": "Note", "fields": \#(fields)}}]}"#
            let operations = try #require(try ModifyRequest(parsing: Array(body.utf8)).operations)
            let outcomes = try RecordModification(scope: StoreScope(), user: "_me", now: 1).apply(
                operations, to: store)
            guard case .saved = outcomes[0] else { throw CloudSeedError(.invalidValue, "\(outcomes)") }
        }
        try save("Parent", #"{"title": {"value": "first"}}"#)
        try save(
            "Child", #"{"parent": {"value": {"recordName": "Parent", "action": "VALIDATE"}, "type": "REFERENCE"}}"#)
        try save("Parent", #"{"title": {"value": "changed after the child"}}"#)
        let served = try ContainerStore.inMemory()
        let server = try CloudKitServer(store: served, serverKey: key.publicKey.pemRepresentation)
        try await RunningServer.with(server) { server in
            let summary = try await RecordPusher(store: store, database: database(server.baseURL)).run(
                through: try client(server.baseURL))
            #expect(summary.refused.isEmpty)
            #expect(summary.sent == 2)
        }
        #expect(try served.records(in: StoreScope()).map(\.recordID.recordName).sorted() == ["Child", "Parent"])
    }

    @Test func recordsAnsweredZoneBusyAreSentAgainAfterRetryAfter() async throws {
        let store = try localStore(count: 5)
        let served = try ContainerStore.inMemory()
        let server = try CloudKitServer(store: served, serverKey: key.publicKey.pemRepresentation)
        try await RunningServer.with(server) { server in
            let faulty = try FaultyServer(upstream: server.baseURL, faults: [.busyRecords(retryAfter: 1)])
            defer { faulty.stop() }
            let start = Date()
            let summary = try await RecordPusher(store: store, database: database(faulty.baseURL)).run(
                through: try client(faulty.baseURL))
            #expect(Date().timeIntervalSince(start) >= 1)
            #expect(summary.sent == 5)
            #expect(summary.refused.isEmpty)
            #expect(faulty.taken.filter { $0.path.hasSuffix("/records/modify") }.count == 2)
        }
        #expect(try served.records(in: StoreScope()).count == 5)
    }

    @Test func aRetriedBatchStopsAfterTheAttemptsItIsGiven() async throws {
        let store = try localStore(count: 3)
        let server = try CloudKitServer(store: ContainerStore.inMemory(), serverKey: key.publicKey.pemRepresentation)
        try await RunningServer.with(server) { server in
            let faulty = try FaultyServer(upstream: server.baseURL, faults: [.unavailable, .unavailable, .unavailable])
            defer { faulty.stop() }
            let pusher = RecordPusher(store: store, database: database(faulty.baseURL))
            await #expect {
                try await pusher.run(
                    through: try client(faulty.baseURL, retry: RetryPolicy(attempts: 3, initialDelay: 0.01)))
            } throws: { error in
                "\(error)"
                    == "/database/1/iCloud.com.example.cloudseed/development/public/records/modify answered HTTP 503 after 3 tries"
            }
        }
    }

    @Test func aTokenIsTakenOutOfAServersMessageOnlyWhereItStandsAlone() {
        #expect(
            WebServicesClient.redacting("s3cret", in: "the token 's3cret' is not valid: ckAPIToken=s3cret&x=1")
                == "the token '***' is not valid: ckAPIToken=***&x=1")
        #expect(
            WebServicesClient.redacting("t", in: "Field 'title' is not marked queryable; add QUERYABLE to it")
                == "Field 'title' is not marked queryable; add QUERYABLE to it")
        #expect(WebServicesClient.redacting("t", in: "token t") == "token ***")
    }

    @Test func aSignedRequestVerifiesWithOpenSSLOnTheDocumentedMessage() async throws {
        let store = try localStore(count: 2)
        let server = try CloudKitServer(store: ContainerStore.inMemory(), serverKey: key.publicKey.pemRepresentation)
        try await RunningServer.with(server) { server in
            let faulty = try FaultyServer(upstream: server.baseURL, faults: [])
            defer { faulty.stop() }
            _ = try await RecordPusher(store: store, database: database(faulty.baseURL)).run(
                through: try client(faulty.baseURL))
            let request = try #require(faulty.taken.first { $0.path.hasSuffix("/records/modify") })
            #expect(request.path == "/database/1/iCloud.com.example.cloudseed/development/public/records/modify")
            #expect(request.headers["x-apple-cloudkit-request-keyid"] == "test-key")
            let date = try #require(request.headers["x-apple-cloudkit-request-iso8601date"])
            #expect(date.wholeMatch(of: /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ/) != nil)
            let signatureText = try #require(request.headers["x-apple-cloudkit-request-signaturev1"])
            let signature = try #require(Data(base64Encoded: signatureText))
            let bodyHash = Data(SHA256.hash(data: request.body)).base64EncodedString()
            #expect(try verify("\(date):\(bodyHash):\(request.path)", signature))
            let otherHash = Data(SHA256.hash(data: request.body + Data(" ".utf8))).base64EncodedString()
            #expect(try !verify("\(date):\(otherHash):\(request.path)", signature))
        }
    }

    /// Whether `openssl dgst -sha256 -verify` takes `signature` (DER) of `message` by the key's public half.
    func verify(_ message: String, _ signature: Data) throws -> Bool {
        let publicKey = try folder.write("public.pem", key.publicKey.pemRepresentation)
        let messageFile = try folder.write("message", message)
        let signatureFile = folder.path("signature.der")
        try signature.write(to: URL(fileURLWithPath: signatureFile))
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [
            "openssl", "dgst", "-sha256", "-verify", publicKey, "-signature", signatureFile, messageFile,
        ]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return process.terminationStatus == 0 && text == "Verified OK\n"
    }
}
