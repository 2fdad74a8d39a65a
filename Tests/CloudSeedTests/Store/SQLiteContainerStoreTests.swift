import CloudSeedTestSupport
import Foundation
import Testing

@testable import CloudSeed
@testable import CloudSeedCore
@testable import CloudSeedReaders
@testable import CloudSeedSchema
@testable import CloudSeedStore

@Suite struct SQLiteContainerStoreTests {
    @Test func laysOutATablePerRecordTypeWithReadableColumns() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("store.sqlite")
        let store = try SQLiteContainerStore(path: path)
        _ = try Importer(store: ContainerStore(backend: store), scope: StoreScope(), now: 0).run([
            SourceFile(path: Repository.sample("ToDoItems/ToDoItems.plist"))
        ])
        let database = try SQLiteDatabase(path: path)
        #expect(
            try database.rows("SELECT name, type FROM pragma_table_info('ToDoItem')") == [
                [.text("___zone"), .text("INTEGER")], [.text("___recordID"), .text("TEXT")],
                [.text("___createTime"), .text("TEXT")], [.text("___createdBy"), .text("TEXT")],
                [.text("___modTime"), .text("TEXT")], [.text("___modifiedBy"), .text("TEXT")],
                [.text("___etag"), .text("TEXT")],
                [.text("dueDate"), .text("TEXT")], [.text("isCompleted"), .text("INTEGER")],
                [.text("title"), .text("TEXT")],
            ])
        #expect(
            try database.rows("SELECT \"___recordID\", dueDate, isCompleted, title FROM ToDoItem ORDER BY 1 LIMIT 1")
                == [
                    [
                        .text("Call Zoe about the gallery"), .text("2019-11-02T17:45:00.000Z"), .integer(0),
                        .text("Call Zoë about the gallery"),
                    ]
                ])
    }

    @Test func aChangedRecordIsChangedInPlace() throws {
        // Saved over the stored one, a changed record keeps its row: the same row id, so the
        // table's other rows and the name index stay as they were.
        let folder = try TemporaryFolder()
        let path = folder.path("store.sqlite")
        let first = try folder.write("a/Artwork.csv", "title,copies\nOne,1\nTwo,2\n")
        let second = try folder.write("b/Artwork.csv", "title,copies\nOne,5\n")
        _ = try Importer(
            store: try ContainerStore(backend: SQLiteContainerStore(path: path)), scope: StoreScope(), now: 1
        ).run([
            SourceFile(path: first)
        ])
        let summary = try Importer(
            store: try ContainerStore(backend: SQLiteContainerStore(path: path)), scope: StoreScope(), now: 2
        ).run([
            SourceFile(path: second)
        ])
        #expect(summary.counts.map(\.updated) == [1])
        let database = try SQLiteDatabase(path: path)
        #expect(
            try database.rows("SELECT rowid, \"___recordID\", copies FROM \"Artwork\" ORDER BY rowid") == [
                [.integer(1), .text("One"), .integer(5)], [.integer(2), .text("Two"), .integer(2)],
            ])
    }

    @Test func anImportedTableHasItsNameIndexAndKeepsNamesUniqueAfterwards() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("store.sqlite")
        let store = try SQLiteContainerStore(path: path)
        _ = try Importer(store: ContainerStore(backend: store), scope: StoreScope(), now: 0).run([
            SourceFile(path: Repository.sample("ToDoItems/ToDoItems.plist"))
        ])
        let database = try SQLiteDatabase(path: path)
        #expect(
            try database.rows("SELECT name, \"unique\" FROM pragma_index_list('ToDoItem')") == [
                [.text("___names_ToDoItem"), .integer(1)]
            ])
        #expect(
            try database.rows("SELECT name FROM pragma_index_info('___names_ToDoItem') ORDER BY seqno") == [
                [.text("___zone")], [.text("___recordID")],
            ])
        // A second import of the same rows replaces them by name instead of adding rows.
        let summary = try Importer(store: ContainerStore(backend: store), scope: StoreScope(), now: 0).run([
            SourceFile(path: Repository.sample("ToDoItems/ToDoItems.plist"))
        ])
        #expect(summary.counts.map(\.unchanged) == [3])
        #expect(try database.rows("SELECT count(*) FROM ToDoItem") == [[.integer(3)]])
    }

    @Test func aRecordSavedTwiceInOneRunOfANewTypeIsRefusedByTheNameIndex() throws {
        let folder = try TemporaryFolder()
        let store = try SQLiteContainerStore(path: folder.path("store.sqlite"))
        let scope = StoreScope()
        #expect(
            throws: CloudSeedError(
                .duplicateRecordName,
                "two records of type Note were given the same record name in one run; give them distinct names")
        ) {
            try store.write { transaction in
                try transaction.createRecordType("Note", in: scope.schemaScope)
                #expect(try transaction.deferNameIndex(ofType: "Note", in: scope.schemaScope))
                let record = CloudRecord(recordType: "Note", recordID: RecordID(recordName: "n1"), fields: [:])
                try transaction.save(record, in: scope)
                try transaction.save(record, in: scope)
            }
        }
        #expect(try store.inventory().schemas.isEmpty)
    }

    @Test func aSchemasFieldIndexesAreBuiltAgainAfterABulkInsert() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("store.sqlite")
        let store = try SQLiteContainerStore(path: path)
        let scope = StoreScope()
        let schema = try CKSLParser.parse(
            "DEFINE SCHEMA\n    RECORD TYPE Note (\n        \"___recordID\" REFERENCE QUERYABLE,\n        title STRING SORTABLE\n    );\n",
            file: "note.ckdb")
        let indexes = {
            try SQLiteDatabase(path: path).rows(
                "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'Note' ORDER BY name")
        }
        try store.write { try $0.applySchema(schema, to: scope.schemaScope) }
        let before = try indexes()
        // The record name's index is the name index: QUERYABLE adds none.
        #expect(before == [[.text("Note__index__title")], [.text("___names_Note")]])
        try store.write { transaction in
            #expect(try transaction.deferNameIndex(ofType: "Note", in: scope.schemaScope))
            for name in ["b", "a"] {
                try transaction.save(
                    CloudRecord(
                        recordType: "Note", recordID: RecordID(recordName: name), fields: ["title": .string(name)]),
                    in: scope)
            }
            try transaction.buildDeferredNameIndexes()
        }
        #expect(try indexes() == before)
        #expect(try SQLiteDatabase(path: path).rows("SELECT count(*) FROM Note") == [[.integer(2)]])
    }

    @Test func refusesSQLiteFilesThatAreNotStores() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("other.sqlite")
        try SQLiteDatabase(path: path).execute("CREATE TABLE notes (body TEXT)")
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(
            throws: CloudSeedError(
                .storeFailure,
                "this SQLite file is not a cloudseed store, so it was left untouched; name a new file with ContainerStore(_:)",
                at: SourcePosition(file: path))
        ) {
            _ = try SQLiteContainerStore(path: path)
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
    }

    @Test func keepsEnvironmentsAndZonesApart() throws {
        let folder = try TemporaryFolder()
        let store = try SQLiteContainerStore(path: folder.path("store.sqlite"))
        let privateZone = StoreScope(database: .private, zoneID: RecordZoneID(zoneName: "Work", ownerName: "_alice"))
        let source = try SourceFile(path: Repository.sample("ToDoItems/ToDoItems.json"))
        _ = try Importer(store: ContainerStore(backend: store), scope: StoreScope(), now: 0).run([source])
        _ = try Importer(store: ContainerStore(backend: store), scope: privateZone, now: 0).run([source])
        let inventory = try store.inventory()
        #expect(
            inventory.zones.map {
                "\($0.database.rawValue)/\($0.zoneID.zoneName)/\($0.zoneID.ownerName):\($0.recordCounts)"
            } == [
                "private/Work/_alice:[\"ToDoItem\": 3]", "public/_defaultZone/__defaultOwner__:[\"ToDoItem\": 3]",
            ])
    }

    @Test func refusesZonesInThePublicDatabase() throws {
        let folder = try TemporaryFolder()
        let store = try SQLiteContainerStore(path: folder.path("store.sqlite"))
        let scope = StoreScope(zoneID: RecordZoneID(zoneName: "Work"))
        #expect(
            throws: CloudSeedError(
                .invalidOption,
                "the public database has only the default zone; drop the zone 'Work' or use the private database")
        ) {
            _ = try Importer(store: ContainerStore(backend: store), scope: scope).run([])
        }
    }

    @Test func takesZoneNamesAsCloudKitDoes() throws {
        let folder = try TemporaryFolder()
        let store = try SQLiteContainerStore(path: folder.path("store.sqlite"))
        let source = try SourceFile(path: Repository.sample("ToDoItems/ToDoItems.json"))
        for zone in ["com.apple.coredata.cloudkit.zone", "6F9619FF-8B86-D011-B42D-00CF4FC964FF", "My Notes"] {
            let scope = StoreScope(database: .private, zoneID: RecordZoneID(zoneName: zone))
            #expect(
                try Importer(store: ContainerStore(backend: store), scope: scope, now: 0).run([source]).counts.map(
                    \.created) == [3])
        }
        for zone in ["_Work", "", "Zoë", String(repeating: "z", count: 256)] {
            let scope = StoreScope(database: .private, zoneID: RecordZoneID(zoneName: zone))
            #expect(
                throws: CloudSeedError(
                    .invalidOption,
                    "zone name '\(zone)' is not valid: a zone name is 1 to 255 ASCII characters and does not start with '_'"
                )
            ) {
                _ = try Importer(store: ContainerStore(backend: store), scope: scope).run([source])
            }
        }
    }
}
