import CloudSeedTestSupport
import Foundation
import Testing

@testable import CloudSeed
@testable import CloudSeedCore
@testable import CloudSeedReaders
@testable import CloudSeedSchema
@testable import CloudSeedStore

/// What a zone's changes need from every backend: deletions noted with change tags after the
/// saves before them, and zones created empty and deleted whole.
@Suite struct ZoneChangeStoreTests {
    static let scope = StoreScope(
        container: "iCloud.com.example.Notes", database: .private,
        zoneID: RecordZoneID(zoneName: "Notes", ownerName: "_alice"))

    static func note(_ name: String) -> CloudRecord {
        CloudRecord(recordType: "Note", recordID: RecordID(recordName: name, zoneID: scope.zoneID), fields: [:])
    }

    @Test(arguments: BackendKind.testable) func notesDeletionsAfterTheSavesBeforeThem(_ backend: BackendKind) throws {
        let testStore = try TestStore(backend)
        let store = try testStore.open()
        try store.write { transaction in
            try transaction.createRecordType("Note", in: Self.scope.schemaScope)
            for name in ["a", "b"] {
                var record = Self.note(name)
                record.system.changeTag = try transaction.nextChangeTag()
                try transaction.save(record, in: Self.scope)
            }
        }
        #expect(try store.deletedRecords(in: Self.scope).isEmpty)
        let deletions = try store.write { transaction in
            [
                try transaction.delete("a", ofType: "Note", in: Self.scope),
                try transaction.delete("a", ofType: "Note", in: Self.scope),
            ]
        }
        #expect(deletions == [true, false])
        let saved = try ContainerStore(backend: store).records(in: Self.scope).compactMap {
            Int64($0.system.changeTag, radix: 36)
        }
        let deleted = try store.deletedRecords(in: Self.scope)
        #expect(deleted.map(\.recordName) == ["a"])
        #expect(deleted.map(\.recordType) == ["Note"])
        #expect(deleted.allSatisfy { deletion in saved.allSatisfy { $0 < deletion.changeTag } })
    }

    @Test(arguments: BackendKind.testable) func createsAnEmptyZoneAndDeletesOneWhole(_ backend: BackendKind) throws {
        let testStore = try TestStore(backend)
        let store = try testStore.open()
        let empty = StoreScope(
            container: Self.scope.container, database: .private,
            zoneID: RecordZoneID(zoneName: "Drafts", ownerName: "_alice"))
        try store.write { transaction in
            try transaction.createZone(empty)
            try transaction.createRecordType("Note", in: Self.scope.schemaScope)
            try transaction.save(Self.note("a"), in: Self.scope)
            _ = try transaction.delete("a", ofType: "Note", in: Self.scope)
            try transaction.save(Self.note("b"), in: Self.scope)
        }
        #expect(try store.inventory().zones.map(\.zoneID.zoneName).sorted() == ["Drafts", "Notes"])
        let zoneDeletions = try store.write { [try $0.deleteZone(Self.scope), try $0.deleteZone(Self.scope)] }
        #expect(zoneDeletions == [true, false])
        #expect(try store.inventory().zones.map(\.zoneID.zoneName) == ["Drafts"])
        #expect(try ContainerStore(backend: store).records(in: Self.scope).isEmpty)
        #expect(try store.deletedRecords(in: Self.scope).isEmpty)
    }

    /// Saves `names` (a record's type after its name, `Note` where none) in order, each at the
    /// next change tag; a name starting with `-` deletes that record.
    static func change(_ names: [String], in store: any StoreBackend) throws {
        try store.write { transaction in
            for type in ["Note", "Tag"] where try store.schema(of: scope.schemaScope).recordTypes[type] == nil {
                try transaction.createRecordType(type, in: scope.schemaScope)
            }
            for name in names {
                if name.hasPrefix("-") {
                    _ = try transaction.delete(String(name.dropFirst()), ofType: "Note", in: scope)
                    continue
                }
                let parts = name.split(separator: ":").map(String.init)
                var record = CloudRecord(
                    recordType: parts.count > 1 ? parts[1] : "Note",
                    recordID: RecordID(recordName: parts[0], zoneID: scope.zoneID), fields: [:])
                record.system.changeTag = try transaction.nextChangeTag()
                try transaction.save(record, in: scope)
            }
        }
    }

    /// Every page of the zone's changes after `token`, `limit` at a time: each page's changes as
    /// names (`-a` a deletion) and whether more were said to come.
    static func pages(after token: String?, limit: Int, store: ContainerStore) throws -> [(String, Bool)] {
        var pages: [(String, Bool)] = []
        var token = token
        while pages.count < 20 {
            let page = try ZoneChanges(in: scope, since: token, limit: limit, user: "_alice", store: store)
            let names = page.changes.map { change in
                switch change {
                case .saved(let record): record.recordID.recordName
                case .deleted(let deletion): "-" + deletion.recordName
                }
            }
            pages.append((names.joined(separator: " "), page.moreComing))
            token = page.syncToken
            if !page.moreComing { break }
        }
        return pages
    }

    @Test(arguments: BackendKind.testable) func pagesThroughChangesOfEveryTypeInOrder(_ backend: BackendKind) throws {
        let testStore = try TestStore(backend)
        let backendStore = try testStore.open()
        let store = ContainerStore(backend: backendStore)
        // Twelve saves of two types, one record saved twice, then a deletion, a record deleted
        // and saved again (its save is its change), and a later save.
        try Self.change(
            ["a", "b:Tag", "c", "d:Tag", "e", "f", "g:Tag", "h", "i", "j", "k:Tag", "l", "b:Tag"], in: backendStore)
        try Self.change(["-c", "-e", "e", "m:Tag"], in: backendStore)
        let pages = try Self.pages(after: nil, limit: 5, store: store)
        #expect(pages.map(\.0) == ["a d f g h", "i j k l b", "-c e m"])
        #expect(pages.map(\.1) == [true, true, false])
        #expect(try Self.pages(after: nil, limit: 200, store: store).map(\.0) == ["a d f g h i j k l b -c e m"])
        // From a token, only what came after it; from the last one, nothing.
        let first = try ZoneChanges(in: Self.scope, since: nil, limit: 9, user: "_alice", store: store)
        #expect(try Self.pages(after: first.syncToken, limit: 3, store: store).map(\.0) == ["b -c e", "m"])
        let all = try ZoneChanges(in: Self.scope, since: nil, limit: 200, user: "_alice", store: store)
        #expect(try Self.pages(after: all.syncToken, limit: 3, store: store).map(\.0) == [""])
        #expect(try ZoneChanges.latestToken(in: Self.scope, store: store) == all.syncToken)
    }

    @Test func aPageHoldsOnlyTheRecordsTheUserMayReadAndReadsOnPastTheOthers() throws {
        let store = try ContainerStore.inMemory()
        let scope = StoreScope()
        let definition = try SchemaDefinition(
            cksl: """
                DEFINE SCHEMA
                    RECORD TYPE Draft (
                        text STRING,
                        GRANT READ, WRITE TO "_creator",
                        GRANT CREATE TO "_icloud"
                    );
                """)
        try store.backend.write { transaction in
            try transaction.applySchema(definition, to: scope.schemaScope)
            // Three of Bob's drafts, then one of Alice's, twice over.
            for (offset, user) in ["_bob", "_bob", "_bob", "_alice", "_bob", "_bob", "_bob", "_alice"].enumerated() {
                var record = CloudRecord(
                    recordType: "Draft", recordID: RecordID(recordName: "d\(offset)", zoneID: scope.zoneID), fields: [:]
                )
                record.system.createdUserRecordName = user
                record.system.changeTag = try transaction.nextChangeTag()
                try transaction.save(record, in: scope)
            }
        }
        func names(_ changes: ZoneChanges) -> [String] {
            changes.changes.compactMap { if case .saved(let record) = $0 { record.recordID.recordName } else { nil } }
        }
        let first = try ZoneChanges(in: scope, since: nil, limit: 1, user: "_alice", store: store)
        #expect(names(first) == ["d3"])
        #expect(first.moreComing)
        let second = try ZoneChanges(in: scope, since: first.syncToken, limit: 1, user: "_alice", store: store)
        #expect(names(second) == ["d7"])
        let last = try ZoneChanges(in: scope, since: second.syncToken, limit: 1, user: "_alice", store: store)
        #expect(names(last).isEmpty && !last.moreComing)
        #expect(try ZoneChanges(in: scope, since: nil, limit: 2, user: "_bob", store: store).changes.count == 2)
    }

    @Test(.timeLimit(.minutes(1))) func readsChangesWithoutWaitingForAnotherRunToMakeTheIndex() throws {
        let testStore = try TestStore(.sqlite)
        let backend = try SQLiteContainerStore(path: testStore.location)
        try Self.change(["a", "b:Tag"], in: backend)
        let store = ContainerStore(backend: backend)
        func indexes() throws -> Int {
            try backend.database.rows(
                "SELECT name FROM sqlite_master WHERE name LIKE '\\_\\_\\_changes\\_%' ESCAPE '\\'"
            )
            .count
        }
        // Another run holds the write lock: the page is read at once, without the index.
        let writer = try SQLiteDatabase(path: testStore.location)
        try writer.execute("BEGIN IMMEDIATE")
        let page = try ZoneChanges(in: Self.scope, since: nil, limit: 10, user: "_alice", store: store)
        #expect(page.changes.count == 2)
        #expect(try indexes() == 0)
        try writer.execute("ROLLBACK")
        _ = try ZoneChanges(in: Self.scope, since: nil, limit: 10, user: "_alice", store: store)
        #expect(try indexes() == 2)
    }
}
