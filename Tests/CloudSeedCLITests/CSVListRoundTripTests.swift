import CloudSeedTestSupport
import Foundation
import Testing

/// A CSV column of JSON arrays, as spreadsheets and cloudseed's own exports carry lists.
@Suite struct CSVListRoundTripTests {
    static let csv = """
        title,tags,sizes,notes
        A,"[""oil"",""portrait""]","[1,2]",[draft]
        B,[],[3],plain
        C,"[""ink""]",,"[""x"", 1]"

        """

    @Test func aColumnOfJSONArraysIsAListAndItsCSVExportImportsBackTheSame() throws {
        let folder = try TemporaryFolder()
        func cloudseed(_ arguments: [String]) throws -> String {
            let result = try CommandRunner.run(arguments, in: folder.url)
            #expect(result.status == 0, "\(arguments): \(result.standardError)")
            return result.standardOutput
        }
        let summary = try cloudseed(["import", try folder.write("Work.csv", Self.csv)])
        #expect(summary.contains("    tags LIST<STRING> (inferred)"))
        #expect(summary.contains("    sizes LIST<INT64> (inferred)"))
        #expect(summary.contains("    notes STRING (inferred)"))
        let export = try cloudseed(["export", "--format", "jsonl"])
        #expect(
            export.split(separator: "\n").map { $0.components(separatedBy: #","created""#)[0] } == [
                #"{"recordName":"A","recordType":"Work","recordChangeTag":"1","fields":{"notes":{"value":"[draft]","type":"STRING"},"sizes":{"value":[1,2],"type":"INT64_LIST"},"tags":{"value":["oil","portrait"],"type":"STRING_LIST"},"title":{"value":"A","type":"STRING"}}"#,
                #"{"recordName":"B","recordType":"Work","recordChangeTag":"2","fields":{"notes":{"value":"plain","type":"STRING"},"sizes":{"value":[3],"type":"INT64_LIST"},"tags":{"value":[],"type":"STRING_LIST"},"title":{"value":"B","type":"STRING"}}"#,
                #"{"recordName":"C","recordType":"Work","recordChangeTag":"3","fields":{"notes":{"value":"[\"x\", 1]","type":"STRING"},"tags":{"value":["ink"],"type":"STRING_LIST"},"title":{"value":"C","type":"STRING"}}"#,
            ])

        _ = try cloudseed(["export", "--format", "csv", "--out", "csv"])
        _ = try cloudseed(["import", folder.path("csv/Work.csv")])
        #expect(try cloudseed(["export", "--format", "jsonl"]) == export)
        _ = try cloudseed(["import", folder.path("csv/Work.csv"), "--store", "other.sqlite"])
        let other = try cloudseed(["export", "--format", "jsonl", "--store", "other.sqlite"])
        let fields = { (text: String) in
            text.split(separator: "\n").map { $0.components(separatedBy: #","created""#)[0] }
        }
        #expect(fields(other) == fields(export))
    }
}
