import CloudSeedTestSupport
import Foundation
import Testing

@testable import CloudKitWire
@testable import CloudSeed
@testable import CloudSeedCore
@testable import CloudSeedReaders
@testable import CloudSeedSchema
@testable import CloudSeedStore

@Suite struct ColumnExportTests {
    /// The lines written straight from the columns are byte for byte CloudKitJSON's, in every zone,
    /// for every field type (the fixture holds them all, assets and lists of every type included).
    @Test func linesFromColumnsEqualCloudKitJSONOfTheRecords() throws {
        let fixture = try BackupFixture()
        let store = try fixture.filledStore()
        var compared = 0
        for zone in try store.inventory().zones {
            let scope = StoreScope(
                container: zone.container, environment: zone.environment, database: zone.database, zoneID: zone.zoneID)
            var expected: [String] = []
            try store.forEachRecord(in: scope, recordType: nil) { expected.append(CloudKitJSON.record($0) + "\n") }
            var lines: [String] = []
            try store.forEachRecordJSONLine(in: scope, recordType: nil) {
                lines.append(String(decoding: $0, as: UTF8.self))
            }
            #expect(lines == expected)
            compared += lines.count
        }
        #expect(compared == 16)
    }

    @Test func oneTypeOnly() throws {
        let fixture = try BackupFixture()
        let store = try fixture.filledStore()
        var lines: [String] = []
        try store.forEachRecordJSONLine(in: StoreScope(), recordType: "Artist") {
            lines.append(String(decoding: $0, as: UTF8.self))
        }
        var expected: [String] = []
        try store.forEachRecord(in: StoreScope(), recordType: "Artist") {
            expected.append(CloudKitJSON.record($0) + "\n")
        }
        #expect(lines == expected)
        #expect(lines.count == 3)
    }

    /// Every field type the columns are written from directly, with the values that are easy to get
    /// wrong: escapes, integral doubles, old dates, references with actions, lists.
    @Test func everyDirectlyWrittenTypeMatches() throws {
        let folder = try TemporaryFolder()
        let store = try SQLiteContainerStore(path: folder.path("direct.sqlite"))
        let scope = StoreScope()
        try Self.addEverythingType(to: store)
        var lines: [String] = []
        let longWay = try store.forEachRecordJSONLine(in: scope, recordType: nil) {
            lines.append(String(decoding: $0, as: UTF8.self))
        }
        var expected: [String] = []
        try store.forEachRecord(in: scope, recordType: nil) { expected.append(CloudKitJSON.record($0) + "\n") }
        #expect(longWay == 0)
        #expect(lines.count == 2)
        #expect(lines == expected)
    }

    /// Adds the type `Everything` with two records: one setting every field type that export copies
    /// from its column, one setting a single field.
    static func addEverythingType(to store: SQLiteContainerStore) throws {
        let scope = StoreScope()
        let values: [String: RecordValue] = [
            "text": .string("  say \"hi\"\\ \n\t\u{1} Fenêtre 🔥 漢字"),
            "number": .int64(Int64.min),
            "real": .double(1),
            "tiny": .double(.leastNonzeroMagnitude),
            "data": .bytes(Data([0, 1, 2, 250, 255])),
            "when": .timestamp(-2_208_988_800_000),
            "place": .location(
                Location(
                    latitude: 39.5, longitude: -123, altitude: 12.25, horizontalAccuracy: 5, verticalAccuracy: nil,
                    course: 90, speed: 1.5, timestamp: 1_700_000_000_000)),
            "plain": .reference(Reference(recordName: "Mei Chen")),
            "owner": .reference(Reference(recordName: "Mei Chen", action: .deleteSelf)),
            "curly": .reference(Reference(recordName: "{odd}")),
            "tags": .list(.string, [.string("oil"), .string("a \"b\"")]),
            "counts": .list(.int64, [.int64(1), .int64(-2)]),
            "weights": .list(.double, [.double(1), .double(2.5)]),
            "blobs": .list(.bytes, [.bytes(Data([1, 2, 3]))]),
            "places": .list(.location, [.location(Location(latitude: 1, longitude: 2))]),
            "empty": .list(.string, []),
            "blank": .string(""),
        ]
        try store.write { transaction in
            try transaction.createRecordType("Everything", in: scope.schemaScope)
            for (name, value) in values.sorted(by: { $0.key < $1.key }) {
                try transaction.addField(name, type: value.fieldType, to: "Everything", in: scope.schemaScope)
            }
            var full = CloudRecord(
                recordType: "Everything", recordID: RecordID(recordName: "full \"one\""), fields: values)
            full.system = SystemFields(
                createdTimestamp: 0, createdUserRecordName: "_a", modifiedTimestamp: 253_402_300_799_999,
                modifiedUserRecordName: "_b", changeTag: "7")
            try transaction.save(full, in: scope)
            var sparse = CloudRecord(
                recordType: "Everything", recordID: RecordID(recordName: "sparse"), fields: ["real": .double(-0.5)])
            sparse.system.changeTag = "8"
            try transaction.save(sparse, in: scope)
        }
    }

    /// CSV lines copied from the columns are byte for byte what CSVExporter writes of the records.
    @Test func csvLinesFromColumnsEqualTheExportersLines() throws {
        let fixture = try BackupFixture()
        let store = try fixture.filledStore()
        try Self.addEverythingType(to: store)
        var compared = 0
        var copied = 0
        for zone in try store.inventory().zones {
            let scope = StoreScope(
                container: zone.container, environment: zone.environment, database: zone.database, zoneID: zone.zoneID)
            let schema = try store.schema(of: scope.schemaScope)
            var expected: [UInt8] = []
            let general = try CSVExporter(folder: nil, schema: schema) { expected += $0 }
            try store.forEachRecord(in: scope, recordType: nil) { try general.append($0) }
            try general.finish()
            var written: [UInt8] = []
            let direct = try CSVExporter(folder: nil, schema: schema) { written += $0 }
            var lines = 0
            let longWay = try store.forEachRecordCSVLine(
                in: scope, recordType: nil, columns: { try direct.columns(of: $0) },
                line: {
                    lines += 1
                    try direct.append(line: $1, recordType: $0)
                }, record: direct.append)
            try direct.finish()
            #expect(String(decoding: written, as: UTF8.self) == String(decoding: expected, as: UTF8.self))
            compared += lines + longWay
            copied += lines
        }
        #expect(compared == 18)
        #expect(copied > 2)
    }

    /// A table big enough for the CSV export to read by two connections over alternate ranges of
    /// names: each record comes out once, in name order, as one connection reads them; the records
    /// of another zone in the same table stay out.
    @Test func aBigTableReadByTwoConnectionsComesOutWholeAndInNameOrder() throws {
        let folder = try TemporaryFolder()
        let store = try SQLiteContainerStore(path: folder.path("big.sqlite"))
        store.twoReadersFrom = 20_000
        let scope = StoreScope()
        let other = StoreScope(database: .private, zoneID: RecordZoneID(zoneName: "Other"))
        let count = 30_000
        // Names in another order than the rows', so that name order is not the table's.
        var csv = "recordName,number\n"
        for index in 0..<count { csv += "item\((index * 7919) % count),\(index)\n" }
        _ = try Importer(store: ContainerStore(backend: store), scope: scope, now: 0).run([
            SourceFile(path: folder.write("Item.csv", csv))
        ])
        _ = try Importer(store: ContainerStore(backend: store), scope: other, now: 0).run([
            SourceFile(path: folder.write("Item.csv", "recordName,number\nitem5,5\nzz,1\n"))
        ])
        let layout = try #require(try store.typeLayouts(scope.schemaScope)["Item"])
        let zone = try #require(try store.zoneKey(scope, create: false))
        let bounds = try #require(try store.nameBounds(of: layout, zone: zone))
        #expect(bounds.count > 500)
        #expect(zip(bounds, bounds.dropFirst()).allSatisfy { $0.utf8.lexicographicallyPrecedes($1.utf8) })

        func csvLines() throws -> [String] {
            var lines: [String] = []
            try store.forEachRecordCSVLine(
                in: scope, recordType: "Item", columns: { _ in ["number"] },
                line: { _, line in lines.append(String(decoding: line, as: UTF8.self)) },
                record: { _ in Issue.record("a record the long way") })
            return lines
        }
        // As one connection reads the records, through the name index.
        var expected: [String] = []
        try store.forEachRecord(in: scope, recordType: "Item") { record in
            guard case .int64(let number)? = record.fields["number"] else {
                Issue.record("no number")
                return
            }
            expected.append("\(record.recordID.recordName),\(number)\r\n")
        }
        #expect(
            expected.map { String($0.prefix { $0 != "," }) }
                == (0..<count).map { "item\($0)" }.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) })
        #expect(try csvLines() == expected)
        #expect(store.database.snapshotReaders(2)?.count == 2)

        // While another run writes, the export reads alone, at once, what was committed before.
        let writer = try SQLiteDatabase(path: folder.path("big.sqlite"))
        try writer.execute("BEGIN IMMEDIATE; DELETE FROM \"Item\"")
        #expect(store.database.snapshotReaders(2) == nil)
        #expect(try csvLines() == expected)
        try writer.execute("ROLLBACK")
    }
}
