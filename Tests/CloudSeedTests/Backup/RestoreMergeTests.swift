import CloudSeedTestSupport
import Crypto
import Foundation
import Testing

@testable import CloudSeed
@testable import CloudSeedCore
@testable import CloudSeedReaders
@testable import CloudSeedSchema
@testable import CloudSeedStore

@Suite struct RestoreMergeTests {
    let fixture: BackupFixture
    let bundle: BackupBundle

    init() throws {
        fixture = try BackupFixture()
        try BackupWriter(store: ContainerStore(backend: try fixture.filledStore())).write(
            to: fixture.folder.path("backup"))
        bundle = try BackupBundle(verifying: fixture.folder.path("backup"))
    }

    func store(_ name: String) throws -> SQLiteContainerStore {
        try SQLiteContainerStore(path: fixture.folder.path(name))
    }

    @Test func aContainerWithRecordsIsRefusedWithoutMerge() throws {
        let target = try store("target.sqlite")
        _ = try Importer(store: ContainerStore(backend: target), scope: StoreScope(), now: 0).run([
            SourceFile(path: Repository.sample("ToDoItems/ToDoItems.csv"))
        ])
        let before = try BackupFixture.records(of: target)
        #expect(
            BackupFixture.error { try Restorer(store: ContainerStore(backend: target)).restore(bundle) }
                == "the store already holds records of iCloud.com.example.cloudseed; restore into a new ContainerStore(_:), or pass Restorer.merge to write the backup's records over them"
        )
        #expect(try BackupFixture.records(of: target) == before)
        #expect(try target.inventory().schemas.keys.map(\.environment) == [.development])
    }

    @Test func mergeWritesTheBackupOverTheStoreAndKeepsTheRest() throws {
        let target = try store("target.sqlite")
        let notes = try fixture.folder.write("notes.csv", "recordName,body\nn1,first\n")
        let changed = try fixture.folder.write("ToDoItem.csv", "recordName,title,priority\nGet apples,Get pears,1\n")
        _ = try Importer(store: ContainerStore(backend: target), scope: StoreScope(), now: 0).run([
            SourceFile(path: notes)
        ])
        _ = try Importer(store: ContainerStore(backend: target), scope: BackupFixture.aliceWork, now: 0).run([
            SourceFile(path: changed)
        ])
        try Restorer(store: ContainerStore(backend: target), merge: true).restore(bundle)

        let original = try BackupFixture.records(of: store("original.sqlite"))
        let merged = try BackupFixture.records(of: target)
        #expect(merged.count == original.count + 1)
        #expect(Set(merged).isSuperset(of: original))
        #expect(merged.first { $0.recordType == "Note" }?.fields == ["body": .string("first")])
        let schema = try target.schema(
            of: SchemaScope(container: StoreScope.defaultContainer, environment: .development))
        #expect(schema.recordTypes["Note"]?.fields == ["body": .string])
        #expect(
            schema.recordTypes["ToDoItem"]?.fields == [
                "dueDate": .timestamp, "isCompleted": .int64, "priority": .int64, "title": .string,
            ])
        #expect(try target.write { try $0.nextChangeTag() } == "h")
    }

    @Test func mergeRefusesAFieldOfAnotherType() throws {
        let target = try store("target.sqlite")
        let todo = try fixture.folder.write("ToDoItem.csv", "recordName,title,isCompleted\nx,y,no\n")
        _ = try Importer(store: ContainerStore(backend: target), scope: BackupFixture.bobFamily, now: 0).run([
            SourceFile(path: todo)
        ])
        let before = try BackupFixture.records(of: target)
        #expect(
            BackupFixture.error { try Restorer(store: ContainerStore(backend: target), merge: true).restore(bundle) }
                == "\(bundle.path)/schema/development.ckdb: field ToDoItem.isCompleted is INT64 in the backup but STRING in the store; restore into a new ContainerStore(_:)"
        )
        #expect(try BackupFixture.records(of: target) == before)
    }

    @Test func aRecordOutOfPlaceIsRefusedAndNothingIsWritten() throws {
        let path = "records/development/public/__defaultOwner__/_defaultZone/Artist.jsonl"
        let text = try String(contentsOf: bundle.url(path), encoding: .utf8)
        let lines = text.split(separator: "\n").map(String.init)
        let swapped = [lines[1], lines[0], lines[2]].joined(separator: "\n") + "\n"
        let damaged = try rewritten(path, swapped)
        let target = try store("target.sqlite")
        #expect(
            BackupFixture.error { try Restorer(store: ContainerStore(backend: target)).restore(damaged) }
                == "\(bundle.path)/\(path):2:1: record Mei Chen comes after Tomas Ortega; a backup lists each record once, in order of name; restore from an intact backup"
        )
        #expect(try target.inventory().zones.isEmpty)
        #expect(try target.inventory().schemas.isEmpty)
    }

    @Test func aFieldTheSchemaLacksIsRefused() throws {
        let path = "records/development/private/_alice/Work/ToDoItem.jsonl"
        let text = try String(contentsOf: bundle.url(path), encoding: .utf8)
            .replacingOccurrences(of: "\"title\":", with: "\"heading\":")
        let damaged = try rewritten(path, text)
        #expect(
            BackupFixture.error {
                try Restorer(store: ContainerStore(backend: store("target.sqlite"))).restore(damaged)
            }
                == "\(bundle.path)/\(path):1:1: field 'heading' is not in the backup's development schema of ToDoItem; restore from an intact backup"
        )
    }

    /// The bundle with `path` replaced by `text` and the manifest's entry for it updated, as a hand edit would.
    func rewritten(_ path: String, _ text: String) throws -> BackupBundle {
        var manifest = bundle.manifest
        let index = try #require(manifest.files.firstIndex { $0.path == path })
        manifest.files[index] = BackupManifest.File(
            path: path, size: Int64(text.utf8.count), sha256: SHA256.hexDigest(of: Data(text.utf8)))
        try Data(text.utf8).write(to: bundle.url(path))
        try Data(manifest.json.utf8).write(to: bundle.url("manifest.json"))
        return try BackupBundle(verifying: bundle.path)
    }
}
