import CloudSeedTestSupport
import Foundation
import Testing

@testable import CloudSeed
@testable import CloudSeedCore
@testable import CloudSeedReaders
@testable import CloudSeedSchema
@testable import CloudSeedStore

/// A new store file is built under a hidden name and put in place whole (``StoreCreation``).
@Suite struct StoreCreationTests {
    private func files(in folder: TemporaryFolder) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.url.path).sorted()
    }

    @Test func aNewStoreAppearsWholeAtItsFirstWriteInWALMode() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("store.sqlite")
        let store = try SQLiteContainerStore(path: path)
        #expect(try files(in: folder) == [".store.sqlite.new", ".store.sqlite.new.lock"])
        let summary = try Importer(store: ContainerStore(backend: store), scope: StoreScope(), now: 0).run([
            SourceFile(path: Repository.sample("ToDoItems/ToDoItems.csv"))
        ])
        #expect(summary.counts.map(\.created) == [3])
        #expect(try files(in: folder) == ["store.sqlite", "store.sqlite-shm", "store.sqlite-wal"])
        let reader = try SQLiteDatabase(path: path)
        #expect(try reader.rows("PRAGMA journal_mode") == [[.text("wal")]])
        #expect(try reader.rows("SELECT count(*) FROM ToDoItem") == [[.integer(3)]])
        // The store goes on writing to the file in place.
        let again = try Importer(store: ContainerStore(backend: store), scope: StoreScope(), now: 0).run([
            SourceFile(path: Repository.sample("ToDoItems/ToDoItems.csv"))
        ])
        #expect(again.counts.map(\.unchanged) == [3])
    }

    @Test func aStoreOpenedAndNeverWrittenIsStillCreated() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("store.sqlite")
        do {
            let store = try SQLiteContainerStore(path: path)
            #expect(try store.inventory().zones.isEmpty)
        }
        #expect(try files(in: folder) == ["store.sqlite"])
        #expect(try SQLiteContainerStore(path: path).inventory().zones.isEmpty)
    }

    @Test func aFailedFirstWriteLeavesNoFile() throws {
        let folder = try TemporaryFolder()
        do {
            let store = try SQLiteContainerStore(path: folder.path("store.sqlite"))
            #expect(throws: CloudSeedError(.storeFailure, "refused")) {
                try store.write { transaction in
                    try transaction.createRecordType("Note", in: StoreScope().schemaScope)
                    throw CloudSeedError(.storeFailure, "refused")
                }
            }
        }
        #expect(try files(in: folder) == [])
    }

    @Test func filesLeftByAKilledCreationAreClearedByTheNext() throws {
        let folder = try TemporaryFolder()
        _ = try folder.write(".store.sqlite.new", "half a store")
        _ = try folder.write(".store.sqlite.new-journal", "its journal")
        _ = try folder.write(".store.sqlite.new.lock", "")
        let store = try SQLiteContainerStore(path: folder.path("store.sqlite"))
        _ = try Importer(store: ContainerStore(backend: store), scope: StoreScope(), now: 0).run([
            SourceFile(path: Repository.sample("ToDoItems/ToDoItems.csv"))
        ])
        #expect(try files(in: folder) == ["store.sqlite", "store.sqlite-shm", "store.sqlite-wal"])
    }

    @Test func aSecondStoreObjectForAStoreBeingCreatedIsRefusedUntilItIsInPlace() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("store.sqlite")
        let first = try SQLiteContainerStore(path: path)
        // It would wait for the lock this process holds: refused rather than left to wait for itself.
        #expect(
            throws: CloudSeedError(
                .storeFailure,
                "another store object of this program is creating this store and has not written to it yet; write through that one, or let it go first",
                at: SourcePosition(file: path))
        ) {
            _ = try SQLiteContainerStore(path: path)
        }
        _ = try Importer(store: ContainerStore(backend: first), scope: StoreScope(), now: 0).run([
            SourceFile(path: Repository.sample("ToDoItems/ToDoItems.csv"))
        ])
        #expect(try SQLiteContainerStore(path: path).inventory().zones.first?.recordCounts == ["ToDoItem": 3])
    }

    @Test func aFileAnotherProgramPutsInPlaceMeanwhileIsLeftAsItIs() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("store.sqlite")
        let store = try SQLiteContainerStore(path: path)
        _ = try folder.write("store.sqlite", "someone else's")
        #expect(
            throws: CloudSeedError(
                .storeFailure,
                "another program created this file while cloudseed was creating the store, so nothing was written to it; run again to write into that file, or name another with ContainerStore(_:)",
                at: SourcePosition(file: path))
        ) {
            try store.write { transaction in try transaction.createRecordType("Note", in: StoreScope().schemaScope) }
        }
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "someone else's")
        #expect(try files(in: folder) == ["store.sqlite"])
    }
}
