import Testing

@testable import CloudSeed
@testable import CloudSeedCore
@testable import CloudSeedReaders
@testable import CloudSeedSchema
@testable import CloudSeedStore

/// Change tags are the store's counter in base 36, as `String(_:radix:)` writes it.
@Suite struct ChangeTagTests {
    @Test func writesTheCounterAsStringRadix36Does() {
        var generator = SeededGenerator(seed: 3)
        let samples: [Int64] =
            [0, 1, 9, 10, 35, 36, 37, 1295, 1296, 46655, 46656, Int64.max, Int64.max - 1, -1, -36, Int64.min]
            + (0..<10_000).map { _ in
                Int64.random(in: 0...Int64.max, using: &generator) >> Int64.random(in: 0...62, using: &generator)
            }
        for counter in samples {
            #expect(ChangeTag.text(of: counter) == String(counter, radix: 36), "\(counter)")
        }
    }
}
