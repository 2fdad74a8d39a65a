import CloudSeedTestSupport
import Foundation
import Testing

/// Lists, empty ones included, through a CSV export and back.
@Suite struct CSVListRoundTripTests {
    @Test func aCSVExportImportsIntoANewStoreWithItsListsEmptyOrNot() throws {
        let folder = try TemporaryFolder()
        func cloudseed(_ arguments: [String]) throws -> String {
            let result = try CommandRunner.run(arguments, in: folder.url)
            #expect(result.status == 0, "\(arguments): \(result.standardError)")
            return result.standardOutput
        }
        let records = try folder.write(
            "works.json",
            #"""
            {"records": [
              {"recordType": "Work", "recordName": "a", "fields": {"tags": {"value": ["oil", "portrait"], "type": "STRING_LIST"}}},
              {"recordType": "Work", "recordName": "b", "fields": {"tags": {"value": [], "type": "STRING_LIST"}}}]}
            """#)
        _ = try cloudseed(["import", records])
        _ = try cloudseed(["export", "--format", "csv", "--out", "csv"])
        #expect(
            try String(contentsOf: folder.url.appendingPathComponent("csv/Work.csv"), encoding: .utf8)
                == "recordName,tags:STRING_LIST\r\na,\"[\"\"oil\"\",\"\"portrait\"\"]\"\r\nb,[]\r\n")
        _ = try cloudseed(["import", folder.path("csv/Work.csv"), "--store", "other.sqlite"])
        let fields = { (text: String) in
            text.split(separator: "\n").map { $0.components(separatedBy: #","created""#)[0] }
        }
        let expected = [
            #"{"recordName":"a","recordType":"Work","recordChangeTag":"1","fields":{"tags":{"value":["oil","portrait"],"type":"STRING_LIST"}}"#,
            #"{"recordName":"b","recordType":"Work","recordChangeTag":"2","fields":{"tags":{"value":[],"type":"STRING_LIST"}}"#,
        ]
        #expect(fields(try cloudseed(["export", "--format", "jsonl"])) == expected)
        #expect(fields(try cloudseed(["export", "--format", "jsonl", "--store", "other.sqlite"])) == expected)
    }
}
