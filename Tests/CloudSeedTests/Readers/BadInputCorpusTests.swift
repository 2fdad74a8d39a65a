import CloudSeedTestSupport
import Foundation
import Testing

@testable import CloudSeed
@testable import CloudSeedCore
@testable import CloudSeedReaders
@testable import CloudSeedSchema
@testable import CloudSeedStore

/// Every reader and the schema parser, fed broken files: each fails with its position, never crashes
/// or hangs, and leaves the store as it was.
@Suite struct BadInputCorpusTests {
    static func binaryPlist(objects: [[UInt8]], top: UInt64 = 0, count: UInt64? = nil, offsetOverride: UInt8? = nil)
        -> [UInt8]
    {
        var bytes = Array("bplist00".utf8)
        var offsets: [UInt8] = []
        for object in objects {
            offsets.append(offsetOverride ?? UInt8(bytes.count))
            bytes += object
        }
        let table = bytes.count
        bytes += offsets
        func be(_ value: UInt64) -> [UInt8] {
            (0..<8).map { UInt8(truncatingIfNeeded: value >> (56 - 8 * UInt64($0))) }
        }
        return bytes + [0, 0, 0, 0, 0, 0, 1, 1] + be(count ?? UInt64(objects.count)) + be(top) + be(UInt64(table))
    }

    static let corpus: [(name: String, bytes: [UInt8], message: String)] = [
        ("empty.csv", [], "empty.csv:1:1: the file is empty; expected a header row"),
        (
            "truncated.csv", Array("a,b\n\"1,2".utf8),
            "truncated.csv:2:1: unterminated quoted field; add the closing quote"
        ),
        (
            "ragged.csv", Array("a,b\n1,2,3\n".utf8),
            "ragged.csv:2:5: this row has 3 fields but the header has 2; quote fields that contain the delimiter"
        ),
        (
            "latin1.csv", Array("name\n".utf8) + [0x5A, 0x6F, 0xEB, 0x0A],
            "latin1.csv:2:1: the field is not valid UTF-8 at byte offset 7; re-save the file as UTF-8"
        ),
        ("empty.json", [], "empty.json:1:1: the document is empty; expected a JSON value"),
        (
            "truncated.json", Array("[{\"a\": 1}, {\"b\":".utf8),
            "truncated.json:1:17: unexpected end of file; expected a JSON value"
        ),
        (
            "nul.json", Array("[{\"a\": \"x".utf8) + [0] + Array("y\"}]".utf8),
            "nul.json:1:10: control character 0x0 inside a string; escape it (\\n, \\t, \\u00XX)"
        ),
        (
            "bom-inside.json", Array("[{\"a\": 1}".utf8) + [0xEF, 0xBB, 0xBF] + Array("]".utf8),
            "bom-inside.json:1:10: unexpected byte 0xEF; expected ',' or ']'"
        ),
        (
            "duplicate.json", Array("[{\"a\": 1, \"a\": 2}]".utf8),
            "duplicate.json:1:11: duplicate key \"a\" in one object; keep one of them"
        ),
        (
            "huge-int.json", Array("[{\"a\": 123456789012345678901234567890}]".utf8),
            "huge-int.json:1:8: the integer 123456789012345678901234567890 is outside the 64-bit range; quote it to keep it as text"
        ),
        ("nan.json", Array("[{\"a\": NaN}]".utf8), "nan.json:1:8: unexpected 'N'; expected a JSON value"),
        (
            "infinity.json", Array("[{\"a\": 1e400}]".utf8),
            "infinity.json:1:8: the number 1e400 is outside the range of a 64-bit double; quote it to keep it as text"
        ),
        (
            "deep.json", Array(String(repeating: "[", count: 100_000).utf8),
            "deep.json:1:513: nesting deeper than 512 levels; flatten the document"
        ),
        (
            "deep.plist", Array(("<plist>" + String(repeating: "<array>", count: 100_000)).utf8),
            "deep.plist:1:3592: nesting deeper than 512 levels; flatten the property list"
        ),
        (
            "truncated.plist", Array("<plist><array><dict><key>a</key><string>b".utf8),
            "truncated.plist:1:33: unterminated <string>; add </string>"
        ),
        (
            "entity-at-end.plist", Array("<plist><string>&#-0".utf8),
            "entity-at-end.plist:1:18: the XML is malformed (libxml2: CharRef: invalid decimal value); fix it at this place"
        ),
        (
            "old-date.plist",
            Array("<plist><array><dict><key>a</key><date>0000-01-01T00:00:00Z</date></dict></array></plist>".utf8),
            "old-date.plist:1:33: <date>0000-01-01T00:00:00Z</date> is not an ISO 8601 date between the years 1 and 9999"
        ),
        (
            "cycle.plist", binaryPlist(objects: [[0xA1, 0x00]]),
            "cycle.plist:[0]: damaged binary property list: object 0 contains itself (a cycle)"
        ),
        (
            "outside.plist", binaryPlist(objects: [[0xA1, 0x00]], offsetOverride: 200),
            "outside.plist:top level: damaged binary property list: object 0 lies outside the file"
        ),
        (
            "huge-count.plist", binaryPlist(objects: [[0x08]], count: 1 << 40),
            "huge-count.plist:top level: damaged binary property list: the trailer's object count or offsets point outside the file"
        ),
        (
            "huge-array.plist", binaryPlist(objects: [[0xAF, 0x13, 0x0F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]]),
            "huge-array.plist:top level: damaged binary property list: a length of 1152921504606846975 is larger than the file"
        ),
    ]

    @Test(arguments: corpus.indices)
    func failsWithItsPositionAndWritesNothing(index: Int) throws {
        let (name, bytes, message) = Self.corpus[index]
        let folder = try TemporaryFolder()
        let store = try SQLiteContainerStore(path: folder.path("store.sqlite"))
        _ = try Importer(store: ContainerStore(backend: store), scope: StoreScope(), now: 0).run([
            SourceFile(path: Repository.sample("ToDoItems/ToDoItems.csv"))
        ])
        let before = try store.inventory().zones.map(\.recordCounts)
        let path = folder.path(name)
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        do {
            _ = try Importer(store: ContainerStore(backend: store), scope: StoreScope(), now: 0).run([
                SourceFile(path: path)
            ])
            Issue.record("\(name) imported")
        } catch let error as CloudSeedError {
            #expect(
                error.allErrors.map(\.description) == [
                    message.replacingOccurrences(of: name, with: path, options: .anchored)
                ])
        }
        #expect(try store.inventory().zones.map(\.recordCounts) == before)
        #expect(try store.schema(of: StoreScope().schemaScope).recordTypes.keys.sorted() == ["ToDoItem"])
    }

    @Test func aTenMegabyteLineIsReadAndRefusedAtTheRecordLimit() throws {
        let folder = try TemporaryFolder()
        let text = String(repeating: "word ", count: 2_000_000)
        let path = try folder.write("long.jsonl", "{\"body\": \"\(text)\"}\n")
        let store = try SQLiteContainerStore(path: folder.path("store.sqlite"))
        var options = MappingOptions()
        options.fieldTypes = [FieldTypeOverride(field: "body", type: .string)]
        let error = #expect(throws: CloudSeedError.self) {
            _ = try Importer(store: ContainerStore(backend: store), scope: StoreScope(), options: options).run([
                SourceFile(path: path)
            ])
        }
        #expect(error?.code == .limitExceeded)
    }
}
