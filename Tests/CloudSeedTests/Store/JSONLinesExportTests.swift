import CloudSeedTestSupport
import Foundation
import Testing

@testable import CloudSeed

@Suite struct JSONLinesExportTests {
    /// The lines written straight from the columns are byte for byte CloudKitJSON's, in every zone,
    /// for every field type (the fixture holds them all, assets and lists of every type included).
    @Test func linesFromColumnsEqualCloudKitJSONOfTheRecords() throws {
        let fixture = try BackupFixture()
        let store = try fixture.filledStore()
        var compared = 0
        for zone in try store.inventory().zones {
            let scope = StoreScope(container: zone.container, environment: zone.environment, database: zone.database, zoneID: zone.zoneID)
            var expected: [String] = []
            try store.forEachRecord(in: scope, recordType: nil) { expected.append(CloudKitJSON.record($0) + "\n") }
            var lines: [String] = []
            try store.forEachRecordJSONLine(in: scope, recordType: nil) { lines.append(String(decoding: $0, as: UTF8.self)) }
            #expect(lines == expected)
            compared += lines.count
        }
        #expect(compared == 16)
    }

    @Test func oneTypeOnly() throws {
        let fixture = try BackupFixture()
        let store = try fixture.filledStore()
        var lines: [String] = []
        try store.forEachRecordJSONLine(in: StoreScope(), recordType: "Artist") { lines.append(String(decoding: $0, as: UTF8.self)) }
        var expected: [String] = []
        try store.forEachRecord(in: StoreScope(), recordType: "Artist") { expected.append(CloudKitJSON.record($0) + "\n") }
        #expect(lines == expected)
        #expect(lines.count == 3)
    }

    /// Every field type the columns are written from directly, with the values that are easy to get
    /// wrong: escapes, integral doubles, old dates, references with actions, lists.
    @Test func everyDirectlyWrittenTypeMatches() throws {
        let folder = try TemporaryFolder()
        let store = try SQLiteContainerStore(path: folder.path("direct.sqlite"))
        let scope = StoreScope()
        let values: [String: RecordValue] = [
            "text": .string("say \"hi\"\\ \n\t\u{1} Fenêtre 🔥 漢字"),
            "number": .int64(Int64.min),
            "real": .double(1),
            "tiny": .double(5e-324),
            "data": .bytes(Data([0, 1, 2, 250, 255])),
            "when": .timestamp(-2_208_988_800_000),
            "place": .location(Location(latitude: 39.5, longitude: -123, altitude: 12.25, horizontalAccuracy: 5, verticalAccuracy: nil, course: 90, speed: 1.5, timestamp: 1_700_000_000_000)),
            "plain": .reference(Reference(recordName: "Mei Chen")),
            "owner": .reference(Reference(recordName: "Mei Chen", action: .deleteSelf)),
            "curly": .reference(Reference(recordName: "{odd}")),
            "tags": .list(.string, [.string("oil"), .string("a \"b\"")]),
            "counts": .list(.int64, [.int64(1), .int64(-2)]),
            "weights": .list(.double, [.double(1), .double(2.5)]),
            "blobs": .list(.bytes, [.bytes(Data([1, 2, 3]))]),
            "places": .list(.location, [.location(Location(latitude: 1, longitude: 2))]),
            "empty": .list(.string, []),
        ]
        try store.write { transaction in
            try transaction.createRecordType("Everything", in: scope.schemaScope)
            for (name, value) in values.sorted(by: { $0.key < $1.key }) {
                try transaction.addField(name, type: value.fieldType, to: "Everything", in: scope.schemaScope)
            }
            var full = CloudRecord(recordType: "Everything", recordID: RecordID(recordName: "full \"one\""), fields: values)
            full.system = SystemFields(createdTimestamp: 0, createdUserRecordName: "_a", modifiedTimestamp: 253_402_300_799_999, modifiedUserRecordName: "_b", changeTag: "7")
            try transaction.save(full, in: scope)
            var sparse = CloudRecord(recordType: "Everything", recordID: RecordID(recordName: "sparse"), fields: ["real": .double(-0.5)])
            sparse.system.changeTag = "8"
            try transaction.save(sparse, in: scope)
        }
        var lines: [String] = []
        let longWay = try store.forEachRecordJSONLine(in: scope, recordType: nil) { lines.append(String(decoding: $0, as: UTF8.self)) }
        var expected: [String] = []
        try store.forEachRecord(in: scope, recordType: nil) { expected.append(CloudKitJSON.record($0) + "\n") }
        #expect(longWay == 0)
        #expect(lines.count == 2)
        #expect(lines == expected)
    }
}
