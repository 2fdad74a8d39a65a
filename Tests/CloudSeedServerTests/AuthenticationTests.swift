import CloudSeed
import CloudSeedServer
import CloudSeedTestSupport
import Crypto
import Foundation
import Testing

@Suite struct AuthenticationTests {
    static let subpath = "/database/1/iCloud.com.example.Gallery/development/public/users/current"
    /// 2026-01-02T03:04:05Z, when ``signedHeaders(_:body:subpath:keyID:date:)`` signs by default.
    static let signedAt: Int64 = 1_767_323_045_000

    /// The three headers of a server-to-server request signed with `key`, giving `keyID`.
    static func signedHeaders(
        _ key: P256.Signing.PrivateKey, body: String, subpath: String, keyID: String = "test-key",
        date: String = "2026-01-02T03:04:05Z"
    ) throws -> [String: String] {
        let bodyHash = Data(SHA256.hash(data: Data(body.utf8))).base64EncodedString()
        let signature = try key.signature(for: Data("\(date):\(bodyHash):\(subpath)".utf8))
        return [
            "X-Apple-CloudKit-Request-KeyID": keyID, "X-Apple-CloudKit-Request-ISO8601Date": date,
            "X-Apple-CloudKit-Request-SignatureV1": signature.derRepresentation.base64EncodedString(),
        ]
    }

    @Test func takesASignedRequestAndRefusesAWrongSignature() async throws {
        let key = P256.Signing.PrivateKey()
        let server = try CloudKitServer(
            store: ContainerStore.inMemory(), serverKey: key.publicKey.pemRepresentation, user: "_server",
            now: { Self.signedAt })
        try await RunningServer.with(server) { server in
            let body = "{}"
            let signed = try await server.post(
                Self.subpath, body, headers: try Self.signedHeaders(key, body: body, subpath: Self.subpath))
            #expect(signed.status == 200)
            #expect(signed.body == #"{"userRecordName":"_server"}"#)

            let otherKey = P256.Signing.PrivateKey()
            let wrong = try await server.post(
                Self.subpath, body, headers: try Self.signedHeaders(otherKey, body: body, subpath: Self.subpath))
            #expect(wrong.status == 401)
            #expect(try wrong.object()["serverErrorCode"] as? String == "AUTHENTICATION_FAILED")

            let otherBody = try await server.post(
                Self.subpath, #"{"changed":true}"#,
                headers: try Self.signedHeaders(key, body: body, subpath: Self.subpath))
            #expect(otherBody.status == 401)

            let unsigned = try await server.post(Self.subpath, body)
            #expect(unsigned.status == 401)
        }
    }

    @Test func takesARequestSignedWithItsQueryAsCloudKitJSSignsIt() async throws {
        let key = P256.Signing.PrivateKey()
        let server = try CloudKitServer(
            store: ContainerStore.inMemory(), serverKey: key.publicKey.pemRepresentation, user: "_server",
            now: { Self.signedAt })
        try await RunningServer.with(server) { server in
            let sent = Self.subpath + "?ckjsBuildVersion=2310ProjectDev27&ckjsVersion=2.6.4"
            var headers = try Self.signedHeaders(key, body: "", subpath: sent)
            headers["Content-Type"] = "text/plain"
            let signed = try await server.post(sent, "", headers: headers)
            #expect(signed.status == 200)
            #expect(signed.body == #"{"userRecordName":"_server"}"#)
            // The query changed after signing, or left out of what was signed: refused.
            let changed = try await server.post(
                Self.subpath + "?ckjsBuildVersion=2310ProjectDev27&ckjsVersion=2.6.5", "", headers: headers)
            #expect(changed.status == 401)
            #expect(try changed.object()["serverErrorCode"] as? String == "AUTHENTICATION_FAILED")
            var pathOnly = try Self.signedHeaders(key, body: "", subpath: Self.subpath)
            pathOnly["Content-Type"] = "text/plain"
            let unsignedQuery = try await server.post(sent, "", headers: pathOnly)
            #expect(unsignedQuery.status == 401)
        }
    }

    @Test func refusesADateTooFarFromTheServersClock() async throws {
        let key = P256.Signing.PrivateKey()
        let server = try CloudKitServer(
            store: ContainerStore.inMemory(), serverKey: key.publicKey.pemRepresentation, now: { Self.signedAt })
        try await RunningServer.with(server) { server in
            for (date, expected) in [
                ("2026-01-02T03:13:05Z", 200), ("2026-01-02T02:55:05Z", 200), ("2026-01-02T03:14:06Z", 401),
                ("2026-01-02T02:54:04Z", 401), ("2026-01-02T03:04:05.000Z", 401), ("yesterday", 401),
            ] {
                let headers = try Self.signedHeaders(key, body: "{}", subpath: Self.subpath, date: date)
                let answer = try await server.post(Self.subpath, "{}", headers: headers)
                #expect(answer.status == expected, "\(date): \(answer.body)")
            }
            let stale = try await server.post(
                Self.subpath, "{}",
                headers: try Self.signedHeaders(key, body: "{}", subpath: Self.subpath, date: "2026-01-01T03:04:05Z"))
            #expect(try stale.object()["serverErrorCode"] as? String == "AUTHENTICATION_FAILED")
            #expect(
                try stale.object()["reason"] as? String
                    == "the request's date 2026-01-01T03:04:05Z is more than 10 minutes from the server's clock (2026-01-02T03:04:05Z); sign each request with the current time"
            )
        }
    }

    @Test func refusesAnotherKeyIDWhenItWasGivenOne() async throws {
        let key = P256.Signing.PrivateKey()
        let server = try CloudKitServer(
            store: ContainerStore.inMemory(), serverKey: key.publicKey.pemRepresentation, serverKeyID: "gallery-key",
            now: { Self.signedAt })
        try await RunningServer.with(server) { server in
            let right = try await server.post(
                Self.subpath, "{}",
                headers: try Self.signedHeaders(key, body: "{}", subpath: Self.subpath, keyID: "gallery-key"))
            #expect(right.status == 200)
            let other = try await server.post(
                Self.subpath, "{}",
                headers: try Self.signedHeaders(key, body: "{}", subpath: Self.subpath, keyID: "other-key"))
            #expect(other.status == 401)
            #expect(try other.object()["serverErrorCode"] as? String == "AUTHENTICATION_FAILED")
            #expect(
                try other.object()["reason"] as? String == "the key ID 'other-key' is not the one this server takes")
        }
    }

    @Test func takesTheAPITokenItWasGiven() async throws {
        let server = try CloudKitServer(store: ContainerStore.inMemory(), apiToken: "secret")
        try await RunningServer.with(server) { server in
            let right = try await server.post(Self.subpath + "?ckAPIToken=secret", "")
            #expect(right.status == 200)
            #expect(right.body == #"{"userRecordName":"__defaultOwner__"}"#)
            let user = try await server.post(Self.subpath + "?ckAPIToken=secret&ckWebAuthToken=alice", "")
            let name = try #require(try user.object()["userRecordName"] as? String)
            #expect(name.hasPrefix("_") && name.count == 33)
            let wrong = try await server.post(Self.subpath + "?ckAPIToken=guess", "")
            #expect(wrong.status == 401)
            #expect(try wrong.object()["serverErrorCode"] as? String == "AUTHENTICATION_FAILED")
        }
    }

    @Test func asksForASignedInUserInThePrivateAndSharedDatabases() async throws {
        let key = P256.Signing.PrivateKey()
        let server = try CloudKitServer(
            store: ContainerStore.inMemory(), apiToken: "secret", serverKey: key.publicKey.pemRepresentation,
            now: { Self.signedAt })
        try await RunningServer.with(server) { server in
            for database in ["private", "shared"] {
                let subpath = "/database/1/iCloud.com.example.Notes/development/\(database)/zones/list"
                let anonymous = try await server.post(subpath + "?ckAPIToken=secret", "{}")
                #expect(anonymous.status == 421)
                #expect(try anonymous.object()["serverErrorCode"] as? String == "AUTHENTICATION_REQUIRED")
                #expect(
                    try anonymous.object()["reason"] as? String
                        == "the \(database) database needs a signed-in user: sign in at the redirectURL and add the ckWebAuthToken it gives beside ckAPIToken"
                )
                #expect(try anonymous.object()["redirectURL"] as? String == server.baseURL + "/signin")
                let signed = try await server.post(
                    subpath, "{}", headers: try Self.signedHeaders(key, body: "{}", subpath: subpath))
                #expect(signed.status == 421)
                #expect(
                    try signed.object()["reason"] as? String
                        == "server-to-server keys reach the public database only; the \(database) database needs a signed-in user: ckAPIToken with ckWebAuthToken"
                )
                let user = try await server.post(subpath + "?ckAPIToken=secret&ckWebAuthToken=alice", "{}")
                #expect(user.status == 200)
            }
            // A wrong signature is refused as such, whatever the database.
            let subpath = "/database/1/iCloud.com.example.Notes/development/private/zones/list"
            let wrong = try await server.post(
                subpath, "{}", headers: try Self.signedHeaders(P256.Signing.PrivateKey(), body: "{}", subpath: subpath))
            #expect(wrong.status == 401)
            let publicDatabase = "/database/1/iCloud.com.example.Notes/development/public/zones/list"
            #expect(try await server.post(publicDatabase + "?ckAPIToken=secret", "{}").status == 200)
        }
        // A server that asks for no credentials takes every request as its user, as before.
        try await RunningServer.with(try CloudKitServer(store: ContainerStore.inMemory())) { server in
            let open = try await server.post(
                "/database/1/iCloud.com.example.Notes/development/private/zones/list", "{}")
            #expect(open.status == 200)
        }
    }

    @Test func refusesAnAPITokenWhenItHasNone() async throws {
        try await RunningServer.with(try CloudKitServer(store: ContainerStore.inMemory())) { server in
            let answer = try await server.post(Self.subpath + "?ckAPIToken=secret", "")
            #expect(answer.status == 401)
            #expect(try answer.object()["serverErrorCode"] as? String == "AUTHENTICATION_FAILED")
        }
    }
}

/// Users as CloudKit has them (issue 57, acceptance 2): with an API token, the public database
/// is read without a user, but written and the private one reached only by a signed-in user, who
/// signs in on the server's own page in a real browser.
@Suite struct SignInTests {
    static let gallery = "/database/1/iCloud.com.example.Gallery/development"

    static func create(_ name: String) -> String {
        #"{"operations":[{"operationType":"create","record":{"recordName":"\#(name)","recordType":"Note","fields":{"text":{"value":"\#(name)"}}}}]}"#
    }

    @Test(.enabled(if: HeadlessBrowser.executable != nil, "Debian's chromium is not installed"))
    func signsInOnTheServersPageAndWritesAsThatUser() async throws {
        let folder = try RecordsQueryTests.seededGallery()
        let server = try CloudKitServer(
            store: ContainerStore(folder.path("cloudseed.sqlite")), apiToken: "secret", users: ["alice", "bob"])
        try await RunningServer.with(server) { server in
            let read = try await server.post(
                Self.gallery + "/public/records/query?ckAPIToken=secret", #"{"query":{"recordType":"Artwork"}}"#)
            #expect(read.status == 200)
            #expect(try RecordsQueryTests.names(read).count == 4)

            let write = try await server.post(
                Self.gallery + "/public/records/modify?ckAPIToken=secret", Self.create("n1"))
            #expect(write.status == 421)
            #expect(try write.object()["serverErrorCode"] as? String == "AUTHENTICATION_REQUIRED")
            let redirect = try #require(try write.object()["redirectURL"] as? String)
            #expect(redirect == server.baseURL + "/signin")

            let browser = try await HeadlessBrowser()
            defer { browser.close() }
            try await browser.open(redirect)
            try await browser.click(#"[data-user="alice"]"#)
            let alice = try await browser.text("#token")
            #expect(alice == "alice")
            try await browser.open(redirect)
            try await browser.type("Carol Example", into: "#name")
            try await browser.click(#"#named button"#)
            let carol = try await browser.text("#token")
            #expect(carol == "Carol Example")

            let signedIn = "?ckAPIToken=secret&ckWebAuthToken=" + alice
            let current = try await server.get(Self.gallery + "/public/users/current" + signedIn)
            let aliceRecordName = try #require(try current.object()["userRecordName"] as? String)
            #expect(aliceRecordName.count == 33 && aliceRecordName.hasPrefix("_"))
            let written = try await server.post(Self.gallery + "/public/records/modify" + signedIn, Self.create("n1"))
            #expect(written.status == 200)
            let record = try #require(try ChangesTests.records(written).first)
            #expect((record["created"] as? [String: Any])?["userRecordName"] as? String == aliceRecordName)

            // Each user's private database is their own.
            let carolSignedIn = "?ckAPIToken=secret&ckWebAuthToken=" + carol.replacingOccurrences(of: " ", with: "%20")
            #expect(
                try await server.post(Self.gallery + "/private/records/modify" + signedIn, Self.create("a")).status
                    == 200)
            #expect(
                try await server.post(Self.gallery + "/private/records/modify" + carolSignedIn, Self.create("c")).status
                    == 200)
            let lookup = #"{"records":[{"recordName":"a"},{"recordName":"c"}]}"#
            let alices = try await server.post(Self.gallery + "/private/records/lookup" + signedIn, lookup)
            let carols = try await server.post(Self.gallery + "/private/records/lookup" + carolSignedIn, lookup)
            #expect(try ChangesTests.records(alices).map { $0["serverErrorCode"] as? String } == [nil, "NOT_FOUND"])
            #expect(try ChangesTests.records(carols).map { $0["serverErrorCode"] as? String } == ["NOT_FOUND", nil])
            let anonymous = try await server.post(Self.gallery + "/private/records/lookup?ckAPIToken=secret", lookup)
            #expect(anonymous.status == 421)

            // The console asks for a user where it needs one, and comes back signed in.
            try await browser.open(
                server.baseURL
                    + "/?ckAPIToken=secret#c=iCloud.com.example.Gallery&e=development&d=private&type=Note&record=a")
            try await browser.click("#sign-in")
            try await browser.click(#"[data-user="alice"]"#)
            try await browser.waitUntil(#"document.querySelector('#record[data-record-name="a"]')"#)
            #expect(
                try await browser.evaluate("location.search") as? String == "?ckAPIToken=secret&ckWebAuthToken=alice")
        }
    }
}
