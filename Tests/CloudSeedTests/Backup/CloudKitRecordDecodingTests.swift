import Foundation
import Testing

@testable import CloudKitWire
@testable import CloudSeed
@testable import CloudSeedCore
@testable import CloudSeedReaders
@testable import CloudSeedSchema
@testable import CloudSeedStore

@Suite struct CloudKitRecordDecodingTests {
    func decode(_ text: String) throws -> CloudRecord {
        var parser = JSONParser(input: ChunkedInput(bytes: Array(text.utf8)), file: "records.jsonl")
        return try CloudKitRecordDecoding.record(from: parser.parseDocument())
    }

    func error(_ text: String) -> String? {
        do {
            _ = try decode(text)
            return nil
        } catch {
            return "\(error)"
        }
    }

    static let every = CloudRecord(
        recordType: "Specimen",
        recordID: RecordID(recordName: "every \"type\"", zoneID: RecordZoneID(zoneName: "Work", ownerName: "_alice")),
        fields: [
            "text": .string("Zoë\n漢字 🎨"), "int": .int64(.min), "double": .double(-0.0), "whole": .double(3),
            "tiny": .double(.leastNonzeroMagnitude), "bytes": .bytes(Data([0, 1, 254, 255])),
            "time": .timestamp(-62_135_596_800_000),
            "place": .location(
                Location(
                    latitude: 90, longitude: -180, altitude: 1, horizontalAccuracy: 2, verticalAccuracy: 3,
                    course: 4, speed: 5, timestamp: 6)),
            "bare": .location(Location(latitude: 0.5, longitude: 0.25)),
            "parent": .reference(Reference(recordName: "{odd}", action: .deleteSelf)),
            "check": .reference(Reference(recordName: "x", action: .validate)),
            "picture": .asset(AssetReference(fileChecksum: "AYz3bAAPNAkUFj6Lsw1LKl0GBQBx", size: 48213)),
            "strings": .list(.string, [.string(""), .string("a")]), "ints": .list(.int64, [.int64(.max)]),
            "doubles": .list(.double, [.double(1e-300)]), "blobs": .list(.bytes, [.bytes(Data())]),
            "times": .list(.timestamp, [.timestamp(253_402_300_799_999)]),
            "places": .list(.location, [.location(Location(latitude: -90, longitude: 180))]),
            "refs": .list(
                .reference,
                [.reference(Reference(recordName: "a")), .reference(Reference(recordName: "b", action: .deleteSelf))]),
            "assets": .list(.asset, [.asset(AssetReference(fileChecksum: "abc", size: 0))]), "none": .list(.string, []),
        ],
        system: SystemFields(
            createdTimestamp: -1, createdUserRecordName: "_alice", modifiedTimestamp: 1_700_000_000_123,
            modifiedUserRecordName: "_bob", changeTag: "zz"))

    @Test func everyFieldTypeReadsBackExactly() throws {
        #expect(try decode(CloudKitJSON.record(Self.every)) == Self.every)
    }

    @Test func aReferenceWithoutActionIsNone() throws {
        let line = CloudKitJSON.record(Self.every).replacingOccurrences(
            of: "{\"recordName\":\"a\",\"action\":\"NONE\"}", with: "{\"recordName\":\"a\"}")
        #expect(try decode(line) == Self.every)
    }

    @Test(arguments: [
        (
            "{\"recordName\":\"a\"}",
            "records.jsonl:1:1: the record has no \"recordType\"; restore from an intact backup"
        ),
        ("[]", "records.jsonl:1:1: the record must be a JSON object, not an array; restore from an intact backup"),
    ])
    func recordsWithoutTheirKeysAreRefused(line: String, message: String) {
        #expect(error(line) == message)
    }

    static func line(fields: String) -> String {
        """
        {"recordName":"r","recordType":"T","recordChangeTag":"1","fields":{\(fields)},\
        "created":{"timestamp":0,"userRecordName":"u"},"modified":{"timestamp":0,"userRecordName":"u"},\
        "zoneID":{"zoneName":"_defaultZone","ownerRecordName":"__defaultOwner__"}}
        """
    }

    @Test(arguments: [
        (
            "\"n\":{\"value\":1.5,\"type\":\"INT64\"}",
            "records.jsonl:1:81: field 'n' must be an integer, not a number with a fraction; restore from an intact backup"
        ),
        ("\"n\":{\"value\":1}", "records.jsonl:1:72: field 'n' has no \"type\"; restore from an intact backup"),
        (
            "\"n\":{\"value\":1,\"type\":\"NUMBER\"}",
            "records.jsonl:1:90: field 'n' has the unknown type \"NUMBER\"; restore from an intact backup"
        ),
        (
            "\"n\":{\"value\":\"@@\",\"type\":\"BYTES\"}",
            "records.jsonl:1:81: field 'n' is not Base64; restore from an intact backup"
        ),
        (
            "\"n\":{\"value\":[1,\"2\"],\"type\":\"INT64_LIST\"}",
            "records.jsonl:1:84: element 2 of field 'n' must be an integer, not a string; restore from an intact backup"
        ),
        (
            "\"n\":{\"value\":{\"latitude\":1},\"type\":\"LOCATION\"}",
            "records.jsonl:1:81: field 'n' has no \"longitude\"; restore from an intact backup"
        ),
        (
            "\"n\":{\"value\":{\"recordName\":\"a\",\"action\":\"CASCADE\"},\"type\":\"REFERENCE\"}",
            "records.jsonl:1:108: field 'n' has the unknown action \"CASCADE\"; restore from an intact backup"
        ),
        (
            "\"n\":{\"value\":{\"fileChecksum\":\"a\",\"size\":1,\"downloadURL\":\"x\"},\"type\":\"ASSETID\"}",
            "records.jsonl:1:124: field 'n' has the unknown key \"downloadURL\", which cloudseed cannot restore; restore from an intact backup"
        ),
    ])
    func badValuesAreRefusedWithTheirPosition(fields: String, message: String) {
        #expect(error(Self.line(fields: fields)) == message)
    }
}
