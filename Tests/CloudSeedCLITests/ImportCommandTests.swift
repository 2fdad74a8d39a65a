import CloudSeedTestSupport
import Foundation
import Testing

@Suite struct ImportCommandTests {
    let folder: TemporaryFolder

    init() throws { folder = try TemporaryFolder() }

    func cloudseed(_ arguments: String...) throws -> CommandResult {
        try CommandRunner.run(arguments, in: folder.url)
    }

    @Test func importsAndPrintsTheSummary() throws {
        let result = try cloudseed("import", Repository.sample("ToDoItems/ToDoItems.plist"))
        #expect(result.status == 0)
        #expect(result.standardError == "")
        let output = result.standardOutput.replacingOccurrences(
            of: "  in [0-9.]+ s\n", with: "", options: .regularExpression)
        #expect(
            output == """
                Imported into iCloud.com.example.cloudseed development public _defaultZone:
                  record type   created   updated unchanged   refused
                  ToDoItem            3         0         0         0
                Schema created just in time:
                  new record type ToDoItem
                  new field ToDoItem.dueDate TIMESTAMP
                  new field ToDoItem.isCompleted INT64
                  new field ToDoItem.title STRING
                Choices (pin them with the flags shown):
                  ToDoItem: named by the natural key {title}, unique in every row  --name-template 'ToDoItem={title}'
                    dueDate TIMESTAMP (inferred)  --field ToDoItem.dueDate:TIMESTAMP
                    isCompleted INT64 (inferred)  --field ToDoItem.isCompleted:INT64
                    title STRING (inferred)  --field ToDoItem.title:STRING

                """)
        #expect(FileManager.default.fileExists(atPath: folder.path("cloudseed.sqlite")))
    }

    @Test func printsTheSchemaInTheCloudKitSchemaLanguage() throws {
        _ = try cloudseed("import", Repository.sample("ToDoItems/ToDoItems.csv"))
        let schema = try cloudseed("schema", "export")
        #expect(schema.standardOutput.contains("    RECORD TYPE ToDoItem (\n"))
        #expect(
            schema.standardOutput.contains(
                "        dueDate         TIMESTAMP,\n        isCompleted     INT64,\n        title           STRING,\n")
        )
    }

    @Test func exportsOneCloudKitRecordDictionaryPerLine() throws {
        _ = try cloudseed("import", Repository.sample("ToDoItems/ToDoItems.json"))
        let export = try cloudseed("export", "--format", "jsonl")
        let lines = export.standardOutput.split(separator: "\n")
        #expect(lines.count == 3)
        let first = try #require(try JSONSerialization.jsonObject(with: Data(lines[0].utf8)) as? [String: Any])
        #expect(first["recordName"] as? String == "Call Zoe about the gallery")
        #expect(first["recordType"] as? String == "ToDoItem")
        let fields = try #require(first["fields"] as? [String: [String: Any]])
        #expect(fields["dueDate"]?["value"] as? Int64 == 1_572_716_700_000)
        #expect(fields["dueDate"]?["type"] as? String == "TIMESTAMP")
        #expect(fields["title"]?["value"] as? String == "Call Zoë about the gallery")
    }

    @Test func theSecondImportIsUnchanged() throws {
        _ = try cloudseed("import", Repository.sample("ToDoItems/ToDoItems.plist"))
        let before = try cloudseed("export").standardOutput
        let again = try cloudseed("import", Repository.sample("ToDoItems/ToDoItems.plist"), "--json")
        #expect(again.standardOutput.contains("\"created\":0,\"updated\":0,\"unchanged\":3"))
        #expect(try cloudseed("export").standardOutput == before)
    }

    @Test func productionRefusalExitsNonZeroAndLeavesTheStore() throws {
        _ = try cloudseed("import", Repository.sample("ToDoItems/ToDoItems.plist"))
        let before = try cloudseed("export", "--environment", "production").standardOutput
        let csv = Repository.sample("ToDoItems/ToDoItems.csv")
        let result = try cloudseed("import", csv, "--environment", "production")
        #expect(result.status == 1)
        #expect(result.standardOutput == "")
        #expect(
            result.standardError == """
                error: \(csv):2:1: Cannot create new type ToDoItem in production schema; import into --environment development, where types are created just in time
                error: nothing was written

                """)
        #expect(try cloudseed("export", "--environment", "production").standardOutput == before)
    }

    /// A fresh process meets Han titles before ICU has compiled their rules: the rows' names wait
    /// for it, in order, and the choice of naming rule is the one every name known at once makes.
    @Test func titlesThatWaitForICUAreNamedAndComparedInOrder() throws {
        let prints = try folder.write(
            "Prints.jsonl", "{\"title\":\"東京の夜\"}\n{\"title\":\"Osaka\"}\n{\"title\":\"Kyoto\"}\n")
        let posters = try folder.write(
            "Posters.jsonl", "{\"title\":\"東京の夜\"}\n{\"title\":\"Osaka\"}\n{\"title\":\"東京の夜\"}\n")
        let result = try cloudseed("import", prints, posters)
        #expect(result.status == 0)
        #expect(
            result.standardOutput.contains(
                "  Poster: named by record type and position in the source (Type-1, Type-2, …)\n"))
        #expect(
            result.standardOutput.contains(
                "  Print: named by the natural key {title}, unique in every row  --name-template 'Print={title}'\n"))
        let names = try cloudseed("export", "--format", "jsonl").standardOutput.split(separator: "\n").map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])["recordName"]
                as? String
        }
        #expect(names == ["Poster-1", "Poster-2", "Poster-3", "Kyoto", "Osaka", "dong jingno ye"])
    }

    @Test func aBadValueNamesFileLineAndColumn() throws {
        _ = try cloudseed("import", Repository.sample("ToDoItems/ToDoItems.plist"))
        let bad = try folder.write("late/ToDoItems.csv", "title,dueDate,isCompleted\nLate,2020-01-01,abc\n")
        let result = try cloudseed("import", bad)
        #expect(result.status == 1)
        #expect(
            result.standardError.hasPrefix(
                "error: \(bad):2:17: invalid attempt to set value type STRING for field 'isCompleted' for type 'ToDoItem', defined to be: INT64"
            ))
    }

    @Test func readsStandardInput() throws {
        let result = try CommandRunner.run(
            ["import", "-", "--type", "Note", "--format", "csv"], in: folder.url, input: "title\nHello\n")
        #expect(result.status == 0)
        #expect(result.standardOutput.contains("  Note                1         0         0         0\n"))
    }

    @Test func commandLineMistakesExitWithUsage() throws {
        let result = try cloudseed("import", "x.csv", "--type", "no good")
        #expect(result.status == 64)
        #expect(result.standardError.contains("--type 'no good' is not a record type name"))
    }
}
