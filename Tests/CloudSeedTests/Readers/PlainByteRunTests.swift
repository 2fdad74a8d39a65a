import Testing

@testable import CloudSeed
@testable import CloudSeedCore
@testable import CloudSeedReaders
@testable import CloudSeedSchema
@testable import CloudSeedStore

/// The CSV scanner's runs of plain bytes, found eight bytes at a time, end where a scan byte by
/// byte ends them, and tell whether their bytes are ASCII.
@Suite struct PlainByteRunTests {
    static let stops: [UInt8] = [0x2C, 0x0A, 0x0D, 0x22]

    @Test func endsWhereAByteByByteScanEnds() {
        var generator = SeededGenerator(seed: 5)
        let alphabet: [UInt8] = Array("ab,\"\n\r;".utf8) + [0x00, 0x7F, 0x80, 0xC3, 0xA9, 0xFF]
        for _ in 0..<20_000 {
            let bytes = (0..<Int.random(in: 0...40, using: &generator)).map { _ in
                alphabet.randomElement(using: &generator)!
            }
            let start = Int.random(in: 0...bytes.count, using: &generator)
            var isASCII = true
            let end = bytes.withUnsafeBufferPointer {
                PlainByteRun.end(
                    in: $0, from: start, stoppingAt: (Self.stops[0], Self.stops[1], Self.stops[2], Self.stops[3]),
                    isASCII: &isASCII)
            }
            let firstStop = bytes[start...].firstIndex { Self.stops.contains($0) } ?? bytes.count
            // At the first stop byte, or short of it only where fewer than eight bytes are left.
            #expect(end == firstStop || (end < firstStop && end + 8 > bytes.count), "\(bytes) from \(start)")
            #expect(isASCII == bytes[start..<end].allSatisfy { $0 < 0x80 }, "\(bytes) from \(start)")
        }
    }

    @Test func readsCellsLongerThanAWordAsTheirBytes() throws {
        let text =
            "title,notes\n\"Harbor at Dusk, \"\"late\"\" and long\",Fenêtre 🔥 漢字 and more text\n\"Two\nlines of a quoted cell\",plain ASCII cell of some length\n"
        let read = try rows(text, format: .csv)
        #expect(
            read.map(\.values) == [
                ["title": .text("Harbor at Dusk, \"late\" and long"), "notes": .text("Fenêtre 🔥 漢字 and more text")],
                ["title": .text("Two\nlines of a quoted cell"), "notes": .text("plain ASCII cell of some length")],
            ])
        #expect(read.map(\.position.line) == [2, 3])
    }

    @Test func findsInvalidUTF8AndQuotesPastTheFirstWord() throws {
        #expect(try rows("name\nabcdefghijkl\"m\n", format: .csv).map(\.values) == [["name": .text("abcdefghijkl\"m")]])
        for (prefix, quote) in [("", ""), ("\"", "\"")] {
            let offset = 15 + prefix.utf8.count
            #expect(
                throws: CloudSeedError(
                    .invalidValue, "the field is not valid UTF-8 at byte offset \(offset); re-save the file as UTF-8",
                    at: SourcePosition(file: "test", line: 2, column: 1))
            ) {
                try rows(
                    bytes: Array("name\n\(prefix)abcdefghij".utf8) + [0xC3, 0x28] + Array("klmnop\(quote)\n".utf8),
                    format: .csv)
            }
        }
    }
}
