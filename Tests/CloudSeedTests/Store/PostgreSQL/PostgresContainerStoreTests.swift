import CloudSeedTestSupport
import Crypto
import Foundation
import Testing

@testable import CloudSeed
@testable import CloudSeedCore
@testable import CloudSeedReaders
@testable import CloudSeedSchema
@testable import CloudSeedStore

/// What is particular to the PostgreSQL store: its layout, its indexes, and how it names things.
@Suite struct PostgresContainerStoreTests {
    @Test func storeNamesChooseTheBackend() {
        #expect(StoreLocation("cloudseed.sqlite") == .sqlite(path: "cloudseed.sqlite"))
        #expect(StoreLocation("sqlite:data/seed.sqlite") == .sqlite(path: "data/seed.sqlite"))
        #expect(
            StoreLocation("postgres://seed@db:5432/cloudseed") == .postgres(url: "postgres://seed@db:5432/cloudseed"))
        #expect(StoreLocation("postgresql://seed@db/cloudseed") == .postgres(url: "postgresql://seed@db/cloudseed"))
        #expect(
            StoreLocation("postgres://seed:s3cret@db:5432/cloudseed").description
                == "postgres://seed:***@db:5432/cloudseed")
    }

    @Test func aServerThatDoesNotAnswerIsNamedWithoutItsPassword() throws {
        let error = try #require(
            BackupFixture.error { _ = try PostgresContainerStore(url: "postgres://seed:s3cret@127.0.0.1:1/cloudseed") })
        #expect(
            error.hasPrefix(
                "cannot connect to the PostgreSQL store at postgres://seed:***@127.0.0.1:1/cloudseed: connection to server at \"127.0.0.1\", port 1 failed: Connection refused"
            ))
        #expect(
            error.hasSuffix(
                "; check that the server is running there and that the user, password and database in ContainerStore(_:) are right"
            ))
        #expect(!error.contains("s3cret"))
    }

    @Test func namesFitPostgreSQLsLimit() {
        #expect(
            PostgresLayout.schemaName(container: "iCloud.com.example.Gallery", environment: .development)
                == "icloud_com_example_gallery_development")
        let long = String(repeating: "Field", count: 20)
        #expect(
            PostgresLayout.identifier(long) == String(long.prefix(50)) + "_"
                + SHA256.hexDigest(of: Data(long.utf8)).prefix(12))
        #expect(PostgresLayout.identifier(long).utf8.count == 63)
        #expect(PostgresLayout.indexName(table: "Artwork", kind: "index", column: "price") == "Artwork__index__price")
        #expect(PostgresLayout.indexName(table: long, kind: "index", column: long).utf8.count == 45)
    }

    @Test func textWithNULIsRefusedWithWhatToDo() {
        #expect(
            throws: CloudSeedError(
                .invalidValue,
                "PostgreSQL text cannot hold the character U+0000; remove it from the value, or use a SQLite store")
        ) {
            _ = try PostgresValueCodec.encode(.string("a\u{0}b"))
        }
        #expect(
            throws: CloudSeedError(
                .invalidValue,
                "PostgreSQL text cannot hold the character U+0000; remove it from the value, or use a SQLite store")
        ) {
            _ = try PostgresValueCodec.encode(.list(.string, [.string("ok"), .string("\u{0}")]))
        }
    }

    @Test func binaryRowsRefuseNULAndTimestampsBeyondTheYearsAStoreKeeps() throws {
        var memory: [UInt8] = [9, 9, 9]  // a buffer reused from an earlier row: emptied first
        var row = PostgresBinaryRow(fieldCount: 3, reusing: &memory)
        #expect(
            throws: CloudSeedError(
                .invalidValue,
                "PostgreSQL text cannot hold the character U+0000; remove it from the value, or use a SQLite store")
        ) {
            try row.appendValue(.string("a\u{0}b"))
        }
        #expect(
            throws: CloudSeedError(
                .invalidValue,
                "PostgreSQL text cannot hold the character U+0000; remove it from the value, or use a SQLite store")
        ) {
            try row.appendValue(.list(.string, [.string("ok"), .string("\u{0}")]))
        }
        #expect(
            throws: CloudSeedError(
                .invalidValue, "the timestamp 253402300800000 ms is outside the years 0001 to 9999 a store keeps")
        ) {
            try row.appendValue(.timestamp(253_402_300_800_000))
        }
        // What went in before is exactly the count: a field count of 3, big-endian.
        #expect(row.bytes == [0, 3])
        try row.appendValue(.int64(-2))
        try row.appendValue(.timestamp(946_684_800_001))  // 2000-01-01T00:00:00.001Z: 1,000 µs after PostgreSQL's epoch
        try row.appendValue(.location(Location(latitude: 1, longitude: 2)))
        #expect(
            row.bytes == [0, 3] + [0, 0, 0, 8, 255, 255, 255, 255, 255, 255, 255, 254] + [
                0, 0, 0, 8, 0, 0, 0, 0, 0, 0, 3, 232,
            ]
                // A location: 44 bytes of double precision[] (one dimension, no NULL, type 701, two elements from 1), then 1.0 and 2.0.
                + [0, 0, 0, 44] + [0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 2, 189, 0, 0, 0, 2, 0, 0, 0, 1]
                + [0, 0, 0, 8, 63, 240, 0, 0, 0, 0, 0, 0] + [0, 0, 0, 8, 64, 0, 0, 0, 0, 0, 0, 0])
    }

    @Test(.enabled(if: TestPostgresServer.isAvailable, Comment(rawValue: TestPostgresServer.skipReason)))
    func anImportedTableGetsItsKeysBackAndKeepsNamesUniqueAfterwards() throws {
        let testStore = try TestStore(.postgres)
        let store = try PostgresContainerStore(url: testStore.location)
        _ = try Importer(store: ContainerStore(backend: store), scope: StoreScope(), now: 0).run([
            SourceFile(path: Repository.sample("ToDoItems/ToDoItems.plist"))
        ])
        func keys() throws -> [[String?]] {
            try store.connection.rows(
                """
                SELECT conname, pg_get_constraintdef(oid) FROM pg_constraint
                WHERE conrelid = to_regclass('icloud_com_example_cloudseed_development."ToDoItem"') ORDER BY conname
                """)
        }
        let added: [[String?]] = [
            ["ToDoItem____zone_fkey", "FOREIGN KEY (___zone) REFERENCES cloudseed.zones(id) NOT VALID"],
            ["ToDoItem_pkey", "PRIMARY KEY (___zone, \"___recordID\")"],
        ]
        #expect(try keys() == added)
        // A second import of the same rows finds them by name instead of adding rows; the foreign
        // key it let wait is back, and a row of no zone is refused again.
        let summary = try Importer(store: ContainerStore(backend: store), scope: StoreScope(), now: 0).run([
            SourceFile(path: Repository.sample("ToDoItems/ToDoItems.plist"))
        ])
        #expect(summary.counts.map(\.unchanged) == [3])
        #expect(
            try store.connection.rows("SELECT count(*) FROM icloud_com_example_cloudseed_development.\"ToDoItem\"") == [
                ["3"]
            ])
        #expect(try keys() == added)
        #expect(throws: (any Error).self) {
            try store.connection.execute(
                "INSERT INTO icloud_com_example_cloudseed_development.\"ToDoItem\" (___zone, \"___recordID\", \"___createTime\", \"___createdBy\", \"___modTime\", \"___modifiedBy\", \"___etag\") SELECT 9999, 'nowhere', \"___createTime\", \"___createdBy\", \"___modTime\", \"___modifiedBy\", \"___etag\" FROM icloud_com_example_cloudseed_development.\"ToDoItem\" LIMIT 1"
            )
        }
    }

    /// A run that fails after creating a zone leaves no trace of it, not even in the zones'
    /// numbering: the next zone created is the first.
    @Test(.enabled(if: TestPostgresServer.isAvailable, Comment(rawValue: TestPostgresServer.skipReason)))
    func aFailedRunLeavesTheZonesNumberingAsItWas() throws {
        let testStore = try TestStore(.postgres)
        let store = try PostgresContainerStore(url: testStore.location)
        struct Failure: Error {}
        var failedRunsZone: Int64?
        #expect(throws: Failure.self) {
            try store.write { _ in
                failedRunsZone = try store.zoneKey(StoreScope(), create: true)
                throw Failure()
            }
        }
        #expect(failedRunsZone == 1)
        let zones = try store.write { _ in
            [
                try store.zoneKey(StoreScope(container: "iCloud.com.example.Gallery"), create: true),
                try store.zoneKey(StoreScope(), create: true),
            ]
        }
        #expect(zones == [1, 2])
        #expect(
            try store.connection.rows("SELECT id, container FROM cloudseed.zones ORDER BY id") == [
                ["1", "iCloud.com.example.Gallery"], ["2", "iCloud.com.example.cloudseed"],
            ])
    }

    /// Rows inserted new into a table whose keys wait leave their zone and shared system fields to
    /// the table's defaults, set for each run of rows that share them and dropped with the keys'
    /// return: the rows read as the same records saved the long way into a table of its own.
    @Test(.enabled(if: TestPostgresServer.isAvailable, Comment(rawValue: TestPostgresServer.skipReason)))
    func rowsInsertedIntoATableWithoutItsKeysLeaveTheirSharedColumnsToDefaultsDroppedAfterwards() throws {
        let testStore = try TestStore(.postgres)
        let store = try PostgresContainerStore(url: testStore.location)
        let scope = StoreScope()
        func system(_ created: Int64, _ user: String, _ tag: String) -> SystemFields {
            SystemFields(
                createdTimestamp: created, createdUserRecordName: user, modifiedTimestamp: created + 1,
                modifiedUserRecordName: user + "'s", changeTag: tag)
        }
        // Two runs of shared system fields, a record saved whole between them, then the first again.
        let records: [(name: String, system: SystemFields, isSaved: Bool)] = [
            ("a", system(1_700_000_000_123, "_x", "1"), false), ("b", system(1_700_000_000_123, "_x", "2"), false),
            ("c", system(1_600_000_000_000, "_y", "3"), false), ("d", system(1_650_000_000_000, "_z", "4"), true),
            ("e", system(1_700_000_000_123, "_x", "5"), false),
        ]
        try store.write { transaction in
            for type in ["Saved", "Inserted"] {
                try transaction.createRecordType(type, in: scope.schemaScope)
                try transaction.addField("title", type: .string, to: type, in: scope.schemaScope)
            }
            #expect(try transaction.deferNameIndex(ofType: "Inserted", in: scope.schemaScope))
            for (name, system, isSaved) in records {
                var record = CloudRecord(
                    recordType: "Saved", recordID: RecordID(recordName: name), fields: ["title": .string("T " + name)])
                record.system = system
                try transaction.save(record, in: scope)
                if isSaved {
                    record.recordType = "Inserted"
                    try transaction.save(record, in: scope)
                } else {
                    let flat = TypedRecord(
                        recordType: "Inserted", recordName: name, values: [.string("T " + name)],
                        position: SourcePosition(file: "test"))
                    try transaction.insertNew(flat, fieldNames: ["title"], system: system, in: scope)
                }
            }
        }
        func rows(_ table: String) throws -> [[String?]] {
            try store.connection.rows(
                "SELECT t::text FROM icloud_com_example_cloudseed_development.\"\(table)\" t ORDER BY \"___recordID\"")
        }
        #expect(try rows("Inserted").count == 5)
        #expect(try rows("Inserted") == rows("Saved"))
        #expect(
            try rows("Inserted").last == [
                "(1,e,\"2023-11-14 22:13:20.123+00\",_x,\"2023-11-14 22:13:20.124+00\",_x's,5,\"T e\")"
            ])
        #expect(
            try store.connection.rows(
                """
                SELECT count(*) FROM information_schema.columns
                WHERE table_schema = 'icloud_com_example_cloudseed_development' AND column_default IS NOT NULL
                """) == [["0"]])
        #expect(
            try store.connection.rows(
                """
                SELECT conname FROM pg_constraint WHERE conrelid = to_regclass('icloud_com_example_cloudseed_development."Inserted"') ORDER BY 1
                """) == [["Inserted____zone_fkey"], ["Inserted_pkey"]])
    }

    @Test(.enabled(if: TestPostgresServer.isAvailable, Comment(rawValue: TestPostgresServer.skipReason)))
    func aRecordSavedTwiceInOneRunOfANewTypeIsRefusedByThePrimaryKey() throws {
        let testStore = try TestStore(.postgres)
        let store = try PostgresContainerStore(url: testStore.location)
        let scope = StoreScope()
        #expect(
            throws: CloudSeedError(
                .duplicateRecordName,
                "two records of type Note were given the same record name in one run; give them distinct names")
        ) {
            try store.write { transaction in
                try transaction.createRecordType("Note", in: scope.schemaScope)
                try transaction.createRecordType("Other", in: scope.schemaScope)
                #expect(try transaction.deferNameIndex(ofType: "Note", in: scope.schemaScope))
                let record = CloudRecord(recordType: "Note", recordID: RecordID(recordName: "n1"), fields: [:])
                try transaction.save(record, in: scope)
                // Deferring another table's keys sends the pending rows: the second save is a row of its own.
                #expect(try transaction.deferNameIndex(ofType: "Other", in: scope.schemaScope))
                try transaction.save(record, in: scope)
            }
        }
        #expect(try store.inventory().schemas.isEmpty)
    }

    @Test(.enabled(if: TestPostgresServer.isAvailable, Comment(rawValue: TestPostgresServer.skipReason)))
    func aBackgroundFailureIsThrownByTheNextStatementAndRollsTheRunBack() throws {
        let testStore = try TestStore(.postgres)
        let connection = try PostgresConnection(url: testStore.location)
        try connection.execute("CREATE TABLE t (n bigint)")
        #expect(throws: connection.storeError("division by zero")) {
            try connection.transaction {
                try connection.execute("INSERT INTO t VALUES (1)")
                try connection.inBackground { try $0.execute("INSERT INTO t VALUES (1 / 0)") }
                try connection.execute("INSERT INTO t VALUES (2)")
            }
        }
        #expect(try connection.rows("SELECT count(*) FROM t") == [["0"]])
    }

    @Test(.enabled(if: TestPostgresServer.isAvailable, Comment(rawValue: TestPostgresServer.skipReason)))
    func laysOutASchemaPerEnvironmentWithATablePerTypeInNaturalTypes() throws {
        let testStore = try TestStore(.postgres)
        let store = try PostgresContainerStore(url: testStore.location)
        _ = try Importer(store: ContainerStore(backend: store), scope: StoreScope(), now: 0).run([
            SourceFile(path: Repository.sample("ToDoItems/ToDoItems.plist"))
        ])
        #expect(
            try store.connection.rows("SELECT schema_name FROM cloudseed.environments") == [
                ["icloud_com_example_cloudseed_development"]
            ])
        #expect(
            try store.connection.rows(
                """
                SELECT column_name, data_type FROM information_schema.columns
                WHERE table_schema = 'icloud_com_example_cloudseed_development' AND table_name = 'ToDoItem' ORDER BY ordinal_position
                """) == [
                    ["___zone", "bigint"], ["___recordID", "text"], ["___createTime", "timestamp with time zone"],
                    ["___createdBy", "text"],
                    ["___modTime", "timestamp with time zone"], ["___modifiedBy", "text"], ["___etag", "text"],
                    ["dueDate", "timestamp with time zone"], ["isCompleted", "bigint"], ["title", "text"],
                ])
        #expect(
            try store.connection.rows(
                """
                SELECT "___recordID", "dueDate"::text, "isCompleted"::text, title FROM icloud_com_example_cloudseed_development."ToDoItem" ORDER BY 1 LIMIT 1
                """) == [["Call Zoe about the gallery", "2019-11-02 17:45:00+00", "0", "Call Zoë about the gallery"]])
    }

    @Test(.enabled(if: TestPostgresServer.isAvailable, Comment(rawValue: TestPostgresServer.skipReason)))
    func storesOfAnotherFormatAreRefused() throws {
        let testStore = try TestStore(.postgres)
        try PostgresContainerStore(url: testStore.location).connection.execute(
            "UPDATE cloudseed.meta SET value = '3' WHERE key = 'format'")
        #expect(
            throws: CloudSeedError(
                .storeFailure, "this store was written by another version of cloudseed (format 3); use that version",
                at: SourcePosition(file: testStore.location))
        ) {
            _ = try PostgresContainerStore(url: testStore.location)
        }
    }

    @Test(.enabled(if: TestPostgresServer.isAvailable, Comment(rawValue: TestPostgresServer.skipReason)))
    func locationsAreArraysOfDoublesAndAStoreOfFormatOneHasItsJSONLocationsChangedOnce() throws {
        let testStore = try TestStore(.postgres)
        let store = try PostgresContainerStore(url: testStore.location)
        let scope = StoreScope()
        var options = MappingOptions()
        options.allowDangling = true  // AllTypes.json's assets are metadata only
        _ = try Importer(store: ContainerStore(backend: store), scope: scope, options: options, now: 0).run([
            SourceFile(path: Repository.sample("CloudKit/AllTypes.json"))
        ])
        let table = #"icloud_com_example_cloudseed_development."Specimen""#
        #expect(
            try store.connection.rows("SELECT place::text, pg_typeof(place)::text FROM \(table) ORDER BY 1")
                == [
                    ["{-33.8688,151.2093,58.5,5,3.5,90,1.25,1572220800000}", "double precision[]"],
                    [nil, "double precision[]"],
                ])
        var before: [[UInt8]] = []
        _ = try store.forEachRecordJSONLine(in: scope, recordType: nil) { before.append($0) }
        // The store as format 1 left it: the location in JSON, without the members it lacks.
        try store.connection.execute(
            """
            ALTER TABLE \(table) ALTER COLUMN place TYPE jsonb USING CASE WHEN place IS NOT NULL THEN jsonb_strip_nulls(jsonb_build_object(
                'latitude', place[1], 'longitude', place[2], 'altitude', place[3], 'horizontalAccuracy', place[4],
                'verticalAccuracy', place[5], 'course', place[6], 'speed', place[7], 'timestamp', place[8]::bigint)) END;
            UPDATE cloudseed.meta SET value = '1' WHERE key = 'format'
            """)
        let upgraded = try PostgresContainerStore(url: testStore.location)
        #expect(
            try upgraded.connection.rows("SELECT place::text, pg_typeof(place)::text FROM \(table) ORDER BY 1")
                == [
                    ["{-33.8688,151.2093,58.5,5,3.5,90,1.25,1572220800000}", "double precision[]"],
                    [nil, "double precision[]"],
                ])
        #expect(try upgraded.connection.rows("SELECT value FROM cloudseed.meta WHERE key = 'format'") == [["2"]])
        var after: [[UInt8]] = []
        _ = try upgraded.forEachRecordJSONLine(in: scope, recordType: nil) { after.append($0) }
        #expect(after == before)
        #expect(
            PostgresValueCodec.location(arrayText: "{1.5,-2,NULL,NULL,NULL,NULL,NULL,1e+15}")
                == Location(latitude: 1.5, longitude: -2, timestamp: 1_000_000_000_000_000))
        #expect(PostgresValueCodec.location(arrayText: "{1.5}") == nil)
        #expect(
            try PostgresValueCodec.encode(.location(Location(latitude: 1.5, longitude: -2, speed: 3)))
                == "{1.5,-2.0,NULL,NULL,NULL,NULL,3.0}")
    }

    @Test(.enabled(if: TestPostgresServer.isAvailable, Comment(rawValue: TestPostgresServer.skipReason)))
    func schemaOptionsBecomeBTreeAndFullTextIndexes() throws {
        let testStore = try TestStore(.postgres)
        let store = try PostgresContainerStore(url: testStore.location)
        let seeder = Seeder(store: ContainerStore(backend: store))
        _ = try seeder.run(try FixtureManifest(path: Repository.sample("gallery.json")))
        let indexes = try store.connection.rows(
            """
            SELECT tablename, indexname FROM pg_indexes WHERE schemaname = 'icloud_com_example_gallery_development' ORDER BY 1, 2
            """
        ).map { "\($0[0]!).\($0[1]!)" }
        #expect(
            indexes == [
                "Artist.Artist__index_____recordID", "Artist.Artist__index__lastName", "Artist.Artist_pkey",
                "Artwork.Artwork__index_____recordID", "Artwork.Artwork__index__catalogNumber",
                "Artwork.Artwork__index__location",
                "Artwork.Artwork__index__price", "Artwork.Artwork__index__title", "Artwork.Artwork__search",
                "Artwork.Artwork_pkey",
                "Person.Person_pkey", "ToDoItem.ToDoItem_pkey",
            ])
        let search = try store.connection.rows(
            """
            SELECT col_description('icloud_com_example_gallery_development."Artwork"'::regclass, attnum) FROM pg_attribute
            WHERE attrelid = 'icloud_com_example_gallery_development."Artwork"'::regclass AND attname = '___search'
            """)
        #expect(search == [["title"]])
    }
}
