import Testing

@testable import CloudSeed
@testable import CloudSeedCore
@testable import CloudSeedReaders
@testable import CloudSeedSchema
@testable import CloudSeedStore

@Suite struct CSVCellTests {
    @Test func cellsAreQuotedOnlyWhenTheyMustBe() {
        let cells = [
            "plain", "a,b", #"say "hi""#, "line\nbreak", "cr\rhere", " lead", "trail ", "", #""""#, "Fenêtre 漢字 🔥", "x",
        ]
        #expect(
            CSVExporter.line(cells, quoteEmpty: ["set"], header: ["a", "b", "c", "d", "e", "f", "set", "g", "h", "i"])
                == #"plain,"a,b","say ""hi""","line"# + "\n" + #"break","cr"# + "\r"
                + #"here"," lead","trail ","","""""",Fenêtre 漢字 🔥,x"# + "\r\n")
    }

    @Test func anUnsetCellIsEmptyAndASetEmptyOneIsTwoQuotes() {
        var line: [UInt8] = []
        CSVCell.append("".utf8, setButEmpty: false, to: &line)
        #expect(line.isEmpty)
        CSVCell.append([UInt8](), setButEmpty: true, to: &line)
        #expect(line == Array(#""""#.utf8))
    }

    @Test func aCommaQuoteOrLineBreakAnywhereInALongCellQuotesIt() {
        func cell(_ text: String) -> String {
            var line: [UInt8] = []
            CSVCell.append(text.utf8, setButEmpty: false, to: &line)
            return String(decoding: line, as: UTF8.self)
        }
        // Eight bytes are checked at a time, then the rest one by one: every offset of both parts.
        for length in 0...20 {
            let plain = String(repeating: "é", count: length / 2) + String(repeating: "x", count: length % 2)
            #expect(cell(plain) == plain)
            for special in [",", "\"", "\n", "\r"] {
                for offset in 0...plain.count {
                    var text = plain
                    text.insert(contentsOf: special, at: text.index(text.startIndex, offsetBy: offset))
                    #expect(
                        cell(text) == "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\"",
                        "\(special) at \(offset) in \(plain)")
                }
            }
        }
    }
}
