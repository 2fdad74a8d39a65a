import CloudSeedTestSupport
import Foundation
import Testing

@testable import CloudSeed

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
}
