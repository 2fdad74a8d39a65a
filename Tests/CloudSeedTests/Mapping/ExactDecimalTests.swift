import Testing

@testable import CloudSeed
@testable import CloudSeedCore
@testable import CloudSeedReaders
@testable import CloudSeedSchema
@testable import CloudSeedStore

/// Decimals read without `strtod` (``NumberText/decimal(_:)``) are the same doubles, bit for bit,
/// as `Double(_:)` makes of their text.
@Suite struct ExactDecimalTests {
    static func decimal(_ text: String) -> Double? {
        var text = text
        return text.withUTF8(NumberText.decimal)
    }

    @Test(arguments: [
        "219934.66", "39.240171", "-91.202184", "0.1", "0.2", "0.3", "-0.0", "0.0", "1.5e3", "1E-7", "2.5E+10",
        "0.000123", "123456789012345.6", "1234567890123456.7", "9007199254740993.0", "1e22", "1e23",
        "1.7976931348623157e308",
        "4.9e-324", "2.2250738585072014e-308", "1e-22", "3e-23", "0.1000000000000000055511151231257827", "0e999",
        "8.589973e9",
    ])
    func readsAsDoubleDoes(text: String) throws {
        let expected = try #require(Double(text))
        #expect(Self.decimal(text)?.bitPattern == expected.bitPattern)
    }

    @Test func readsRandomDecimalsAsDoubleDoes() {
        var random = SeededGenerator(seed: 12)
        for _ in 0..<200_000 {
            let digits = Int.random(in: 1...17, using: &random)
            var text = Bool.random(using: &random) ? "-" : ""
            let whole = Int.random(in: 1...digits, using: &random)
            text += String(Int.random(in: 1...9, using: &random))
            for _ in 1..<whole { text += String(Int.random(in: 0...9, using: &random)) }
            if whole < digits {
                text += "."
                for _ in whole..<digits { text += String(Int.random(in: 0...9, using: &random)) }
            }
            if Int.random(in: 0..<4, using: &random) == 0 {
                text += "e" + String(Int.random(in: -30...30, using: &random))
            }
            guard let expected = Double(text) else { continue }
            #expect(Self.decimal(text)?.bitPattern == expected.bitPattern, "\(text)")
        }
    }

    @Test func refusesWhatIsInfinite() {
        #expect(Self.decimal("1e400") == nil)
        #expect(Self.decimal("-1.5e309") == nil)
    }

    @Test func jsonNumbersReadTheSame() throws {
        var parser = JSONParser(
            input: ChunkedInput(bytes: Array(#"[219934.66, -0.0, 1e23, 140, -9223372036854775808]"#.utf8)),
            file: "n.json")
        let value = try parser.parseDocument().plainValue
        #expect(value == .array([.real(219934.66), .real(-0.0), .real(1e23), .integer(140), .integer(Int64.min)]))
        var tooBig = JSONParser(input: ChunkedInput(bytes: Array("[9223372036854775808]".utf8)), file: "n.json")
        #expect(throws: CloudSeedError.self) { try tooBig.parseDocument() }
    }
}
