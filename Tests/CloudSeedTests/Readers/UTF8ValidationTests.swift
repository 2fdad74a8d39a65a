import Testing

@testable import CloudSeed
@testable import CloudSeedCore
@testable import CloudSeedReaders
@testable import CloudSeedSchema
@testable import CloudSeedStore

@Suite struct UTF8ValidationTests {
    /// The CSV reader's own check must accept and refuse exactly what the standard library does.
    @Test func agreesWithTheStandardLibraryOnEveryKindOfSequence() {
        let samples: [[UInt8]] = [
            [], Array("plain ASCII, longer than eight bytes".utf8), Array("Zoë 漢字 🔥 Müller".utf8),
            [0xC3, 0x28], [0xC0, 0x80], [0xE0, 0x80, 0x80], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80],
            [0xF0, 0x9F, 0x94], [0xFF], Array("12345678".utf8) + [0xE2, 0x82, 0xAC] + Array("abcdefgh".utf8),
            Array("1234567".utf8) + [0xC3],
        ]
        var generator = SeededGenerator(seed: 11)
        let alphabet: [UInt8] = [
            0x41, 0x7F, 0x80, 0xBF, 0xC2, 0xC3, 0xDF, 0xE0, 0xE1, 0xED, 0xEF, 0xF0, 0xF3, 0xF4, 0xF5, 0x9F, 0xA0, 0x8F,
            0x90,
        ]
        let random = (0..<20_000).map { _ in
            (0..<Int.random(in: 0...12, using: &generator)).map { _ in alphabet.randomElement(using: &generator)! }
        }
        for bytes in samples + random {
            let expected = String(validating: bytes, as: UTF8.self) != nil
            #expect(bytes.withUnsafeBufferPointer(UTF8Validation.isValid) == expected, "\(bytes)")
        }
    }
}
