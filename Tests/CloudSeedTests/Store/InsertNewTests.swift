import CloudSeedTestSupport
import Foundation
import Testing

@testable import CloudSeed
@testable import CloudSeedCore
@testable import CloudSeedReaders
@testable import CloudSeedSchema
@testable import CloudSeedStore

/// A new record inserted the short way (``SQLiteContainerStore/insertNew(_:fieldNames:system:in:)``,
/// bound value by value; ``PostgresContainerStore/insertNew(_:fieldNames:system:in:)``, its binary
/// `COPY` row made from its values) is stored as saving it the long way stores it.
@Suite struct InsertNewTests {
    static let values: [String: RecordValue] = [
        "text": .string("  say \"hi\"\\ \n\t\u{1} Fenêtre 🔥 漢字"),
        "blank": .string(""),
        "number": .int64(Int64.min),
        "real": .double(1),
        "tiny": .double(.leastNonzeroMagnitude),
        "data": .bytes(Data([0, 1, 2, 250, 255])),
        "when": .timestamp(-2_208_988_800_000),
        "beyond": .timestamp(Timestamp.range.upperBound + 1),
        "place": .location(Location(latitude: 39.240171, longitude: -91.202184)),
        "measured": .location(
            Location(
                latitude: 39.5, longitude: -123, altitude: 12.25, horizontalAccuracy: 5, verticalAccuracy: nil,
                course: 90, speed: 1.5, timestamp: 1_700_000_000_000)),
        "plain": .reference(Reference(recordName: "Mei Chen")),
        "owner": .reference(Reference(recordName: "Mei Chen", action: .deleteSelf)),
        "curly": .reference(Reference(recordName: "{odd}")),
        "tags": .list(.string, [.string("oil"), .string("a \"b\"\n")]),
        "counts": .list(.int64, [.int64(1), .int64(-2)]),
        "weights": .list(.double, [.double(1), .double(2.5)]),
        "whens": .list(.timestamp, [.timestamp(0), .timestamp(1_572_220_800_123)]),
        "refs": .list(
            .reference,
            [.reference(Reference(recordName: "a")), .reference(Reference(recordName: "b", action: .deleteSelf))]),
        "blobs": .list(.bytes, [.bytes(Data([1, 2, 3]))]),
        "places": .list(.location, [.location(Location(latitude: 1, longitude: 2))]),
        "empty": .list(.string, []),
    ]

    @Test func aNewRecordIsStoredByteForByteAsSavingItStoresIt() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("store.sqlite")
        let store = try SQLiteContainerStore(path: path)
        let scope = StoreScope()
        let names = Self.values.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        let first = SystemFields(
            createdTimestamp: 1_700_000_000_123, createdUserRecordName: "_a", modifiedTimestamp: 1_700_000_000_456,
            modifiedUserRecordName: "_b", changeTag: "9")
        var second = SystemFields(
            createdTimestamp: 1_600_000_000_000, createdUserRecordName: "_c", modifiedTimestamp: 1_600_000_000_001,
            modifiedUserRecordName: "_d", changeTag: "a")
        var third = second
        third.changeTag = "b"
        second.changeTag = "c"
        // A full record, then sparse ones, one after the other as an import inserts them: nothing
        // bound for one may linger in the next, neither a field nor a system column (the shared
        // system columns stay bound only while they are the same; a record saved the long way in
        // between binds its own).
        let sparse = ["real": RecordValue.double(-0.5)]
        let records: [(name: String, fields: [String: RecordValue], system: SystemFields, isSaved: Bool)] = [
            ("full", Self.values, first, false), ("sparse", sparse, first, false), ("other", sparse, second, false),
            ("long", sparse, first, true), ("after", sparse, third, false),
        ]
        try store.write { transaction in
            for type in ["Saved", "Inserted"] {
                try transaction.createRecordType(type, in: scope.schemaScope)
                for name in names {
                    try transaction.addField(name, type: Self.values[name]!.fieldType, to: type, in: scope.schemaScope)
                }
            }
            for (recordName, fields, system, _) in records {
                var record = CloudRecord(
                    recordType: "Saved", recordID: RecordID(recordName: recordName), fields: fields)
                record.system = system
                try transaction.save(record, in: scope)
            }
            for (recordName, fields, system, isSaved) in records {
                if isSaved {
                    var record = CloudRecord(
                        recordType: "Inserted", recordID: RecordID(recordName: recordName), fields: fields)
                    record.system = system
                    try transaction.save(record, in: scope)
                    continue
                }
                let flat = TypedRecord(
                    recordType: "Inserted", recordName: recordName, values: names.map { fields[$0] },
                    position: SourcePosition(file: "test"))
                try transaction.insertNew(flat, fieldNames: names, system: system, in: scope)
            }
        }
        let database = try SQLiteDatabase(path: path)
        func rows(_ table: String) throws -> [[SQLiteValue]] {
            let columns = try database.rows("SELECT name FROM pragma_table_info(?) ORDER BY cid", [.text(table)]).map {
                row -> String in
                guard case .text(let name) = row[0] else { return "NULL" }
                return "quote(\(SQLIdentifier.quoted(name)))"
            }
            return try database.rows(
                "SELECT \(columns.joined(separator: ", ")) FROM \(SQLIdentifier.quoted(table)) ORDER BY \"___recordID\""
            )
        }
        let saved = try rows("Saved")
        #expect(saved.count == records.count)
        #expect(saved.first?.count == RecordColumns.system.count + names.count)
        #expect(try rows("Inserted") == saved)
    }

    /// On each backend: records inserted new read back as the records saved the long way, and,
    /// before they are written (PostgreSQL buffers them), are found by name, replaced by a save
    /// and deleted as saved ones are.
    @Test(arguments: BackendKind.testable) func insertedRecordsReadBackAsSavedOnesAndAreFoundBeforeTheyAreWritten(
        _ backend: BackendKind
    ) throws {
        let testStore = try TestStore(backend)
        let store = try testStore.open()
        let scope = StoreScope()
        let names = Self.values.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        let system = SystemFields(
            createdTimestamp: 1_700_000_000_123, createdUserRecordName: "_a", modifiedTimestamp: 1_700_000_000_456,
            modifiedUserRecordName: "_b", changeTag: "9")
        // Within the years a store keeps: PostgreSQL refuses a timestamp beyond them, saved or inserted.
        let full = Self.values.filter { $0.key != "beyond" }
        let sparse: [String: RecordValue] = ["real": .double(-0.5), "text": .string("\\N\ttab")]
        try store.write { transaction in
            for type in ["Saved", "Inserted"] {
                try transaction.createRecordType(type, in: scope.schemaScope)
                for name in names {
                    try transaction.addField(name, type: Self.values[name]!.fieldType, to: type, in: scope.schemaScope)
                }
            }
            for (recordName, fields) in [("full", full), ("sparse", sparse)] {
                var record = CloudRecord(
                    recordType: "Saved", recordID: RecordID(recordName: recordName), fields: fields)
                record.system = system
                try transaction.save(record, in: scope)
                let flat = TypedRecord(
                    recordType: "Inserted", recordName: recordName, values: names.map { fields[$0] },
                    position: SourcePosition(file: "test"))
                try transaction.insertNew(flat, fieldNames: names, system: system, in: scope)
            }
            for recordName in ["doomed", "replaced"] {
                let flat = TypedRecord(
                    recordType: "Inserted", recordName: recordName, values: names.map { sparse[$0] },
                    position: SourcePosition(file: "test"))
                try transaction.insertNew(flat, fieldNames: names, system: system, in: scope)
            }
            let found = try #require(try transaction.record("sparse", ofType: "Inserted", in: scope))
            #expect(found.fields == sparse && found.system == system && found.recordID.recordName == "sparse")
            #expect(try transaction.delete("doomed", ofType: "Inserted", in: scope))
            #expect(try transaction.record("doomed", ofType: "Inserted", in: scope) == nil)
            var replacement = CloudRecord(
                recordType: "Inserted", recordID: RecordID(recordName: "replaced"), fields: ["number": .int64(7)])
            replacement.system = system
            try transaction.save(replacement, in: scope)
        }
        var read: [String: [String: CloudRecord]] = [:]
        try store.forEachRecord(in: scope, recordType: nil) {
            read[$0.recordType, default: [:]][$0.recordID.recordName] = $0
        }
        let saved = try #require(read["Saved"])
        let inserted = try #require(read["Inserted"])
        #expect(inserted.keys.sorted() == ["full", "replaced", "sparse"])
        for name in ["full", "sparse"] {
            #expect(inserted[name]?.fields == saved[name]?.fields, "\(name)")
            #expect(inserted[name]?.system == system)
        }
        #expect(saved["full"]?.fields == full)
        #expect(inserted["replaced"]?.fields == ["number": .int64(7)])
    }
}
