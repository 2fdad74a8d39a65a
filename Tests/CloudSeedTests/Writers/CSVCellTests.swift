import Testing

@testable import CloudSeed

@Suite struct CSVCellTests {
    @Test func cellsAreQuotedOnlyWhenTheyMustBe() {
        let cells = ["plain", "a,b", #"say "hi""#, "line\nbreak", "cr\rhere", " lead", "trail ", "", #""""#, "Fenêtre 漢字 🔥", "x"]
        #expect(CSVExporter.line(cells, quoteEmpty: ["set"], header: ["a", "b", "c", "d", "e", "f", "set", "g", "h", "i"]) ==
            #"plain,"a,b","say ""hi""","line"# + "\n" + #"break","cr"# + "\r" + #"here"," lead","trail ","","""""",Fenêtre 漢字 🔥,x"# + "\r\n")
    }

    @Test func anUnsetCellIsEmptyAndASetEmptyOneIsTwoQuotes() {
        var line: [UInt8] = []
        CSVExporter.appendCell("".utf8, setButEmpty: false, to: &line)
        #expect(line.isEmpty)
        CSVExporter.appendCell([UInt8](), setButEmpty: true, to: &line)
        #expect(line == Array(#""""#.utf8))
    }
}
