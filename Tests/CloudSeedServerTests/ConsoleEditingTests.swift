import CloudSeed
import CloudSeedServer
import CloudSeedTestSupport
import Foundation
import Testing

/// The console edits as CloudKit Console does (issue 57, acceptance 5), driven in headless
/// Chromium by clicks and typing: an Artwork made with every field type, its price edited, a
/// stale edit answered CONFLICT, a record deleted, an index added in development and refused in
/// production; an export then shows exactly those changes.
@Suite struct ConsoleEditingTests {
    static let container = ["--container", "iCloud.com.example.Gallery"]

    static func run(_ arguments: [String], in folder: TemporaryFolder) throws -> String {
        let result = try CommandRunner.run(arguments, in: folder.url)
        try #require(result.status == 0, "\(arguments): \(result.standardError)")
        return result.standardOutput
    }

    static func lines(_ text: String) -> Set<String> {
        Set(text.split(separator: "\n").map(String.init))
    }

    @Test(.enabled(if: HeadlessBrowser.executable != nil, "Debian's chromium is not installed"))
    func createsEditsAndDeletesRecordsAndAddsAnIndex() async throws {
        let folder = try RecordsQueryTests.seededGallery()
        _ = try Self.run(["schema", "promote"] + Self.container, in: folder)
        let export = ["export", "--format", "jsonl"] + Self.container
        let recordsBefore = try Self.run(export, in: folder)
        let productionBefore = try Self.run(
            ["schema", "export", "--environment", "production"] + Self.container, in: folder)
        let server = try CloudKitServer(store: ContainerStore(folder.path("cloudseed.sqlite")))
        try await RunningServer.with(server) { server in
            let browser = try await HeadlessBrowser()
            defer { browser.close() }
            let artworks = server.baseURL + "/#c=iCloud.com.example.Gallery&e=development&d=public&type=Artwork"
            let field = { (name: String) in #"#editor [data-field="\#(name)"] input"# }

            // A new Artwork, every field typed in.
            try await browser.open(artworks)
            try await browser.click("#new-record")
            try await browser.type("999 Test", into: "#record-name")
            try await browser.type("Harbor at Dusk", into: field("title"))
            try await browser.type("1 Pier Road", into: field("address"))
            try await browser.type("999", into: field("catalogNumber"))
            try await browser.press("12072026", in: field("created") + ".date")
            try await browser.press("103000A", in: field("created") + ".time")
            try await browser.choose([Repository.sample("Gallery/images/night-harbor.png")], in: field("image"))
            try await browser.type("Mei Chen", into: field("artist"))
            try await browser.type("39.3", into: field("location") + ".latitude")
            try await browser.type("-123.8", into: field("location") + ".longitude")
            try await browser.type("1", into: field("onDisplay"))
            try await browser.type("1500.5", into: field("price"))
            try await browser.click(#"#editor [data-field="tags"] .add-item"#)
            try await browser.click(#"#editor [data-field="tags"] .add-item"#)
            try await browser.type("harbor", into: #"#editor [data-field="tags"] .item:nth-child(1) input"#)
            try await browser.type("dusk", into: #"#editor [data-field="tags"] .item:nth-child(2) input"#)
            try await browser.click("#save")
            try await browser.waitUntil(
                #"document.querySelector('#record[data-record-name="999 Test"]') || document.querySelector('#save-error')?.textContent"#
            )
            #expect(
                try await browser.evaluate("document.querySelector('#save-error')?.textContent || ''") as? String == "")

            let lookup = "/database/1/iCloud.com.example.Gallery/development/public/records/lookup"
            func stored() async throws -> [String: Any] {
                let answer = try await server.post(lookup, #"{"records":[{"recordName":"999 Test"}]}"#)
                return try #require(try ChangesTests.records(answer).first)
            }
            let created = try await stored()
            let fields = try #require(created["fields"] as? [String: [String: Any]])
            #expect(fields["title"]?["value"] as? String == "Harbor at Dusk")
            #expect(fields["created"]?["value"] as? Int64 == 1_796_639_400_000)
            #expect((fields["image"]?["value"] as? [String: Any])?["size"] as? Int == 237)
            #expect((fields["artist"]?["value"] as? [String: Any])?["recordName"] as? String == "Mei Chen")
            #expect((fields["location"]?["value"] as? [String: Any])?["latitude"] as? Double == 39.3)
            #expect(fields["onDisplay"]?["value"] as? Int64 == 1)
            #expect(fields["price"]?["value"] as? Double == 1500.5)
            #expect(fields["tags"]?["value"] as? [String] == ["harbor", "dusk"])

            // Its price edited.
            try await browser.click("#edit-record")
            try await browser.type("1750", into: field("price"))
            try await browser.click("#save")
            try await browser.waitUntil(
                #"document.querySelector('#record [data-field="price"]')?.textContent.includes('1750')"#)

            // A stale edit: the record changes elsewhere while the form is open.
            try await browser.click("#edit-record")
            try await browser.waitUntil("document.querySelector('#editor')")
            let tag = try #require(try await stored()["recordChangeTag"] as? String)
            let elsewhere = try await server.post(
                "/database/1/iCloud.com.example.Gallery/development/public/records/modify",
                #"{"operations":[{"operationType":"update","record":{"recordName":"999 Test","recordType":"Artwork","recordChangeTag":"\#(tag)","fields":{"title":{"value":"Changed elsewhere"}}}}]}"#
            )
            #expect(elsewhere.status == 200)
            try await browser.type("1800", into: field("price"))
            try await browser.click("#save")
            try await browser.waitUntil("document.querySelector('#save-error')?.textContent.startsWith('CONFLICT')")
            let afterConflict = try #require(try await stored()["fields"] as? [String: [String: Any]])
            #expect(afterConflict["price"]?["value"] as? Double == 1750)

            // A record deleted.
            try await browser.open(artworks + "&record=308+Tomas+Ortega")
            try await browser.click("#delete-record")
            try await browser.waitUntil(
                "(!document.querySelector('#record') && !document.querySelector('[data-record-name=\"308 Tomas Ortega\"]')) || document.querySelector('#delete-error')?.textContent"
            )
            #expect(
                try await browser.evaluate("document.querySelector('#delete-error')?.textContent || ''") as? String
                    == "")

            // An index in development; production refuses it.
            try await browser.open(artworks)
            try await browser.type("onDisplay", into: #"#add-index input[name="field"]"#)
            try await browser.click("#add-index button")
            try await browser.waitUntil(
                "document.querySelector('main').innerHTML.includes('onDisplay</td><td>INT64</td><td>QUERYABLE')")
            try await browser.open(server.baseURL + "/#c=iCloud.com.example.Gallery&e=production&d=public&type=Artwork")
            try await browser.type("onDisplay", into: #"#add-index input[name="field"]"#)
            try await browser.click("#add-index button")
            let refusal = try await browser.text("#schema-error:not(:empty)")
            #expect(
                refusal
                    == "BAD_REQUEST: Cannot create or modify field 'onDisplay' in record 'Artwork' in production schema"
            )
        }

        // The export holds exactly those changes.
        let before = Self.lines(recordsBefore)
        let after = Self.lines(try Self.run(export, in: folder))
        let removed = before.subtracting(after)
        let added = after.subtracting(before)
        #expect(removed.count == 1 && removed.first?.contains(#""recordName":"308 Tomas Ortega""#) == true)
        #expect(added.count == 1)
        let new = try #require(added.first)
        #expect(new.contains(#""recordName":"999 Test""#))
        #expect(new.contains(#""title":{"value":"Changed elsewhere","type":"STRING"}"#))
        #expect(new.contains(#""price":{"value":1750.0,"type":"DOUBLE"}"#))
        let development = try Self.run(
            ["schema", "export", "--environment", "development"] + Self.container, in: folder)
        #expect(development.contains("onDisplay       INT64 QUERYABLE,"))
        #expect(
            try Self.run(["schema", "export", "--environment", "production"] + Self.container, in: folder)
                == productionBefore)
    }
}
