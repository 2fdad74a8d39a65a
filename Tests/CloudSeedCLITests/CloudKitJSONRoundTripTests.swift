import CloudSeedTestSupport
import Foundation
import Testing

/// `export --format cloudkit-json`, then `import` of that export into the same store, gives the same
/// export to the byte: also when the `type` of its REFERENCE, ASSETID and LOCATION values (and of
/// their lists) is left out, as CloudKit lets a request leave it out.
@Suite struct CloudKitJSONRoundTripTests {
    static let strippedTypes = #","type":"(REFERENCE|ASSETID|LOCATION)(_LIST)?""#

    @Test(arguments: [false, true])
    func anImportedExportExportsTheSame(strippingTypes: Bool) throws {
        let folder = try TemporaryFolder()
        func cloudseed(_ arguments: [String]) throws -> String {
            let result = try CommandRunner.run(arguments, in: folder.url)
            #expect(result.status == 0, "\(arguments): \(result.standardError)")
            return result.standardOutput
        }
        _ = try cloudseed(["import", Repository.sample("CloudKit/AllTypes.json"), "--allow-dangling"])
        _ = try cloudseed([
            "import", Repository.sample("Gallery/artists.csv"), Repository.sample("Gallery/artworks.plist"),
        ])
        _ = try cloudseed([
            "import", Repository.sample("ToDoItems/ToDoItems.plist"), "--zone", "Work", "--database", "private",
        ])
        let note = try folder.write(
            "note.json",
            #"{"records": [{"recordType": "Note", "recordName": "n1", "fields": {"about": {"value": {"recordName": "Get apples", "zoneID": {"zoneName": "Work"}, "action": "NONE"}}}}]}"#
        )
        _ = try cloudseed(["import", note, "--database", "private"])

        for database in ["public", "private"] {
            let export = try cloudseed(["export", "--database", database])
            var request = export
            if strippingTypes {
                request = export.replacingOccurrences(of: Self.strippedTypes, with: "", options: .regularExpression)
                #expect(request != export)
            }
            let file = try folder.write("\(database).json", request)
            _ = try cloudseed(["import", file, "--database", database, "--allow-dangling"])
            #expect(try cloudseed(["export", "--database", database]) == export, "\(database)")
        }
    }
}
