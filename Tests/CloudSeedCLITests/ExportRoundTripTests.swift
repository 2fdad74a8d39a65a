import CloudSeedTestSupport
import Foundation
import Testing

/// import → export in each format → import into a new store → export: the same records.
@Suite struct ExportRoundTripTests {
    func fields(_ jsonl: String) throws -> [String: [String: [String: Any]]] {
        var result: [String: [String: [String: Any]]] = [:]
        for line in jsonl.split(separator: "\n") {
            let record = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            result["\(record["recordType"]!)/\(record["recordName"]!)"] = record["fields"] as? [String: [String: Any]]
        }
        return result
    }

    @Test(arguments: [("cloudkit-json", "out.json"), ("jsonl", "out.jsonl"), ("plist", "out.plist"), ("csv", "csv")])
    func everyFormatImportsBackToTheSameRecords(format: String, output: String) throws {
        let folder = try TemporaryFolder()
        func cloudseed(_ arguments: String...) throws -> CommandResult {
            let result = try CommandRunner.run(arguments, in: folder.url)
            #expect(result.status == 0, "\(arguments): \(result.standardError)")
            return result
        }
        _ = try cloudseed("import", Repository.sample("CloudKit/AllTypes.json"), "--allow-dangling")
        _ = try cloudseed(
            "import", Repository.sample("Gallery/artists.csv"), Repository.sample("Gallery/artworks.plist"))
        let original = try cloudseed("export", "--format", "jsonl").standardOutput
        _ = try cloudseed("export", "--format", format, "--out", output)
        let files =
            format == "csv"
            ? try FileManager.default.contentsOfDirectory(atPath: folder.path("csv")).sorted().map { "csv/\($0)" }
            : [output]
        let reimport = try CommandRunner.run(
            ["import"] + files + ["--store", "again.sqlite", "--allow-dangling"], in: folder.url)
        #expect(reimport.status == 0, "\(reimport.standardError)")
        let again = try cloudseed("export", "--format", "jsonl", "--store", "again.sqlite").standardOutput
        let before = try fields(original)
        let after = try fields(again)
        #expect(before.count == 9)
        #expect(before.keys.sorted() == after.keys.sorted())
        for key in before.keys {
            #expect(NSDictionary(dictionary: before[key]!) == NSDictionary(dictionary: after[key] ?? [:]), "\(key)")
        }
    }

    @Test func aTypeTheStoreLacksIsRefusedNotExportedAsNothing() throws {
        let folder = try TemporaryFolder()
        let imported = try CommandRunner.run(["import", Repository.sample("ToDoItems/ToDoItems.csv")], in: folder.url)
        #expect(imported.status == 0)
        let result = try CommandRunner.run(["export", "--type", "ToDoItems"], in: folder.url)
        #expect(result.status == 1)
        #expect(result.standardOutput == "")
        #expect(
            result.standardError
                == "error: the store has no record type ToDoItems in iCloud.com.example.cloudseed development; its types are ToDoItem; check --type\n"
        )
    }
}
