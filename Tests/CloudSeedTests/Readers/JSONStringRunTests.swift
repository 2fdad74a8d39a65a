import Testing

@testable import CloudSeed
@testable import CloudSeedCore
@testable import CloudSeedReaders
@testable import CloudSeedSchema
@testable import CloudSeedStore

/// The JSON parser's runs of plain string bytes, found eight bytes at a time, end where a scan byte
/// by byte ends them, and strings past the first word read and fail as they did byte by byte.
@Suite struct JSONStringRunTests {
    @Test func endsWhereAByteByByteScanEnds() {
        var generator = SeededGenerator(seed: 11)
        let alphabet: [UInt8] =
            Array("ab\"\\ \u{7F}".utf8) + [0x00, 0x09, 0x0A, 0x1F, 0x20, 0x21, 0x5B, 0x5D, 0x80, 0xC3, 0xA9, 0xFF]
        for _ in 0..<20_000 {
            let bytes = (0..<Int.random(in: 0...40, using: &generator)).map { _ in
                alphabet.randomElement(using: &generator)!
            }
            let start = Int.random(in: 0...bytes.count, using: &generator)
            var isASCII = true
            let end = bytes.withUnsafeBufferPointer { JSONStringRun.end(in: $0, from: start, isASCII: &isASCII) }
            let firstStop =
                bytes[start...].firstIndex { $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") || $0 < 0x20 }
                ?? bytes.count
            // At the first stop byte, or short of it only where fewer than eight bytes are left.
            #expect(end == firstStop || (end < firstStop && end + 8 > bytes.count), "\(bytes) from \(start)")
            #expect(isASCII == bytes[start..<end].allSatisfy { $0 < 0x80 }, "\(bytes) from \(start)")
        }
    }

    @Test func readsStringsLongerThanAWordAndRefusesWhatTheyMustEscape() throws {
        let text =
            #"{"title": "Harbor at Dusk, \"late\" and long", "notes": "Fenêtre 🔥 漢字 and more \\ text\u00e9"}"# + "\n"
        let read = try rows(text, format: .jsonLines)
        #expect(
            read.map(\.values) == [
                [
                    "title": .string("Harbor at Dusk, \"late\" and long"),
                    "notes": .string("Fenêtre 🔥 漢字 and more \\ texté"),
                ]
            ])
        #expect(
            readError(#"{"title": "abcdefghijklmnop"# + "\tq\"}\n", format: .jsonLines, file: "x.jsonl")
                == "x.jsonl:1:28: control character 0x9 inside a string; escape it (\\n, \\t, \\u00XX)")
        #expect(
            readError(#"{"title": "abcdefghijklmnopqrstuvwxyz"#, format: .jsonLines, file: "x.jsonl")
                == "x.jsonl:1:11: unterminated string; add the closing '\"'")
        #expect(throws: CloudSeedError.self) {
            try rows(
                bytes: Array(#"{"title": "abcdefghij"#.utf8) + [0xC3, 0x28] + Array("klmnop\"}\n".utf8),
                format: .jsonLines)
        }
    }
}
