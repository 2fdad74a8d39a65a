import Testing

@testable import CloudSeed
@testable import CloudSeedCore
@testable import CloudSeedReaders
@testable import CloudSeedSchema
@testable import CloudSeedStore

@Suite struct JSONReaderTests {
    @Test func readsAnArrayOfObjectsWithTypedValues() throws {
        let read = try rows(
            #"[{"a": 1, "b": 1.5, "c": "x", "d": true, "e": null, "f": [1, "y"], "g": {"h": -2}}]"#, format: .json)
        #expect(read.count == 1)
        #expect(
            read[0].values == [
                "a": .integer(1), "b": .real(1.5), "c": .string("x"), "d": .bool(true), "e": .null,
                "f": .array([.integer(1), .string("y")]), "g": .dictionary([PlainEntry("h", .integer(-2))]),
            ])
    }

    @Test func readsObjectsKeyedByRecordType() throws {
        let read = try rows(
            #"{"Artist": [{"name": "Mei"}], "Artwork": [{"title": "A"}, {"title": "B"}]}"#, format: .json)
        #expect(read.map(\.recordType) == ["Artist", "Artwork", "Artwork"])
    }

    @Test func readsCloudKitRecordsWithTheirTypes() throws {
        let read = try rows(
            #"{"records": [{"recordName": "r1", "recordType": "T", "fields": {"n": {"value": 5, "type": "DOUBLE"}}}]}"#,
            format: .json)
        #expect(read[0].recordName == "r1")
        #expect(read[0].recordType == "T")
        #expect(read[0].fields[0].declaredType == .double)
    }

    @Test func readsJSONLinesWithTheirLineNumbers() throws {
        let read = try rows("{\"a\": 1}\n\n{\"a\": 2}\r\n", format: .jsonLines, file: "x.jsonl")
        #expect(read.map(\.values) == [["a": .integer(1)], ["a": .integer(2)]])
        #expect(read[1].fields[0].position.description == "x.jsonl:3:7")
    }

    /// Plain records are read field by field; a line with `fields` among its keys, after keys
    /// already read, is still read as a CloudKit record.
    @Test func readsPlainAndCloudKitRecordsInOneJSONLinesFile() throws {
        let text = """
            {"title": "A", "tags": ["x", {"k": [1, 2.5]}], "n": null}
            {"recordType": "Artist", "recordName": "mei", "fields": {"name": {"value": "Mei", "type": "STRING"}}}
            {"title": "B"}
            """
        let read = try rows(text, format: .jsonLines, file: "x.jsonl")
        #expect(read.map(\.recordType) == [nil, "Artist", nil])
        #expect(read.map(\.recordName) == [nil, "mei", nil])
        #expect(
            read[0].values == [
                "title": .string("A"),
                "tags": .array([.string("x"), .dictionary([PlainEntry("k", .array([.integer(1), .real(2.5)]))])]),
                "n": .null,
            ])
        #expect(read[1].values == ["name": .string("Mei")])
        #expect(read[1].fields[0].declaredType == .string)
        #expect(read[2].position == SourcePosition(file: "x.jsonl", line: 3, column: 1, keyPath: "[2]"))
        #expect(read[2].fields[0].position.description == "x.jsonl:3:11")
    }

    @Test func decodesEscapesAndSurrogatePairs() throws {
        let read = try rows(#"[{"s": "a\"b\\c\n\u00e9\ud83c\udfa8"}]"#, format: .json)
        #expect(read[0].values["s"] == .string("a\"b\\c\né🎨"))
    }

    @Test(arguments: [
        ("[{\"a\": 1,}]", "x.json:1:10: unexpected '}'; expected a key in double quotes"),
        ("[{\"a\": 1}", "x.json:1:10: unexpected end of file; expected ',' or ']'"),
        ("[{\"a\": \"open}]", "x.json:1:8: unterminated string; add the closing '\"'"),
        ("[{\"a\": 1, \"a\": 2}]", "x.json:1:11: duplicate key \"a\" in one object; keep one of them"),
        (
            "[{\"a\": 99999999999999999999}]",
            "x.json:1:8: the integer 99999999999999999999 is outside the 64-bit range; quote it to keep it as text"
        ),
        (
            "[{\"a\": 1e999}]",
            "x.json:1:8: the number 1e999 is outside the range of a 64-bit double; quote it to keep it as text"
        ),
        ("[{\"a\": NaN}]", "x.json:1:8: unexpected 'N'; expected a JSON value"),
        ("[{\"a\": 01}]", "x.json:1:8: a JSON number cannot start with 0; quote it to keep it as text"),
        ("", "x.json:1:1: the document is empty; expected a JSON value"),
        ("[{}] [2]", "x.json:1:6: unexpected '[' after the end of the JSON value"),
        ("[[1]]", "x.json:1:2: expected an object (one record), a name or a number, found an array"),
        ("\n\n  [{\"a\": tru}]", "x.json:3:10: unexpected 't'; expected a JSON value"),
        ("[{\"a\": {\"b\": 1, \"b\": 2}}]", "x.json:1:17: duplicate key \"b\" in one object; keep one of them"),
        ("[{\"a\": [1, {\"b\": tru}]}]", "x.json:1:18: unexpected 't'; expected a JSON value"),
        (
            "[{\"a\": 1}, {\"fields\": 1, \"fields\": 2}]",
            "x.json:1:26: duplicate key \"fields\" in one object; keep one of them"
        ),
    ])
    func reportsMalformedJSONWithItsPosition(text: String, message: String) {
        #expect(readError(text, format: .json, file: "x.json") == message)
    }

    @Test func refusesDeepNestingWithoutCrashing() {
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        #expect(
            readError(deep, format: .json, file: "x.json")
                == "x.json:1:513: nesting deeper than 512 levels; flatten the document")
    }
}
