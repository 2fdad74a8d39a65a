import CloudSeed
import CloudSeedServer
import CloudSeedTestSupport
import Crypto
import Foundation
import Testing

@Suite struct RecordsQueryTests {
    static let path = "/database/1/iCloud.com.example.Gallery/development/public/records/query"

    /// A folder whose `cloudseed.sqlite` holds the seeded gallery.
    static func seededGallery() throws -> TemporaryFolder {
        let folder = try TemporaryFolder()
        let seed = try CommandRunner.run(["seed", Repository.sample("gallery.json")], in: folder.url)
        try #require(seed.status == 0, "\(seed.standardError)")
        return folder
    }

    /// The record names of an answer's `records`.
    static func names(_ answer: RunningServer.Answer) throws -> [String] {
        try ChangesTests.records(answer).compactMap { $0["recordName"] as? String }
    }

    /// Acceptance 1: the query over Web Services answers the records `cloudseed query` prints.
    @Test func answersWhatTheQueryCommandPrints() async throws {
        let folder = try Self.seededGallery()
        let command = try CommandRunner.run(
            [
                "query", "Artwork", "--filter", "price > 1000", "--sort", "title", "--format", "jsonl",
                "--container", "iCloud.com.example.Gallery",
            ], in: folder.url)
        let expected = command.standardOutput.split(separator: "\n").map {
            try! JSONSerialization.jsonObject(with: Data($0.utf8)) as! NSDictionary
        }
        #expect(!expected.isEmpty)
        let server = try CloudKitServer(store: ContainerStore(folder.path("cloudseed.sqlite")))
        try await RunningServer.with(server) { server in
            let answer = try await server.post(
                Self.path,
                #"{"query":{"recordType":"Artwork","filterBy":[{"comparator":"GREATER_THAN","fieldName":"price","fieldValue":{"value":1000}}],"sortBy":[{"fieldName":"title"}]}}"#
            )
            #expect(answer.status == 200)
            let records = try #require(try answer.object()["records"] as? [[String: Any]])
            var downloads: [String: String] = [:]
            let withoutURLs = records.map { record in
                var record = record
                var fields = record["fields"] as! [String: Any]
                if var image = fields["image"] as? [String: Any], var value = image["value"] as? [String: Any] {
                    downloads[value["fileChecksum"] as! String] = value.removeValue(forKey: "downloadURL") as? String
                    image["value"] = value
                    fields["image"] = image
                }
                record["fields"] = fields
                return record as NSDictionary
            }
            #expect(withoutURLs == expected)
            #expect(!downloads.isEmpty)
            for (checksum, url) in downloads {
                #expect(url == "\(server.baseURL)/assets/\(checksum)")
                let bytes = try await server.get(url)
                #expect(bytes.status == 200)
                #expect(SHA256.hash(data: bytes.data).map { String(format: "%02x", $0) }.joined() == checksum)
            }
        }
    }

    @Test func refusesAFilterOnAnUnindexedField() async throws {
        let folder = try Self.seededGallery()
        let server = try CloudKitServer(store: ContainerStore(folder.path("cloudseed.sqlite")))
        try await RunningServer.with(server) { server in
            let answer = try await server.post(
                Self.path,
                #"{"query":{"recordType":"Artwork","filterBy":[{"comparator":"EQUALS","fieldName":"address","fieldValue":{"value":"x"}}]}}"#
            )
            #expect(answer.status == 400)
            let error = try answer.object()
            #expect(error["serverErrorCode"] as? String == "BAD_REQUEST")
            #expect(
                error["reason"] as? String
                    == "Field 'address' is not marked queryable; add QUERYABLE to Artwork.address in the schema and run a schema import"
            )
            #expect((error["uuid"] as? String)?.count == 36)
        }
    }

    @Test func runsCloudKitsListAndNegatedComparators() async throws {
        let folder = try Self.seededGallery()
        let server = try CloudKitServer(store: ContainerStore(folder.path("cloudseed.sqlite")))
        try await RunningServer.with(server) { server in
            func titles(_ filter: String) async throws -> [String] {
                let answer = try await server.post(
                    Self.path,
                    #"{"query":{"recordType":"Artwork","filterBy":[\#(filter)],"sortBy":[{"fieldName":"title"}]}}"#)
                let records = try #require(try answer.object()["records"] as? [[String: Any]], "\(answer.body)")
                return records.compactMap {
                    (($0["fields"] as? [String: Any])?["title"] as? [String: Any])?["value"] as? String
                }
            }
            let notIn = try await titles(
                #"{"comparator":"NOT_IN","fieldName":"catalogNumber","fieldValue":{"value":["115","308"]}}"#)
            #expect(notIn == ["Rainy Day in Mendocino", "Über den Dächern"])
            let notBeginsWith = try await titles(
                #"{"comparator":"NOT_BEGINS_WITH","fieldName":"title","fieldValue":{"value":"Night"}}"#)
            #expect(notBeginsWith == ["MacKerricher State Park", "Rainy Day in Mendocino", "Über den Dächern"])
            let anyToken = try await titles(
                #"{"comparator":"CONTAINS_ANY_TOKENS","fieldName":"title","fieldValue":{"value":"harbor rainy"}}"#)
            #expect(anyToken == ["Night Harbor", "Rainy Day in Mendocino"])
        }
    }

    @Test func sortsByEachEntryOfSortByInTurn() async throws {
        let folder = try Self.seededGallery()
        // An artwork at Night Harbor's price, so that the price leaves two tied.
        try folder.write("study.csv", "title,price,catalogNumber\nHarbor Study,615.5,309\n")
        let imported = try CommandRunner.run(
            ["import", "study.csv", "--type", "Artwork", "--container", "iCloud.com.example.Gallery"], in: folder.url)
        try #require(imported.status == 0, "\(imported.standardError)")
        let server = try CloudKitServer(store: ContainerStore(folder.path("cloudseed.sqlite")))
        try await RunningServer.with(server) { server in
            func titles(_ sortBy: String) async throws -> [String] {
                let answer = try await server.post(
                    Self.path, #"{"query":{"recordType":"Artwork","sortBy":\#(sortBy)},"desiredKeys":["title"]}"#)
                #expect(answer.status == 200)
                let records = try #require(try answer.object()["records"] as? [[String: Any]])
                return records.map { (($0["fields"] as! [String: Any])["title"] as! [String: Any])["value"] as! String }
            }
            #expect(
                try await titles(#"[{"fieldName":"price"},{"fieldName":"title","ascending":false}]"#) == [
                    "Night Harbor", "Harbor Study", "Rainy Day in Mendocino", "MacKerricher State Park",
                    "Über den Dächern",
                ])
            #expect(
                try await titles(#"[{"fieldName":"price","ascending":false},{"fieldName":"title"}]"#) == [
                    "Über den Dächern", "MacKerricher State Park", "Rainy Day in Mendocino", "Harbor Study",
                    "Night Harbor",
                ])
            // The gallery's schema has no SORTABLE index on the location: CloudKit would refuse the sort.
            let unindexed = try await server.post(
                Self.path,
                #"{"query":{"recordType":"Artwork","sortBy":[{"fieldName":"location","relativeLocation":{"latitude":39.3,"longitude":-123.8}}]}}"#
            )
            #expect(unindexed.status == 400)
            #expect(
                try unindexed.object()["reason"] as? String
                    == "Field 'location' is not marked sortable; add SORTABLE to Artwork.location in the schema and run a schema import"
            )
            let malformed = try await server.post(
                Self.path,
                #"{"query":{"recordType":"Artwork","sortBy":[{"fieldName":"location","relativeLocation":"Mendocino"}]}}"#
            )
            #expect(malformed.status == 400)
            #expect(
                try malformed.object()["reason"] as? String
                    == "the sort by 'location' needs relativeLocation as {latitude, longitude}")
        }
    }

    @Test func sortsByTheDistanceFromARelativeLocation() async throws {
        let folder = try Self.seededGallery()
        let schema = try String(contentsOfFile: Repository.sample("Gallery/schema.ckdb"), encoding: .utf8)
        try folder.write(
            "schema.ckdb", schema.replacingOccurrences(of: "LOCATION QUERYABLE,", with: "LOCATION QUERYABLE SORTABLE,"))
        let imported = try CommandRunner.run(
            ["schema", "import", "schema.ckdb", "--container", "iCloud.com.example.Gallery"], in: folder.url)
        try #require(imported.status == 0, "\(imported.standardError)")
        let server = try CloudKitServer(store: ContainerStore(folder.path("cloudseed.sqlite")))
        try await RunningServer.with(server) { server in
            let answer = try await server.post(
                Self.path,
                #"{"query":{"recordType":"Artwork","filterBy":[{"comparator":"GREATER_THAN","fieldName":"price","fieldValue":{"value":0}}],"sortBy":[{"fieldName":"location","relativeLocation":{"latitude":-33.04,"longitude":-71.63}}]},"resultsLimit":2,"desiredKeys":["title"]}"#
            )
            #expect(answer.status == 200)
            let records = try #require(try answer.object()["records"] as? [[String: Any]])
            let titles = records.map {
                (($0["fields"] as! [String: Any])["title"] as! [String: Any])["value"] as! String
            }
            // From Valparaíso: Night Harbor there, then Rainy Day in Mendocino, 80 m nearer than MacKerricher.
            #expect(titles == ["Night Harbor", "Rainy Day in Mendocino"])
        }
    }

    /// Sorted, a page starts after as many records as came before; in record-name order, after
    /// the last name, so that no page reads the records before it again.
    @Test(arguments: [true, false]) func pagesWithAContinuationMarker(sorted: Bool) async throws {
        let folder = try Self.seededGallery()
        let server = try CloudKitServer(store: ContainerStore(folder.path("cloudseed.sqlite")))
        try await RunningServer.with(server) { server in
            var names: [String] = []
            var marker: String?
            repeat {
                let markerMember = marker.map { #","continuationMarker":"\#($0)""# } ?? ""
                let answer = try await server.post(
                    Self.path,
                    #"{"query":{"recordType":"Artwork"\#(sorted ? #","sortBy":[{"fieldName":"title"}]"# : "")},"resultsLimit":3,"desiredKeys":["title"]\#(markerMember)}"#
                )
                let object = try answer.object()
                let records = try #require(object["records"] as? [[String: Any]])
                #expect(records.allSatisfy { ($0["fields"] as? [String: Any])?.keys.sorted() == ["title"] })
                names += records.map { $0["recordName"] as! String }
                marker = object["continuationMarker"] as? String
            } while marker != nil
            let all = try ContainerStore(folder.path("cloudseed.sqlite")).records(
                in: StoreScope(container: "iCloud.com.example.Gallery"), ofType: "Artwork")
            #expect(names.count == all.count)
            #expect(Set(names) == Set(all.map(\.recordID.recordName)))
            if !sorted { #expect(names == names.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }) }
        }
    }
}
