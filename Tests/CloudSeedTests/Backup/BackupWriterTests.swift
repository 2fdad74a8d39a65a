import CloudSeedTestSupport
import Foundation
import Testing

@testable import CloudSeed
@testable import CloudSeedCore
@testable import CloudSeedReaders
@testable import CloudSeedSchema
@testable import CloudSeedStore

@Suite struct BackupWriterTests {
    let fixture: BackupFixture
    let store: SQLiteContainerStore

    init() throws {
        fixture = try BackupFixture()
        store = try fixture.filledStore()
    }

    var folder: TemporaryFolder { fixture.folder }

    /// A store that fails when the backup reaches the assets, after the schemas and records are written.
    final class FailingStore: StoreBackend {
        let base: SQLiteContainerStore
        init(_ base: SQLiteContainerStore) { self.base = base }

        func schema(of scope: SchemaScope) throws -> Schema { try base.schema(of: scope) }
        func schemaDefinition(of scope: SchemaScope) throws -> SchemaDefinition { try base.schemaDefinition(of: scope) }
        func query(_ checked: CheckedQuery, in scope: StoreScope) throws -> [CloudRecord] {
            try base.query(checked, in: scope)
        }
        func write<T>(bulk: Bool, _ body: (any StoreTransaction) throws -> T) throws -> T {
            try base.write(bulk: bulk, body)
        }
        func read<T>(_ body: () throws -> T) throws -> T { try base.read(body) }
        func record(named recordName: String, ofType recordType: String, in scope: StoreScope) throws -> CloudRecord? {
            try base.record(named: recordName, ofType: recordType, in: scope)
        }
        func forEachRecord(in scope: StoreScope, recordType: String?, _ body: (CloudRecord) throws -> Void) throws {
            try base.forEachRecord(in: scope, recordType: recordType, body)
        }
        func inventory() throws -> StoreInventory { try base.inventory() }
        func zones() throws -> [StoreScope] { try base.zones() }
        func roles(of user: String, in scope: SchemaScope) throws -> Set<String> { try base.roles(of: user, in: scope) }
        func assignRole(_ role: String, to user: String, in scope: SchemaScope) throws {
            try base.assignRole(role, to: user, in: scope)
        }
        func assetContent(_ checksum: String) throws -> Data? {
            throw CloudSeedError(.storeFailure, "the disk went away")
        }
        func hasAssetContent(_ checksum: String) throws -> Bool { try base.hasAssetContent(checksum) }
        func deletedRecords(in scope: StoreScope) throws -> [DeletedRecord] { try base.deletedRecords(in: scope) }
        func deletedZones() throws -> [DeletedZone] { try base.deletedZones() }
        func latestChangeTag(in scope: StoreScope) throws -> Int64? { try base.latestChangeTag(in: scope) }
        func indexChanges(in scope: SchemaScope) throws { try base.indexChanges(in: scope) }
        func records(ofType recordType: String, in scope: StoreScope, changedAfter counter: Int64, limit: Int) throws
            -> [CloudRecord]
        {
            try base.records(ofType: recordType, in: scope, changedAfter: counter, limit: limit)
        }
        func journalEntries(of target: String) throws -> [String: String] { try base.journalEntries(of: target) }
        func saveJournalEntries(_ entries: [(key: String, value: String)], of target: String) throws {
            try base.saveJournalEntries(entries, of: target)
        }
    }

    @Test func aFailedBackupLeavesTheEarlierOneIntactAndNoPartialFolder() throws {
        try BackupWriter(store: ContainerStore(backend: store), now: 0).write(to: folder.path("backup"))
        let before = try BackupFixture.files(in: folder.path("backup"))
        _ = try Importer(store: ContainerStore(backend: store), scope: StoreScope(), now: 1).run([
            SourceFile(path: Repository.sample("ToDoItems/ToDoItems.csv"))
        ])
        #expect(
            BackupFixture.error {
                try BackupWriter(store: ContainerStore(backend: FailingStore(store)), now: 1).write(
                    to: folder.path("backup"))
            } == "the disk went away")
        #expect(try BackupFixture.files(in: folder.path("backup")) == before)
        #expect(try fixture.entries() == ["backup"])
        _ = try BackupBundle(verifying: folder.path("backup"))
    }

    @Test func aFailedFirstBackupLeavesNothing() throws {
        #expect(
            BackupFixture.error {
                try BackupWriter(store: ContainerStore(backend: FailingStore(store))).write(to: folder.path("backup"))
            }
                == "the disk went away")
        #expect(try fixture.entries() == [])
    }

    @Test func anEarlierBackupIsReplacedWhole() throws {
        try BackupWriter(store: ContainerStore(backend: store), now: 0).write(to: folder.path("backup"))
        try Data("left over".utf8).write(to: URL(fileURLWithPath: folder.path("backup/records/notes.txt")))
        let manifest = try BackupWriter(store: ContainerStore(backend: store), now: 60_000).write(
            to: folder.path("backup"))
        #expect(
            try Set(BackupFixture.files(in: folder.path("backup")).keys)
                == Set(["manifest.json"] + manifest.files.map(\.path)))
        #expect(try BackupBundle(verifying: folder.path("backup")).manifest == manifest)
        #expect(try fixture.entries() == ["backup"])
    }

    @Test func anEmptyFolderIsFilled() throws {
        try FileManager.default.createDirectory(atPath: folder.path("empty"), withIntermediateDirectories: false)
        try BackupWriter(store: ContainerStore(backend: store)).write(to: folder.path("empty") + "/")
        #expect(try fixture.entries() == ["empty"])
        _ = try BackupBundle(verifying: folder.path("empty"))
    }

    @Test func aFolderThatIsNotABackupIsLeftAlone() throws {
        let notes = try folder.write("documents/notes.txt", "keep me")
        #expect(
            BackupFixture.error {
                try BackupWriter(store: ContainerStore(backend: store)).write(to: folder.path("documents"))
            }
                == "\(folder.path("documents")): exists and is not a cloudseed backup, so it was left alone; name a new folder with BackupWriter.write(to:)"
        )
        #expect(try String(contentsOfFile: notes, encoding: .utf8) == "keep me")
        try folder.write("webapp/manifest.json", "{\"name\": \"not ours\"}")
        #expect(
            BackupFixture.error {
                try BackupWriter(store: ContainerStore(backend: store)).write(to: folder.path("webapp"))
            }
                == "\(folder.path("webapp")): exists and is not a cloudseed backup, so it was left alone; name a new folder with BackupWriter.write(to:)"
        )
        #expect(try fixture.entries() == ["documents", "webapp"])
    }

    @Test func aMissingParentFolderIsNamed() throws {
        #expect(
            BackupFixture.error {
                try BackupWriter(store: ContainerStore(backend: store)).write(to: folder.path("no/such/backup"))
            }
                == "\(folder.path("no/such")): the folder that would hold the backup does not exist; create it first")
    }

    @Test func aContainerTheStoreDoesNotHoldIsRefused() throws {
        #expect(
            BackupFixture.error {
                try BackupWriter(store: ContainerStore(backend: store), container: "iCloud.com.example.Other").write(
                    to: folder.path("backup"))
            }
                == "the store holds no records or schema of iCloud.com.example.Other; name the container with BackupWriter.container (the store's inventory lists them)"
        )
        #expect(try fixture.entries() == [])
    }

    @Test func aSchemaWithoutRecordsIsBackedUp() throws {
        let empty = try SQLiteContainerStore(path: folder.path("schema-only.sqlite"))
        let definition = try CKSLParser.parse(
            "DEFINE SCHEMA\n\n    RECORD TYPE Note (\n        body STRING QUERYABLE\n    );\n")
        try empty.write {
            try $0.applySchema(
                definition, to: SchemaScope(container: StoreScope.defaultContainer, environment: .development))
        }
        let manifest = try BackupWriter(store: ContainerStore(backend: empty)).write(to: folder.path("backup"))
        #expect(manifest.summary == "0 records in 0 zones, 0 assets")
        #expect(manifest.files.map(\.path) == ["schema/development.ckdb", "schema/production.ckdb"])
        let restored = try SQLiteContainerStore(path: folder.path("restored.sqlite"))
        try Restorer(store: ContainerStore(backend: restored)).restore(BackupBundle(verifying: folder.path("backup")))
        #expect(
            try restored.schemaDefinition(
                of: SchemaScope(container: StoreScope.defaultContainer, environment: .development)) == definition)
    }

    @Test func namesThatAreNotPlainBecomeSafePathComponents() {
        #expect(
            BackupLayout.records(
                .development, .private, RecordZoneID(zoneName: "Work", ownerName: "../x"), recordType: "ToDoItem")
                == "records/development/private/%2E%2E%2Fx/Work/ToDoItem.jsonl")
        #expect(BackupLayout.component("") == "%")
        #expect(BackupLayout.component("Zoë") == "Zo%C3%AB")
        #expect(BackupLayout.component("__defaultOwner__") == "__defaultOwner__")
    }

    @Test func oddOwnerNamesRoundTrip() throws {
        let odd = StoreScope(database: .private, zoneID: RecordZoneID(zoneName: "Work", ownerName: "../.. Zoë/x"))
        _ = try Importer(store: ContainerStore(backend: store), scope: odd, now: 0).run([
            SourceFile(path: Repository.sample("ToDoItems/ToDoItems.csv"))
        ])
        let manifest = try BackupWriter(store: ContainerStore(backend: store)).write(to: folder.path("backup"))
        #expect(
            manifest.files.map(\.path).contains(
                "records/development/private/%2E%2E%2F%2E%2E%20Zo%C3%AB%2Fx/Work/ToDoItem.jsonl"))
        let restored = try SQLiteContainerStore(path: folder.path("restored.sqlite"))
        try Restorer(store: ContainerStore(backend: restored)).restore(BackupBundle(verifying: folder.path("backup")))
        #expect(try BackupFixture.records(of: restored) == BackupFixture.records(of: store))
    }
}
