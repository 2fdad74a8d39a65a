import CloudSeedTestSupport
import Foundation
import Testing

@testable import CloudKitWire
@testable import CloudSeed
@testable import CloudSeedCore
@testable import CloudSeedReaders
@testable import CloudSeedSchema
@testable import CloudSeedStore

/// One suite, every backend: what a store keeps and gives back does not depend on where it lives.
/// Tests taking a backend run on each of ``BackendKind/testable``; the others compare SQLite with
/// PostgreSQL and need `CLOUDSEED_TEST_POSTGRES_URL`.
@Suite struct StoreConformanceTests {
    static let backupTime: Int64 = 1_800_000_000_000

    /// Every record of every zone of `container`, as CloudKit JSON lines.
    static func export(_ store: any StoreBackend, container: String = StoreScope.defaultContainer) throws -> [String] {
        try BackupFixture.records(of: store, container: container).map(CloudKitJSON.record)
    }

    /// Backs `store` up into `folder/name` and returns the bundle's files.
    static func backup(_ store: any StoreBackend, _ folder: TemporaryFolder, _ name: String) throws -> [String: Data] {
        try BackupWriter(store: ContainerStore(backend: store), now: backupTime).write(to: folder.path(name))
        return try BackupFixture.files(in: folder.path(name))
    }

    @Test(arguments: BackendKind.testable) func backupRestoreBackupGivesTheSameBundle(_ backend: BackendKind) throws {
        let original = try TestStore(backend)
        let store = try original.open()
        try BackupFixture.fill(store)
        let first = try Self.backup(store, original.folder, "first")
        let restored = try TestStore(backend, folder: original.folder, name: "restored.sqlite")
        let target = try restored.open()
        let manifest = try Restorer(store: ContainerStore(backend: target)).restore(
            BackupBundle(verifying: original.folder.path("first")))
        #expect(manifest.summary == "16 records in 4 zones, 4 assets")
        #expect(try Self.backup(target, original.folder, "second") == first)
        #expect(try Self.export(target) == Self.export(store))
    }

    @Test(.enabled(if: TestPostgresServer.isAvailable, Comment(rawValue: TestPostgresServer.skipReason)))
    func theSameImportsGiveIdenticalBundlesOnBothBackends() throws {
        let sqlite = try TestStore(.sqlite)
        let postgres = try TestStore(.postgres, folder: sqlite.folder)
        let (sqliteStore, postgresStore) = (try sqlite.open(), try postgres.open())
        try BackupFixture.fill(sqliteStore)
        try BackupFixture.fill(postgresStore)
        #expect(
            try Self.backup(postgresStore, sqlite.folder, "postgres")
                == Self.backup(sqliteStore, sqlite.folder, "sqlite"))
        #expect(try postgresStore.inventory().text == sqliteStore.inventory().text)
    }

    @Test(.enabled(if: TestPostgresServer.isAvailable, Comment(rawValue: TestPostgresServer.skipReason)))
    func theSameSeedManifestGivesIdenticalExports() throws {
        let manifest = try FixtureManifest(path: Repository.sample("gallery.json"))
        var exports: [[String]] = []
        var summaries: [String] = []
        for backend in BackendKind.allCases {
            let testStore = try TestStore(backend)
            let store = try testStore.open()
            var seeder = Seeder(store: ContainerStore(backend: store))
            seeder.now = 1_700_000_000_000
            summaries.append(
                try seeder.run(manifest).text.replacingOccurrences(
                    of: #"in \d+\.\d+ s"#, with: "", options: .regularExpression))
            #expect(try seeder.run(manifest).counts.allSatisfy { $0.created == 0 && $0.updated == 0 })
            exports.append(try Self.export(store, container: manifest.container))
        }
        #expect(exports[0].count == 11)
        #expect(exports[0] == exports[1])
        #expect(summaries[0] == summaries[1])
    }

    @Test(.enabled(if: TestPostgresServer.isAvailable, Comment(rawValue: TestPostgresServer.skipReason)))
    func backupsMoveFromSQLiteToPostgreSQLAndBackUnchanged() throws {
        let sqlite = try TestStore(.sqlite)
        let original = try sqlite.open()
        try BackupFixture.fill(original)
        let first = try Self.backup(original, sqlite.folder, "first")
        let postgres = try TestStore(.postgres, folder: sqlite.folder)
        let server = try postgres.open()
        try Restorer(store: ContainerStore(backend: server)).restore(
            BackupBundle(verifying: sqlite.folder.path("first")))
        let second = try Self.backup(server, sqlite.folder, "second")
        #expect(second == first)
        let back = try TestStore(.sqlite, folder: sqlite.folder, name: "back.sqlite").open()
        try Restorer(store: ContainerStore(backend: back)).restore(
            BackupBundle(verifying: sqlite.folder.path("second")))
        #expect(try Self.backup(back, sqlite.folder, "third") == first)
        #expect(try Self.export(back) == Self.export(original))
    }

    @Test(arguments: BackendKind.testable) func aFailedRunLeavesTheStoreAsItWas(_ backend: BackendKind) throws {
        let testStore = try TestStore(backend)
        let store = try testStore.open()
        _ = try Importer(store: ContainerStore(backend: store), scope: StoreScope(), now: 0).run([
            SourceFile(path: Repository.sample("ToDoItems/ToDoItems.plist"))
        ])
        let before = try Self.export(store)
        let bad = try testStore.folder.write(
            "ToDoItem.csv", "title,isCompleted,notes\nGet apples,1,new\nNew item,maybe,x\n")
        #expect(throws: CloudSeedError.self) {
            _ = try Importer(store: ContainerStore(backend: store), scope: StoreScope(), now: 1).run([
                SourceFile(path: bad)
            ])
        }
        #expect(try Self.export(store) == before)
        #expect(try store.schema(of: StoreScope().schemaScope).recordTypes["ToDoItem"]?.fields["notes"] == nil)
    }

    @Test(arguments: BackendKind.testable) func productionRefusesNewTypesAndSaveModesRefuseStaleRecords(
        _ backend: BackendKind
    ) throws {
        let testStore = try TestStore(backend)
        let store = try testStore.open()
        let path = Repository.sample("ToDoItems/ToDoItems.csv")
        #expect(
            errorMessages {
                _ = try Importer(store: ContainerStore(backend: store), scope: StoreScope(environment: .production))
                    .run([SourceFile(path: path)]
                    )
            } == [
                "\(path):2:1: Cannot create new type ToDoItem in production schema; import into the development environment, where types are created just in time"
            ])
        #expect(try store.inventory().zones.isEmpty)
        _ = try Importer(store: ContainerStore(backend: store), scope: StoreScope(), now: 0).run([
            SourceFile(path: path)
        ])
        let stale = try testStore.folder.write(
            "ToDoItem.jsonl",
            #"{"recordName":"Get apples","recordType":"ToDoItem","recordChangeTag":"zz","fields":{"title":{"value":"Get pears","type":"STRING"}}}"#
        )
        var importer = Importer(store: ContainerStore(backend: store), scope: StoreScope(), now: 1)
        importer.mode = .updateIfUnchanged
        #expect(throws: CloudSeedError.self) { _ = try importer.run([SourceFile(path: stale)]) }
        #expect(
            try store.write { try $0.record("Get apples", ofType: "ToDoItem", in: StoreScope()) }?.fields["title"]
                == .string("Get apples"))
    }

    @Test(arguments: BackendKind.testable) func manyRowsGoInBatchesAndChangedRowsReplaceTheirs(_ backend: BackendKind)
        throws
    {
        let testStore = try TestStore(backend)
        let store = try testStore.open()
        let count = PostgresPendingRows.batchSize * 2 + 500
        func rows(changing changed: Int) -> String {
            "name,rank,note\n"
                + (0..<count).map { "item \($0),\($0),\($0 < changed ? "changed\tnote \\ \($0)" : "note \($0)")" }
                .joined(separator: "\n")
        }
        let first = try testStore.folder.write("Item.csv", rows(changing: 0))
        let created = try Importer(store: ContainerStore(backend: store), scope: StoreScope(), now: 0).run([
            SourceFile(path: first)
        ])
        #expect(created.counts.map(\.created) == [count])
        let second = try testStore.folder.write("Item.csv", rows(changing: 1_000))
        let updated = try Importer(store: ContainerStore(backend: store), scope: StoreScope(), now: 1).run([
            SourceFile(path: second)
        ])
        #expect(updated.counts.map { [$0.created, $0.updated, $0.unchanged] } == [[0, 1_000, count - 1_000]])
        #expect(try store.inventory().zones.first?.recordCounts == ["Item": count])
        let changed = try #require(try store.write { try $0.record("item 7", ofType: "Item", in: StoreScope()) })
        #expect(changed.fields["note"] == .string("changed\tnote \\ 7"))
        #expect(changed.system.createdTimestamp == 0 && changed.system.modifiedTimestamp == 1)
    }

    /// Records typed where they are read are saved with their values encoded there; a run whose
    /// records have fewer fields than their table, in another order, leaves the others unset.
    @Test(arguments: BackendKind.testable) func valuesEncodedWhereTypedAreKeptAsGiven(_ backend: BackendKind) throws {
        let testStore = try TestStore(backend)
        let store = try testStore.open()
        let rows = """
            name,rank,score,note,when,tags,latitude,longitude
            item 1,3,2.5,"Zürich, ""old"" town",2024-05-06T07:08:09Z,"[""oil"",""coast""]",47.37,8.54
            item 2,,-0.25,,,[],,
            """
        _ = try Importer(store: ContainerStore(backend: store), scope: StoreScope(), now: 0).run([
            SourceFile(path: try testStore.folder.write("Item.csv", rows))
        ])
        let other = StoreScope(database: .private, zoneID: RecordZoneID(zoneName: "Second"))
        _ = try Importer(store: ContainerStore(backend: store), scope: other, now: 0).run([
            SourceFile(path: try testStore.folder.write("Item.csv", "note,name,score\nsecond,item 1,7\n,item 2,\n"))
        ])
        let (first, second, unset, alone) = try store.write { transaction in
            (
                try transaction.record("item 1", ofType: "Item", in: StoreScope())?.fields,
                try transaction.record("item 1", ofType: "Item", in: other)?.fields,
                try transaction.record("item 2", ofType: "Item", in: StoreScope())?.fields,
                try transaction.record("item 2", ofType: "Item", in: other)?.fields
            )
        }
        #expect(
            first == [
                "name": .string("item 1"), "rank": .int64(3), "score": .double(2.5),
                "note": .string("Zürich, \"old\" town"),
                "when": .timestamp(1_714_979_289_000), "tags": .list(.string, [.string("oil"), .string("coast")]),
                "location": .location(Location(latitude: 47.37, longitude: 8.54)),
            ])
        #expect(second == ["name": .string("item 1"), "note": .string("second"), "score": .double(7)])
        #expect(unset == ["name": .string("item 2"), "score": .double(-0.25), "tags": .list(.string, [])])
        #expect(alone == ["name": .string("item 2")])
    }

    @Test(arguments: BackendKind.testable) func recordsNewToAZoneGoInAmongStoredOnesInTheirOrder(_ backend: BackendKind)
        throws
    {
        let testStore = try TestStore(backend)
        let store = try testStore.open()
        let count = Importer.lookupBatchSize + 904
        let firstRows = "name,rank\n" + (0..<count).map { "item \($0),\($0)" }.joined(separator: "\n")
        let first = try testStore.folder.write("Item.csv", firstRows)
        _ = try Importer(store: ContainerStore(backend: store), scope: StoreScope(), now: 0).run([
            SourceFile(path: first)
        ])
        // Each stored item (every seventh changed) followed by a new one, over two batches of lookups.
        let rows = (0..<count).map { "item \($0),\($0 % 7 == 0 ? -1 - $0 : $0)\nitem \(count + $0),\(count + $0)" }
        let second = try testStore.folder.write("Item.csv", "name,rank\n" + rows.joined(separator: "\n"))
        let summary = try Importer(store: ContainerStore(backend: store), scope: StoreScope(), now: 1).run([
            SourceFile(path: second)
        ])
        let changed = (count + 6) / 7
        #expect(summary.counts.map { [$0.created, $0.updated, $0.unchanged] } == [[count, changed, count - changed]])
        #expect(try store.inventory().zones.map(\.recordCounts) == [["Item": 2 * count]])
        let tags = try store.write { transaction in
            try [0, count, count + 6, 7, count + 7, 2 * count - 1].map { number in
                try transaction.record("item \(number)", ofType: "Item", in: StoreScope())?.system.changeTag
            }
        }
        let counters = tags.map { $0.flatMap { Int($0, radix: 36) } ?? -1 }
        #expect(counters == counters.sorted() && Set(counters).count == counters.count && counters[0] > count)
        let new = try #require(try store.write { try $0.record("item \(count)", ofType: "Item", in: StoreScope()) })
        #expect(new.fields["rank"] == .int64(Int64(count)) && new.system.createdTimestamp == 1)

        // Another zone of the same type holds none of them: its records all go in as new.
        let other = StoreScope(database: .private, zoneID: RecordZoneID(zoneName: "Second"))
        let zoned = try Importer(store: ContainerStore(backend: store), scope: other, now: 2).run([
            SourceFile(path: try testStore.folder.write("Item.csv", firstRows))
        ])
        #expect(zoned.counts.map { [$0.created, $0.updated, $0.unchanged] } == [[count, 0, 0]])
        #expect(
            try store.inventory().zones.map { [$0.zoneID.zoneName: $0.recordCounts] } == [
                ["Second": ["Item": count]], ["_defaultZone": ["Item": 2 * count]],
            ])
    }

    @Test(arguments: BackendKind.testable) func zonesAreListedInNameOrderAsTheInventoryListsThem(
        _ backend: BackendKind
    ) throws {
        let testStore = try TestStore(backend)
        let store = try testStore.open()
        try BackupFixture.fill(store)
        let zones = try store.zones()
        #expect(
            zones.map { "\($0.environment) \($0.database) \($0.zoneID.ownerName) \($0.zoneID.zoneName)" } == [
                "development private _alice Work", "development public __defaultOwner__ _defaultZone",
                "development shared _bob Family", "production public __defaultOwner__ _defaultZone",
            ])
        #expect(
            try store.inventory().zones.map {
                StoreScope(
                    container: $0.container, environment: $0.environment, database: $0.database, zoneID: $0.zoneID)
            } == zones)
    }

    @Test(arguments: BackendKind.testable) func theLatestChangeTagIsTheHighestCounterOfAnyType(_ backend: BackendKind)
        throws
    {
        let testStore = try TestStore(backend)
        let store = try testStore.open()
        let scope = StoreScope(database: .private, zoneID: RecordZoneID(zoneName: "Notes"))
        #expect(try store.latestChangeTag(in: scope) == nil)
        try store.write { transaction in
            for type in ["Note", "Task"] { try transaction.createRecordType(type, in: scope.schemaScope) }
            // Past 35 ("z"), change tags take two digits: "z" is the greater text, not the later tag.
            for index in 0..<40 {
                var record = CloudRecord(
                    recordType: index == 30 ? "Task" : "Note",
                    recordID: RecordID(recordName: "n\(index)", zoneID: scope.zoneID), fields: [:])
                record.system.changeTag = try transaction.nextChangeTag()
                try transaction.save(record, in: scope)
            }
        }
        var latest: Int64 = 0
        try store.forEachRecord(in: scope, recordType: nil) {
            latest = max(latest, Int64($0.system.changeTag, radix: 36)!)
        }
        #expect(latest >= 40)
        #expect(try store.latestChangeTag(in: scope) == latest)
        try store.indexChanges(in: scope.schemaScope)
        #expect(try store.latestChangeTag(in: scope) == latest)
    }

    @Test(arguments: BackendKind.testable) func readsInsideARunSeeItsOwnWrites(_ backend: BackendKind) throws {
        let testStore = try TestStore(backend)
        let store = try testStore.open()
        let scope = StoreScope()
        let names: [String] = try store.write { transaction in
            try transaction.createRecordType("Note", in: scope.schemaScope)
            try transaction.addField("body", type: .string, to: "Note", in: scope.schemaScope)
            for (name, body) in [("a", "first"), ("b", "second"), ("a", "again")] {
                var record = CloudRecord(
                    recordType: "Note", recordID: RecordID(recordName: name, zoneID: scope.zoneID),
                    fields: ["body": .string(body)])
                record.system.changeTag = try transaction.nextChangeTag()
                try transaction.save(record, in: scope)
            }
            #expect(try transaction.record("a", ofType: "Note", in: scope)?.fields["body"] == .string("again"))
            #expect(try transaction.delete("b", ofType: "Note", in: scope))
            #expect(try !transaction.delete("b", ofType: "Note", in: scope))
            var names: [String] = []
            try store.forEachRecord(in: scope, recordType: "Note") { names.append($0.recordID.recordName) }
            return names
        }
        #expect(names == ["a"])
        #expect(try Self.export(store).count == 1)
    }

    @Test(arguments: BackendKind.testable) func lookupsSeeRowsSavedAfterTheyWereReadAhead(_ backend: BackendKind) throws
    {
        let testStore = try TestStore(backend)
        let store = try testStore.open()
        let scope = StoreScope()
        let file = try testStore.folder.write(
            "Note.csv", "name,body\n" + (0..<100).map { "n\($0),body \($0)" }.joined(separator: "\n"))
        _ = try Importer(store: ContainerStore(backend: store), scope: scope, now: 0).run([SourceFile(path: file)])
        try store.write { transaction in
            for name in ["n0", "n1", "n2", "n3"] { _ = try transaction.record(name, ofType: "Note", in: scope) }
            var changed = try #require(try transaction.record("n4", ofType: "Note", in: scope))
            changed.fields["body"] = .string("changed")
            try transaction.save(changed, in: scope)
            try store.forEachRecord(in: scope, recordType: "Note") { _ in }
            #expect(try transaction.record("n4", ofType: "Note", in: scope)?.fields["body"] == .string("changed"))
            #expect(try transaction.delete("n5", ofType: "Note", in: scope))
            #expect(try transaction.record("n5", ofType: "Note", in: scope) == nil)
            #expect(try transaction.record("n6", ofType: "Note", in: scope)?.fields["body"] == .string("body 6"))
            #expect(try transaction.record("none", ofType: "Note", in: scope) == nil)
        }
    }
}
