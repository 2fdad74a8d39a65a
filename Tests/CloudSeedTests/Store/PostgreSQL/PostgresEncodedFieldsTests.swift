import Foundation
import Testing

@testable import CloudSeed
@testable import CloudSeedCore
@testable import CloudSeedReaders
@testable import CloudSeedSchema
@testable import CloudSeedStore

/// A new record's field columns encoded where it is typed (``PostgresEncodedFields``): the same
/// bytes as the writing thread's appends (``PostgresBinaryRow/appendValue(_:)``), value for value.
@Suite struct PostgresEncodedFieldsTests {
    /// What the writing thread appends for the values at `offsets` (NULL where `nil`).
    private static func appended(_ values: [RecordValue?], at offsets: [Int?]) throws -> [UInt8] {
        var row = PostgresBinaryRow()
        for offset in offsets {
            if let offset { try row.appendValue(values[offset]) } else { row.appendNull() }
        }
        return row.bytes
    }

    /// The encoder of a PostgreSQL table's rows whose field columns take the values at `offsets`.
    private static func encoder(_ offsets: [Int?]) -> StoredValueEncoder {
        StoredValueEncoder { try PostgresEncodedFields.encoded($0, texts: $1, at: offsets) }
    }

    private static func encoded(_ values: [RecordValue?], at offsets: [Int?]) throws -> [UInt8] {
        let noTexts = StoredValueEncoder.Texts(
            bytes: UnsafeBufferPointer(start: nil, count: 0), ranges: UnsafeBufferPointer(start: nil, count: 0))
        return try values.withUnsafeBufferPointer { try PostgresEncodedFields.encoded($0, texts: noTexts, at: offsets) }
    }

    @Test func valuesOfKnownSizeAreWrittenAsTheyAreAppended() throws {
        let values: [RecordValue?] = [
            .string("Harbor at Dusk"), .int64(-115), .double(59.33), .timestamp(1_700_000_000_123),
            .location(Location(latitude: 59.33, longitude: 18.07)), .reference(Reference(recordName: "Ada Jansen")),
            .string(""), .string("Skagenの Boat 🔥"), nil,
        ]
        let offsets: [Int?] = [3, nil, 0, 1, 2, 4, 5, 6, 7, 8]
        let bytes = try Self.encoded(values, at: offsets)
        #expect(bytes == (try Self.appended(values, at: offsets)))
        // After the timestamp (12 bytes) and a NULL (4), the title's field: its length, then its bytes.
        #expect(Array(bytes[16..<16 + 4 + 14]) == [0, 0, 0, 14] + Array("Harbor at Dusk".utf8))
        #expect(bytes.count == 12 + 4 + (4 + 14) + 12 + 12 + 48 + (4 + 10) + 4 + (4 + 19) + 4)
    }

    @Test func otherValuesAreAppendedAsTheWritingThreadWould() throws {
        let values: [RecordValue?] = [
            .list(.string, [.string("figure"), .string("still life")]),
            .location(Location(latitude: 1, longitude: 2, altitude: 30)),
            .reference(Reference(recordName: "Ada Jansen", action: .deleteSelf)),
            .asset(AssetReference(fileChecksum: "9f86d0", size: 4)),
            .bytes(Data([0, 1, 2])), .string("Harbor"),
        ]
        let offsets: [Int?] = [0, 1, 2, 3, 4, nil, 5]
        #expect(try Self.encoded(values, at: offsets) == (try Self.appended(values, at: offsets)))
    }

    @Test func textsGivenAsBytesAreWrittenAsTheirValuesWouldBe() throws {
        let texts = Array("Harbor at DuskSkagenの Boat".utf8)
        let values: [RecordValue?] = [nil, .int64(7), nil, .list(.string, [.string("figure")])]
        let ranges: [Range<Int>?] = [0..<14, nil, 14..<texts.count, nil]
        let asValues: [RecordValue?] = [.string("Harbor at Dusk"), .int64(7), .string("Skagenの Boat"), values[3]]
        // Of known sizes, written in place; with a list, appended.
        for offsets: [Int?] in [[2, nil, 0, 1], [3, 0, 2, 1]] {
            #expect(
                Self.encoder(offsets).encoded(values, textBytes: texts, textRanges: ranges)
                    == (try Self.appended(asValues, at: offsets)))
        }
    }

    @Test func aRecordWithoutFieldsHasNoBytes() throws {
        #expect(try Self.encoded([], at: []) == [])
    }

    @Test func valuesTheStoreCannotKeepAreRefusedInItsWords() {
        #expect(throws: CloudSeedError.self) { try Self.encoded([.string("a\u{0}b")], at: [0]) }
        #expect(throws: CloudSeedError.self) { try Self.encoded([.timestamp(Int64.max / 2)], at: [0]) }
        // Refused, the record keeps its values: its save then words the refusal.
        let encoder = Self.encoder([0])
        #expect(encoder.encoded([.string("a\u{0}b")]) == nil)
        #expect(encoder.encoded([nil], textBytes: Array("a\u{0}b".utf8), textRanges: [0..<3]) == nil)
        #expect(encoder.encoded([.int64(7)]) == [0, 0, 0, 8, 0, 0, 0, 0, 0, 0, 0, 7])
    }
}
