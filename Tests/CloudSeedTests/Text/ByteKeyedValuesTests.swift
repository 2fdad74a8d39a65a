import Testing

@testable import CloudSeed
@testable import CloudSeedCore
@testable import CloudSeedReaders
@testable import CloudSeedSchema
@testable import CloudSeedStore

/// The table that finds values again by the bytes of their texts.
@Suite struct ByteKeyedValuesTests {
    private func lookUp(_ table: ByteKeyedValues<Int>, _ text: String) -> Int? {
        Array(text.utf8).withUnsafeBufferPointer { table.value(for: $0) }
    }

    @Test func findsEveryTextKeptAcrossGrowthAndNothingElse() {
        var table = ByteKeyedValues<Int>()
        #expect(lookUp(table, "Zoë Müller") == nil)
        let texts = (0..<50_000).map { $0 % 4 == 0 ? "Zoë Müller \($0) 漢字" : "Artist \($0)" } + [""]
        for (number, text) in texts.enumerated() {
            Array(text.utf8).withUnsafeBufferPointer { table.insert($0, value: number) }
        }
        #expect(table.count == texts.count)
        for (number, text) in texts.enumerated() { #expect(lookUp(table, text) == number, "\(text)") }
        for text in ["Artist 50000", "Artist 1 ", "artist 1", "Artist", "Zoe\u{308} Müller 0 漢字"] {
            #expect(lookUp(table, text) == nil, "\(text)")
        }
    }

    @Test func keepsTheFirstValueOfATextInsertedTwice() {
        var table = ByteKeyedValues<Int>()
        for value in [1, 2] { Array("Harbor".utf8).withUnsafeBufferPointer { table.insert($0, value: value) } }
        #expect(table.count == 1 && lookUp(table, "Harbor") == 1)
        table.removeAll()
        #expect(table.count == 0 && lookUp(table, "Harbor") == nil)
    }

    @Test func textsAreToldByBytesOnly() {
        var texts = ByteKeyedTexts()
        Array("Zo\u{EB}".utf8).withUnsafeBufferPointer { texts.insert($0) }
        #expect(Array("Zo\u{EB}".utf8).withUnsafeBufferPointer { texts.contains($0) })
        #expect(!Array("Zoe\u{308}".utf8).withUnsafeBufferPointer { texts.contains($0) })
    }
}
