import CloudSeed
import CloudSeedServer
import CloudSeedTestSupport
import Foundation
import Testing

/// Subscriptions and the notifications a client long-polls for (issue 57, acceptance 3): a
/// query subscription on expensive artworks and a zone subscription on a private zone, told of
/// the writes of `records/modify`, `import`, `push` and the console, and of nothing else.
@Suite struct SubscriptionTests {
    static let gallery = "/database/1/iCloud.com.example.Gallery/development"
    static let alice = "?ckAPIToken=secret&ckWebAuthToken=alice"

    static func artwork(_ operation: String, _ name: String, price: Double, tag: String? = nil) -> String {
        let changeTag = tag.map { #","recordChangeTag":"\#($0)""# } ?? ""
        return
            #"{"operationType":"\#(operation)","record":{"recordName":"\#(name)","recordType":"Artwork"\#(changeTag),"fields":{"title":{"value":"\#(name)"},"price":{"value":\#(price)}}}}"#
    }

    /// Every notification waiting at `url`, in order, as (subscription, record, reason).
    static func notifications(at url: String, server: RunningServer) async throws -> [String] {
        var found: [String] = []
        while true {
            let answer = try await server.get(url + "?timeout=1")
            let object = try answer.object()
            guard let subscription = object["subscriptionID"] as? String else { return found }
            let record = object["recordName"] as? String ?? ""
            let zone = (object["zoneID"] as? [String: Any])?["zoneName"] as? String ?? ""
            found.append("\(subscription) \(zone) \(record) \(object["reason"] as? String ?? "")")
        }
    }

    @Test func notifiesEachMatchingWriteOfEveryWriterAndNothingElse() async throws {
        let folder = try RecordsQueryTests.seededGallery()
        let server = try CloudKitServer(store: ContainerStore(folder.path("cloudseed.sqlite")), apiToken: "secret")
        try await RunningServer.with(server) { server in
            let token = try await server.post(
                Self.gallery + "/tokens/create" + Self.alice, #"{"apnsEnvironment":"development"}"#)
            let courier = try #require(try token.object()["webcourierURL"] as? String)
            #expect(courier.hasPrefix(server.baseURL + "/webcourier/"))

            let expensive = try await server.post(
                Self.gallery + "/public/subscriptions/modify" + Self.alice,
                #"{"operations":[{"operationType":"create","subscription":{"subscriptionID":"expensive","subscriptionType":"query","query":{"recordType":"Artwork","filterBy":[{"comparator":"GREATER_THAN","fieldName":"price","fieldValue":{"value":1000}}]},"firesOn":["create","update","delete"]}}]}"#
            )
            #expect(
                expensive.body
                    == #"{"subscriptions":[{"subscriptionID":"expensive","subscriptionType":"query","zoneID":{"zoneName":"_defaultZone","ownerRecordName":"__defaultOwner__"},"query":{"recordType":"Artwork","filterBy":[{"comparator":"GREATER_THAN","fieldName":"price","fieldValue":{"value":1000}}]},"zoneWide":false,"firesOn":["create","update","delete"],"firesOnce":false}]}"#
            )
            _ = try await server.post(
                Self.gallery + "/private/zones/modify" + Self.alice,
                #"{"operations":[{"operationType":"create","zone":{"zoneID":{"zoneName":"Notes"}}}]}"#)
            let notes = try await server.post(
                Self.gallery + "/private/subscriptions/modify" + Self.alice,
                #"{"operations":[{"operationType":"create","subscription":{"subscriptionID":"notes","subscriptionType":"zone","zoneID":{"zoneName":"Notes"}}}]}"#
            )
            #expect(notes.body.contains(#""subscriptionID":"notes","subscriptionType":"zone""#))
            let listed = try await server.get(Self.gallery + "/public/subscriptions/list" + Self.alice)
            #expect(listed.body.hasPrefix(#"{"subscriptions":[{"subscriptionID":"expensive""#))

            // Refused: in production, a zone subscription in the public database, an unindexed query.
            let production = try await server.post(
                "/database/1/iCloud.com.example.Gallery/production/public/subscriptions/modify" + Self.alice,
                #"{"operations":[{"operationType":"create","subscription":{"subscriptionID":"p","subscriptionType":"query","query":{"recordType":"Artwork"},"firesOn":["create"]}}]}"#
            )
            #expect(production.body.contains(#""subscriptionID":"p","uuid""#))
            #expect(production.body.contains(#""serverErrorCode":"BAD_REQUEST""#))
            #expect(production.body.contains("development"))
            let publicZone = try await server.post(
                Self.gallery + "/public/subscriptions/modify" + Self.alice,
                #"{"operations":[{"operationType":"create","subscription":{"subscriptionID":"z","subscriptionType":"zone","zoneID":{"zoneName":"_defaultZone"}}}]}"#
            )
            #expect(publicZone.body.contains("zone subscriptions exist in the private database only"))

            // records/modify: two creates, one over 1000; an update of each; a private write in another zone.
            let modify = Self.gallery + "/public/records/modify" + Self.alice
            let created = try await server.post(
                modify,
                #"{"operations":[\#(Self.artwork("create", "cheap", price: 10)),\#(Self.artwork("create", "dear", price: 5000))]}"#
            )
            let tags = try ChangesTests.records(created).map { $0["recordChangeTag"] as? String ?? "" }
            _ = try await server.post(
                modify,
                #"{"operations":[\#(Self.artwork("update", "cheap", price: 20, tag: tags[0])),\#(Self.artwork("update", "dear", price: 6000, tag: tags[1]))]}"#
            )
            _ = try await server.post(
                Self.gallery + "/private/records/modify" + Self.alice,
                #"{"zoneID":{"zoneName":"Notes"},"operations":[{"operationType":"create","record":{"recordName":"n1","recordType":"Note","fields":{"text":{"value":"hello"}}}}]}"#
            )
            _ = try await server.post(
                Self.gallery + "/private/records/modify" + Self.alice,
                #"{"operations":[{"operationType":"create","record":{"recordName":"elsewhere","recordType":"Note","fields":{"text":{"value":"not watched"}}}}]}"#
            )
            let first = try await Self.notifications(at: courier, server: server)
            #expect(
                first == [
                    "expensive _defaultZone dear RECORD_CREATED", "expensive _defaultZone dear RECORD_UPDATED",
                    "notes Notes n1 RECORD_CREATED",
                ], "\(first)")

            // An import beside the server, as another process.
            let file = try folder.write(
                "more.json",
                #"{"records":[{"recordName":"imported-dear","recordType":"Artwork","fields":{"title":{"value":"I"},"price":{"value":2000.5}}},{"recordName":"imported-cheap","recordType":"Artwork","fields":{"title":{"value":"C"},"price":{"value":5.5}}}]}"#
            )
            let imported = try CommandRunner.run(
                ["import", file, "--container", "iCloud.com.example.Gallery", "--quiet"], in: folder.url)
            #expect(imported.status == 0, "\(imported.standardError)")
            #expect(
                try await Self.notifications(at: courier, server: server) == [
                    "expensive _defaultZone imported-dear RECORD_CREATED"
                ])

            // A push from another store.
            let pushed = try folder.write(
                "pushed.json",
                #"{"records":[{"recordName":"pushed-dear","recordType":"Artwork","fields":{"title":{"value":"P"},"price":{"value":3000.5}}},{"recordName":"pushed-cheap","recordType":"Artwork","fields":{"title":{"value":"Q"},"price":{"value":1.5}}}]}"#
            )
            let local = try CommandRunner.run(
                ["import", pushed, "--container", "iCloud.com.example.Gallery", "--store", "local.sqlite", "--quiet"],
                in: folder.url)
            #expect(local.status == 0)
            let push = try CommandRunner.run(
                [
                    "push", "--store", "local.sqlite", "--endpoint", server.baseURL, "--container",
                    "iCloud.com.example.Gallery", "--api-token", "secret", "--web-auth-token", "bob", "--quiet",
                ], in: folder.url)
            #expect(push.status == 0, "\(push.standardError)")
            #expect(
                try await Self.notifications(at: courier, server: server) == [
                    "expensive _defaultZone pushed-dear RECORD_CREATED"
                ])

            // The console, signed in as alice: a new artwork over 1000.
            if HeadlessBrowser.executable != nil {
                let browser = try await HeadlessBrowser()
                defer { browser.close() }
                try await browser.open(
                    server.baseURL + "/" + Self.alice
                        + "#c=iCloud.com.example.Gallery&e=development&d=public&type=Artwork&edit=new")
                try await browser.type("console-dear", into: "#record-name")
                try await browser.type("4000", into: #"#editor [data-field="price"] input"#)
                try await browser.click("#save")
                try await browser.waitUntil(#"document.querySelector('#record[data-record-name="console-dear"]')"#)
                #expect(
                    try await Self.notifications(at: courier, server: server) == [
                        "expensive _defaultZone console-dear RECORD_CREATED"
                    ])
            }

            // Deletions: of a record that matched, and of one that did not.
            _ = try await server.post(
                modify,
                #"{"operations":[{"operationType":"forceDelete","record":{"recordName":"dear"}},{"operationType":"forceDelete","record":{"recordName":"cheap"}}]}"#
            )
            #expect(
                try await Self.notifications(at: courier, server: server) == [
                    "expensive _defaultZone dear RECORD_DELETED"
                ])

            // A poll waits for the next write and is answered with it.
            async let waiting = server.get(courier + "?timeout=20")
            try await Task.sleep(nanoseconds: 300_000_000)
            _ = try await server.post(modify, #"{"operations":[\#(Self.artwork("create", "late", price: 9999))]}"#)
            #expect(try await waiting.object()["recordName"] as? String == "late")

            let unknown = try await server.get(server.baseURL + "/webcourier/nothing?timeout=0")
            #expect(unknown.status == 404)
            #expect(try unknown.object()["serverErrorCode"] as? String == "NOT_FOUND")
        }
    }

    @Test func keepsSubscriptionsInTheStoreForAServerStartedAgain() async throws {
        let folder = try RecordsQueryTests.seededGallery()
        let subscribe =
            #"{"operations":[{"operationType":"create","subscription":{"subscriptionID":"expensive","query":{"recordType":"Artwork","filterBy":[{"comparator":"GREATER_THAN","fieldName":"price","fieldValue":{"value":1000}}]},"firesOn":["create"]}},{"operationType":"create","subscription":{"subscriptionID":"gone","query":{"recordType":"Artwork"},"firesOn":["create"]}}]}"#
        let first = try CloudKitServer(store: ContainerStore(folder.path("cloudseed.sqlite")), apiToken: "secret")
        try await RunningServer.with(first) { server in
            let saved = try await server.post(Self.gallery + "/public/subscriptions/modify" + Self.alice, subscribe)
            #expect(saved.body.contains(#""subscriptionID":"expensive","subscriptionType":"query""#))
            let deleted = try await server.post(
                Self.gallery + "/public/subscriptions/modify" + Self.alice,
                #"{"operations":[{"operationType":"delete","subscription":{"subscriptionID":"gone"}}]}"#)
            #expect(deleted.body.contains(#""deleted":true"#))
        }
        let again = try CloudKitServer(store: ContainerStore(folder.path("cloudseed.sqlite")), apiToken: "secret")
        try await RunningServer.with(again) { server in
            let listed = try await server.get(Self.gallery + "/public/subscriptions/list" + Self.alice)
            #expect(
                listed.body
                    == #"{"subscriptions":[{"subscriptionID":"expensive","subscriptionType":"query","zoneID":{"zoneName":"_defaultZone","ownerRecordName":"__defaultOwner__"},"query":{"recordType":"Artwork","filterBy":[{"comparator":"GREATER_THAN","fieldName":"price","fieldValue":{"value":1000}}]},"zoneWide":false,"firesOn":["create"],"firesOnce":false}]}"#
            )
            let token = try await server.post(Self.gallery + "/tokens/create" + Self.alice, "{}")
            let courier = try #require(try token.object()["webcourierURL"] as? String)
            _ = try await server.post(
                Self.gallery + "/public/records/modify" + Self.alice,
                #"{"operations":[\#(Self.artwork("create", "after", price: 2000))]}"#)
            #expect(
                try await Self.notifications(at: courier, server: server) == [
                    "expensive _defaultZone after RECORD_CREATED"
                ])
        }
    }

    @Test func takesTokensWithAndWithoutADatabaseSegmentAndUnderDevice() async throws {
        let server = try CloudKitServer(store: ContainerStore.inMemory(), apiToken: "secret")
        try await RunningServer.with(server) { server in
            for path in [
                "/database/1/iCloud.com.example.Notes/development/tokens/create",
                "/database/1/iCloud.com.example.Notes/development/private/tokens/create",
                "/device/1/iCloud.com.example.Notes/development/tokens/create",
            ] {
                let created = try await server.post(path + Self.alice, #"{"apnsEnvironment":"development"}"#)
                #expect(created.status == 200, "\(path): \(created.body)")
                let token = try #require(try created.object()["apnsToken"] as? String)
                let registered = try await server.post(
                    path.replacingOccurrences(of: "create", with: "register") + Self.alice,
                    #"{"apnsEnvironment":"development","apnsToken":"\#(token)"}"#)
                #expect(try registered.object()["apnsToken"] as? String == token)
                let anonymous = try await server.post(path + "?ckAPIToken=secret", "{}")
                #expect(anonymous.status == 421)
            }
        }
    }
}
