import Testing

@testable import CloudSeed
@testable import CloudSeedCore
@testable import CloudSeedReaders
@testable import CloudSeedSchema
@testable import CloudSeedStore

/// The hash that finds texts by their bytes, the fingerprints of record names made with it, and
/// the count of rows by type the mapper keeps.
@Suite struct ByteHashTests {
    @Test func equalBytesHashEquallyAndDistinctTextsApart() {
        var hashes = Set<UInt64>()
        var wide = Set<[UInt64]>()
        for number in 0..<200_000 {
            let text = number % 3 == 0 ? "Artwork-\(number)" : "Zoë Müller \(number) 漢字"
            let bytes = Array(text.utf8)
            let hash = bytes.withUnsafeBytes { ByteHash.hash($0) }
            #expect(Array(text.utf8).withUnsafeBytes { ByteHash.hash($0) } == hash)
            hashes.insert(hash)
            let (first, second) = bytes.withUnsafeBytes { ByteHash.wideHash($0) }
            #expect(first == hash && second != hash)
            wide.insert([first, second])
        }
        #expect(hashes.count == 200_000 && wide.count == 200_000)
        #expect([UInt8]().withUnsafeBytes { ByteHash.hash($0) } != [0].withUnsafeBytes { ByteHash.hash($0) })
    }

    @Test func textsEqualAsStringsHaveEqualFingerprints() {
        let pairs = [("Zo\u{EB}", "Zoe\u{308}"), ("\u{212A}elvin", "Kelvin"), ("Fen\u{EA}tre", "Fene\u{302}tre")]
        for (composed, decomposed) in pairs {
            #expect(composed == decomposed)
            #expect(Fingerprint(composed) == Fingerprint(decomposed), "\(composed)")
        }
        #expect(Fingerprint("Kelvin") != Fingerprint("kelvin"))
        #expect(Fingerprint("Zoë") != Fingerprint("Zoe"))
    }

    @Test func asciiIsToldEightBytesAtATime() {
        for text in ["", "a", "abcdefgh", "abcdefghi", "abcdefgh\u{E9}", "\u{E9}", "1234567\u{7F}", "12345678\u{80}"] {
            var copy = text
            #expect(copy.withUTF8(UTF8Validation.isASCII) == text.utf8.allSatisfy { $0 < 0x80 }, "\(text)")
        }
    }

    @Test func rowsAreCountedPerType() {
        var counts = TypeRowCounts()
        let types = ["Artist", "Artist", "Artwork", "Artwork", "Artwork", "Artist", "Note", "Artwork"]
        #expect(types.map { counts.count($0) } == [0, 1, 0, 1, 2, 2, 0, 3])
    }
}
