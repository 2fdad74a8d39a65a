import Testing

@testable import CloudSeed
@testable import CloudSeedCore
@testable import CloudSeedReaders
@testable import CloudSeedSchema
@testable import CloudSeedStore

@Suite struct CSVReaderTests {
    @Test func readsRFC4180Quoting() throws {
        let read = try rows(
            "title,notes\r\n\"Smith, John\",\"He said \"\"hi\"\"\r\nthen left\"\r\nplain,\r\n", format: .csv)
        #expect(read.count == 2)
        #expect(read[0].values == ["title": .text("Smith, John"), "notes": .text("He said \"hi\"\r\nthen left")])
        #expect(read[1].values == ["title": .text("plain")])
        #expect(read[1].position.line == 4)
    }

    /// A cell's doubled quotes undone in runs longer than a word, across a line break, with the
    /// lines counted on; an unterminated cell with a doubled quote is refused at its start.
    @Test func undoesDoubledQuotesInLongRunsAndCountsTheirLines() throws {
        let tags = #""[""still life"", ""abstract"",""light""]""#
        let read = try rows("tags,n\n\(tags),1\n\"a \"\"long\"\" run\nof Zoë's \"\"\"\"\",2\nlast,3\n", format: .csv)
        #expect(
            read.map(\.values) == [
                ["tags": .text(#"["still life", "abstract","light"]"#), "n": .text("1")],
                ["tags": .text("a \"long\" run\nof Zoë's \"\""), "n": .text("2")],
                ["tags": .text("last"), "n": .text("3")],
            ])
        #expect(read[2].position.line == 5)
        #expect(
            readError("a\n\"x\"\"y and more than a word\n", format: .csv, file: "x.csv")
                == "x.csv:2:1: unterminated quoted field; add the closing quote")
    }

    @Test func sniffsSemicolonsAndSkipsTheByteOrderMark() throws {
        let read = try rows("\u{FEFF}name;price\nZoë;1,5\n", format: .csv)
        #expect(read.map(\.values) == [["name": .text("Zoë"), "price": .text("1,5")]])
    }

    @Test func givesEachCellItsLineAndColumn() throws {
        let read = try rows("a,b\n1,22\n", format: .csv, file: "x.csv")
        #expect(read[0].fields[1].position.description == "x.csv:2:3")
    }

    @Test func leavesMissingTrailingFieldsUnset() throws {
        let read = try rows("a,b,c\n1\n", format: .csv)
        #expect(read[0].values == ["a": .text("1")])
    }

    @Test func refusesRowsWiderThanTheHeader() {
        #expect(
            readError("a,b\n1,2,3\n", format: .csv, file: "x.csv")
                == "x.csv:2:5: this row has 3 fields but the header has 2; quote fields that contain the delimiter")
    }

    @Test func refusesDuplicateAndEmptyColumnNames() {
        #expect(
            readError("a,b,a\n", format: .csv, file: "x.csv")
                == "x.csv:1:5: duplicate column name 'a' (first at column 1); rename one of them")
        #expect(
            readError("a,,b\n", format: .csv, file: "x.csv")
                == "x.csv:1:3: empty column name in the header row; name every column")
    }

    @Test func refusesUnterminatedQuotes() {
        #expect(
            readError("a\n\"open\n", format: .csv, file: "x.csv")
                == "x.csv:2:1: unterminated quoted field; add the closing quote")
        #expect(
            readError("a\n\"closed\" then text\n", format: .csv, file: "x.csv")
                == "x.csv:2:9: unexpected text after a closing quote; expected the delimiter or the end of the line")
    }

    @Test func takesAQuoteInsideAnUnquotedFieldLiterally() throws {
        let read = try rows("height,where\n5'10\",37°36'37.8\"N\nsa\"y,\"quoted\"\n", format: .csv)
        #expect(
            read.map(\.values) == [
                ["height": .text("5'10\""), "where": .text("37°36'37.8\"N")],
                ["height": .text("sa\"y"), "where": .text("quoted")],
            ])
    }

    @Test func refusesInvalidUTF8() {
        #expect(throws: CloudSeedError.self) { try rows(bytes: Array("a\n".utf8) + [0xC3, 0x28, 0x0A], format: .csv) }
    }

    @Test func readsTabSeparatedValues() throws {
        let read = try rows("a\tb\n1\t2\n", format: .tsv)
        #expect(read[0].values == ["a": .text("1"), "b": .text("2")])
    }
}
