import Testing

@testable import CloudSeed
@testable import CloudSeedCore
@testable import CloudSeedReaders
@testable import CloudSeedSchema
@testable import CloudSeedStore

@Suite struct JSONTextTests {
    @Test func quotesAndEscapesWhatRFC8259Requires() {
        #expect(JSONText.quoted("Get apples") == #""Get apples""#)
        #expect(JSONText.quoted("Fenêtre 🔥 漢字") == #""Fenêtre 🔥 漢字""#)
        #expect(
            JSONText.quoted("say \"hi\"\\ \n\r\t\u{1}\u{1F}\u{7F}") == #""say \"hi\"\\ \n\r\t\u0001\u001f"# + "\u{7F}\""
        )
    }

    @Test func writesNumbersThatReadBackAsDoubles() {
        #expect(JSONText.number(1) == "1.0")
        #expect(JSONText.number(-0.5) == "-0.5")
        #expect(JSONText.number(1e-300) == "1e-300")
    }

    @Test func appendsNumbersAsDescriptionWritesThem() {
        func appended(_ value: Double) -> String {
            var bytes: [UInt8] = []
            JSONText.appendNumber(value, to: &bytes)
            return String(decoding: bytes, as: UTF8.self)
        }
        #expect(appended(39.240171) == "39.240171")
        #expect(appended(-91.202184) == "-91.202184")
        #expect(appended(219934.66) == "219934.66")
        #expect(appended(12) == "12.0")
        #expect(appended(-0.5) == "-0.5")
        #expect(appended(0.0001) == "0.0001")
        #expect(appended(0.00001) == "1e-05")
        #expect(appended(-0.0) == "-0.0")
        #expect(appended(0.1 + 0.2) == "0.30000000000000004")
        #expect(appended(999_999_999.999999) == "999999999.999999")
        #expect(appended(1e15) == JSONText.number(1e15))
        // Numbers of every scale and up to nine decimals, drawn from a seed, read as `description` writes them.
        var generator = SeededGenerator(seed: 19)
        var mismatches: [String] = []
        for _ in 0..<200_000 {
            let digits = Double(Int64.random(in: -999_999_999_999_999...999_999_999_999_999, using: &generator))
            let value =
                digits / [1, 10, 100, 1e3, 1e4, 1e5, 1e6, 1e7, 1e9, 1e12][Int.random(in: 0..<10, using: &generator)]
            if appended(value) != JSONText.number(value) { mismatches.append(JSONText.number(value)) }
        }
        #expect(mismatches.isEmpty)
    }

    @Test func writesObjectsInTheOrderGiven() {
        #expect(JSONText.object([("b", "1"), ("a", #""x""#)]) == #"{"b":1,"a":"x"}"#)
        #expect(JSONText.object([]) == "{}")
    }
}
