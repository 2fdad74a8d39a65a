import CloudSeedTestSupport
import Foundation
import Testing

@testable import CloudSeed
@testable import CloudSeedCore
@testable import CloudSeedReaders
@testable import CloudSeedSchema
@testable import CloudSeedStore

/// A bulk write (an import, a restore) into a store file that no other connection has open goes
/// through a rollback journal, and the file is in WAL mode again once it is done.
@Suite struct BulkWriteTests {
    /// A store holding the three sample to-do items, and its path.
    private func storedItems(in folder: TemporaryFolder) throws -> String {
        let path = folder.path("store.sqlite")
        _ = try Importer(
            store: try ContainerStore(backend: SQLiteContainerStore(path: path)), scope: StoreScope(), now: 0
        ).run([
            SourceFile(path: Repository.sample("ToDoItems/ToDoItems.csv"))
        ])
        return path
    }

    /// The journal mode a new connection finds the file in.
    private func journalMode(_ path: String) throws -> [[SQLiteValue]] {
        try SQLiteDatabase(path: path, readOnly: true).rows("PRAGMA journal_mode")
    }

    private func files(in folder: TemporaryFolder) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.url.path).sorted()
    }

    @Test func aBulkWriteIntoAStoreNoOneElseHasOpenUsesARollbackJournal() throws {
        let folder = try TemporaryFolder()
        let path = try storedItems(in: folder)
        let store = try SQLiteContainerStore(path: path)
        var filesWhileWriting: [String] = []
        try store.write(bulk: true) { transaction in
            try transaction.createRecordType("Note", in: StoreScope().schemaScope)
            filesWhileWriting = try files(in: folder)
        }
        #expect(filesWhileWriting == ["store.sqlite", "store.sqlite-journal"])
        #expect(try journalMode(path) == [[.text("wal")]])
        #expect(try files(in: folder) == ["store.sqlite", "store.sqlite-shm", "store.sqlite-wal"])
        #expect(try store.schema(of: StoreScope().schemaScope).recordTypes.keys.sorted() == ["Note", "ToDoItem"])
    }

    @Test func aWriteOfAFewRecordsKeepsTheLog() throws {
        let folder = try TemporaryFolder()
        let path = try storedItems(in: folder)
        let store = try SQLiteContainerStore(path: path)
        var modeWhileWriting: [[SQLiteValue]] = []
        try store.write { _ in modeWhileWriting = try journalMode(path) }
        #expect(modeWhileWriting == [[.text("wal")]])
    }

    @Test func aBulkWriteBesideAReaderKeepsTheLogAndTheReadersSnapshot() throws {
        let folder = try TemporaryFolder()
        let path = try storedItems(in: folder)
        let reader = try SQLiteDatabase(path: path)
        #expect(try reader.rows("SELECT count(*) FROM ToDoItem") == [[.integer(3)]])
        let store = try SQLiteContainerStore(path: path)
        var modeWhileWriting: [[SQLiteValue]] = []
        var readWhileWriting: [[SQLiteValue]] = []
        try store.write(bulk: true) { transaction in
            _ = try transaction.delete("Get apples", ofType: "ToDoItem", in: StoreScope())
            modeWhileWriting = try reader.rows("PRAGMA journal_mode")
            readWhileWriting = try reader.rows("SELECT count(*) FROM ToDoItem")
        }
        #expect(modeWhileWriting == [[.text("wal")]])
        #expect(readWhileWriting == [[.integer(3)]])
        #expect(try reader.rows("SELECT count(*) FROM ToDoItem") == [[.integer(2)]])
    }

    @Test func aFailedBulkWriteLeavesTheStoreAsItWasInWALMode() throws {
        let folder = try TemporaryFolder()
        let path = try storedItems(in: folder)
        let store = try SQLiteContainerStore(path: path)
        #expect(throws: CloudSeedError(.storeFailure, "refused")) {
            try store.write(bulk: true) { transaction in
                _ = try transaction.delete("Get apples", ofType: "ToDoItem", in: StoreScope())
                throw CloudSeedError(.storeFailure, "refused")
            }
        }
        #expect(try journalMode(path) == [[.text("wal")]])
        #expect(try SQLiteDatabase(path: path).rows("SELECT count(*) FROM ToDoItem") == [[.integer(3)]])
        #expect(try !files(in: folder).contains("store.sqlite-journal"))
    }
}
