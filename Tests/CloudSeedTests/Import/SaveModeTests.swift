import CloudSeedTestSupport
import Foundation
import Testing

@testable import CloudSeed
@testable import CloudSeedCore
@testable import CloudSeedReaders
@testable import CloudSeedSchema
@testable import CloudSeedStore

@Suite struct SaveModeTests {
    let folder: TemporaryFolder
    let store: SQLiteContainerStore

    init() throws {
        folder = try TemporaryFolder()
        store = try SQLiteContainerStore(path: folder.path("store.sqlite"))
        _ = try Importer(store: ContainerStore(backend: store), scope: StoreScope(), now: 0).run([
            SourceFile(path: folder.write("Note.csv", "recordName,title,body\na,A,first\nb,B,second\n"))
        ])
    }

    func run(_ csv: String, mode: SaveMode, partial: Bool = false) throws -> (ImportSummary, [RejectedRow]) {
        var importer = Importer(store: ContainerStore(backend: store), scope: StoreScope(), now: 1)
        importer.mode = mode
        importer.partial = partial
        var rejected: [RejectedRow] = []
        let summary = try importer.run(
            [SourceFile(path: folder.write("more/Note.csv", csv))], rejected: { rejected.append($0) })
        return (summary, rejected)
    }

    func note(_ name: String) throws -> CloudRecord? {
        var found: CloudRecord?
        try store.forEachRecord(in: StoreScope(), recordType: "Note") {
            if $0.recordID.recordName == name { found = $0 }
        }
        return found
    }

    @Test func createRefusesExistingRecordsAndWritesNothing() throws {
        let path = folder.path("more/Note.csv")
        let exists = #expect(throws: CloudSeedError.self) {
            _ = try run("recordName,title\na,Again\nc,New\n", mode: .create)
        }
        #expect(exists?.code == .recordConflict)
        #expect(try note("c") == nil)
        let (summary, rejected) = try run("recordName,title\na,Again\nc,New\n", mode: .create, partial: true)
        #expect(summary.counts == [ImportSummary.TypeCounts(recordType: "Note", created: 1, refused: 1)])
        #expect(
            rejected.map(\.errors.description) == [
                "[\(path):2:1: record 'a' of type Note already exists; the save mode create only adds records (use the save mode changed-keys to update them)]"
            ])
    }

    @Test func updateIfUnchangedComparesChangeTags() throws {
        let tag = try #require(try note("a")).system.changeTag
        let (summary, _) = try run("recordName,recordChangeTag,title\na,\(tag),Fresh\n", mode: .updateIfUnchanged)
        #expect(summary.counts.map(\.updated) == [1])
        let stale = #expect(throws: CloudSeedError.self) {
            _ = try run("recordName,recordChangeTag,title\na,\(tag),Stale\n", mode: .updateIfUnchanged)
        }
        #expect(stale?.code == .recordConflict)
        #expect(try note("a")?.fields["title"] == .string("Fresh"))
    }

    @Test func changedKeysKeepsFieldsTheFileLacksAndAllKeysDoesNot() throws {
        _ = try run("recordName,title\na,Renamed\n", mode: .changedKeys)
        #expect(try note("a")?.fields == ["title": .string("Renamed"), "body": .string("first")])
        _ = try run("recordName,title\na,Replaced\n", mode: .allKeys)
        #expect(try note("a")?.fields == ["title": .string("Replaced")])
    }

    @Test func badRowsAreSkippedAndReportedOnRequest() throws {
        let rows = (1...10_000).map { $0 == 7 || $0 == 500 || $0 == 9_999 ? "r\($0),x\($0)" : "r\($0),\($0)" }
        let csv = try folder.write("Count.csv", "recordName,value\n" + rows.joined(separator: "\n") + "\n")
        var options = MappingOptions(fieldTypes: [FieldTypeOverride(field: "value", type: .int64)])
        #expect(throws: CloudSeedError.self) {
            _ = try Importer(store: ContainerStore(backend: store), scope: StoreScope(), options: options).run([
                SourceFile(path: csv)
            ])
        }
        options.skipBadRows = true
        let importer = Importer(store: ContainerStore(backend: store), scope: StoreScope(), options: options)
        var rejected: [String] = []
        let summary = try importer.run(
            [SourceFile(path: csv)], rejected: { rejected += $0.jsonLines(wordingOptions: { $0.libraryWording }) })
        #expect(summary.counts == [ImportSummary.TypeCounts(recordType: "Count", created: 9_997, refused: 3)])
        #expect(
            rejected
                == [8, 501, 10_000].map { line in
                    let column = "r\(line - 1),".count + 1
                    return
                        #"{"file":"\#(csv)","line":\#(line),"column":\#(column),"recordType":"Count","reason":"invalid attempt to set value type STRING for field 'value' for type 'Count', defined to be: INT64; fix the value or change the field type 'value:INT64'"}"#
                })
    }
}
