import Testing

@testable import CloudSeed
@testable import CloudSeedCore
@testable import CloudSeedReaders
@testable import CloudSeedSchema
@testable import CloudSeedStore

/// A JSON record's keys that repeat the last record's are reused rather than parsed
/// (``RecordKeys``): the rows are the ones parsing every key gives, and a repeated key is still
/// refused wherever it comes.
@Suite struct RecordKeysTests {
    @Test func recordsWhoseKeysChangeReadAsWritten() throws {
        // Long, non-ASCII and escaped keys are parsed every time; `a\\b` (a backslash) must not
        // be taken for the next record's `a\b` (a backspace).
        let text = #"""
            {"a": 1, "long key of many bytes": 2, "é": 3, "q\"t": 4}
            {"a": 5, "long key of many bytes": 6, "é": 7, "q\"t": 8}
            {"a": 9, "b": 10}
            {"b": 11, "a": 12, "c": 13}
            {"b": 14, "a": 15}
            {"a\\b": 16}
            {"a\b": 17}
            {"a" : 18, "b":19}
            """#
        let read = try rows(text, format: .jsonLines, file: "x.jsonl")
        #expect(
            read.map { $0.fields.map(\.key) } == [
                ["a", "long key of many bytes", "é", "q\"t"], ["a", "long key of many bytes", "é", "q\"t"], ["a", "b"],
                ["b", "a", "c"],
                ["b", "a"], ["a\\b"], ["a\u{8}"], ["a", "b"],
            ])
        #expect(read.flatMap { $0.fields.map(\.value) } == (1...19).map { PlainValue.integer(Int64($0)) })
        #expect(read[7].fields[1].position.description == "x.jsonl:8:16")
    }

    @Test(arguments: [
        // The second record repeats the first's first key, then repeats it.
        (
            "{\"a\": 1, \"b\": 2}\n{\"a\": 3, \"a\": 4}",
            "x.jsonl:2:10: duplicate key \"a\" in one object; keep one of them"
        ),
        // It has the first's keys, then one of them again.
        (
            "{\"a\": 1, \"b\": 2}\n{\"a\": 3, \"b\": 4, \"a\": 5}",
            "x.jsonl:2:18: duplicate key \"a\" in one object; keep one of them"
        ),
        // It turns out to be a CloudKit record after a key the first had, which it repeats.
        (
            "{\"a\": 1}\n{\"a\": 2, \"fields\": {\"n\": {\"value\": 5, \"type\": \"INT64\"}}, \"a\": 3}",
            "x.jsonl:2:58: duplicate key \"a\" in one object; keep one of them"
        ),
    ])
    func aRepeatedKeyIsRefusedAfterTheLastRecordsKeys(text: String, message: String) {
        #expect(readError(text, format: .jsonLines, file: "x.jsonl") == message)
    }
}
