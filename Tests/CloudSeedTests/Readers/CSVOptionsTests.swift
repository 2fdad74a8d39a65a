import CloudSeedTestSupport
import Foundation
import Testing

@testable import CloudSeed
@testable import CloudSeedCore
@testable import CloudSeedReaders
@testable import CloudSeedSchema
@testable import CloudSeedStore

@Suite struct CSVOptionsTests {
    @Test func namesColumnsOfFilesWithoutAHeader() throws {
        let reader = CSVReader(
            input: { ChunkedInput(bytes: Array("1;Mei\n2;Zoë\n".utf8)) }, file: "x.csv",
            options: CSVOptions(columns: ["id", "name"]))
        var read: [SourceRow] = []
        try reader.forEachRow { read.append($0) }
        #expect(
            read.map(\.values) == [
                ["id": .text("1"), "name": .text("Mei")], ["id": .text("2"), "name": .text("Zoë")],
            ])
    }

    func tsvRows(_ text: String, hasHeader: Bool? = nil) throws -> [[String: PlainValue]] {
        let reader = CSVReader(
            input: { ChunkedInput(bytes: Array(text.utf8)) }, file: "x.tsv",
            options: CSVOptions(delimiter: 9, hasHeader: hasHeader))
        var read: [SourceRow] = []
        try reader.forEachRow { read.append($0) }
        return read.map(\.values)
    }

    @Test func keepsAFirstRowOfDataAsARecord() throws {
        let file = "Burma SuperStar\t(415) 387-2147\t94118\nNopa\t(415) 864-8643\t94117\n"
        #expect(
            try tsvRows(file) == [
                ["column1": .text("Burma SuperStar"), "column2": .text("(415) 387-2147"), "column3": .text("94118")],
                ["column1": .text("Nopa"), "column2": .text("(415) 864-8643"), "column3": .text("94117")],
            ])
        #expect(try tsvRows(file, hasHeader: true).count == 1)
        #expect(try tsvRows("name\tphone\tzip\nNopa\t(415) 864-8643\t94117\n").count == 1)
        #expect(try tsvRows("name\tphone\nNopa\tunknown\n", hasHeader: false).count == 2)
    }

    @Test(arguments: [
        (["name", "phone", "zip"], false), (["Price (USD)", "e-mail", "Date Added"], false),
        (["Nopa", "94117"], true), (["Nopa", "+1 415-864-8643"], true), (["mei@example.com"], true),
        (["2021-05-05", "Talk"], true), (["https://example.com", "x"], true),
    ])
    func tellsDataFromColumnNames(cells: [String], isData: Bool) {
        #expect(HeaderGuess.isData(cells) == isData)
    }

    @Test func convertsUTF16WithAByteOrderMark() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("names.csv")
        try Data([0xFF, 0xFE] + "name\nZoë\n".data(using: .utf16LittleEndian)!).write(to: URL(fileURLWithPath: path))
        var read: [SourceRow] = []
        try SourceFile(path: path).reader().forEachRow { read.append($0) }
        #expect(read.map(\.values) == [["name": .text("Zoë")]])
    }

    @Test func namesTheByteOffsetOfInvalidUTF8() {
        #expect(
            throws: CloudSeedError(
                .invalidValue, "the field is not valid UTF-8 at byte offset 7; re-save the file as UTF-8",
                at: SourcePosition(file: "test", line: 2, column: 1))
        ) {
            try rows(bytes: Array("name\nab".utf8) + [0xC3, 0x28, 0x0A], format: .csv)
        }
    }

    @Test func readsTheSameRecordsAsCSVAndTSV() throws {
        let csv = try rows("\u{FEFF}title;notes\r\n\"A; B\";\"two\r\nlines\"\r\n", format: .csv)
        let tsv = try rows("title\tnotes\nA; B\t\"two\r\nlines\"\n", format: .tsv)
        #expect(csv.map(\.values) == tsv.map(\.values))
    }

    @Test func streamsFilesLargerThanOneChunk() throws {
        let folder = try TemporaryFolder()
        let line = "\"" + String(repeating: "x", count: 1000) + "\n\",2\n"
        let path = try folder.write("big.csv", "a,b\n" + String(repeating: line, count: 3000))
        var count = 0
        try SourceFile(path: path).reader().forEachRow { row in
            #expect(row.fields.count == 2)
            count += 1
        }
        #expect(count == 3000)
    }

    @Test func detectsFormatsByContent() throws {
        let folder = try TemporaryFolder()
        #expect(try SourceFile(path: folder.write("a.plist", "[{\"a\": 1}]")).format == .json)
        #expect(try SourceFile(path: folder.write("a.txt", "a,b\n1,2\n")).format == .csv)
        #expect(try SourceFile(path: folder.write("a.data", "<?xml version=\"1.0\"?><plist/>")).format == .propertyList)
        // mongoexport writes one document per line into a `.json` file: JSON Lines.
        let lines =
            #"{"_id": {"$oid": "63c5"}, "title": "a {b} \"c\""}"# + "\r\n" + #"{"_id": {"$oid": "63c6"}}"# + "\n"
        #expect(try SourceFile(path: folder.write("products.json", lines)).format == .jsonLines)
        #expect(try SourceFile(path: folder.write("one.json", "{\"a\": 1}\n")).format == .json)
        #expect(try SourceFile(path: folder.write("pretty.json", "{\n  \"a\": {\"b\": 1}\n}\n")).format == .json)
        #expect(try SourceFile(path: folder.write("two.json", "{\"a\": 1} {\"a\": 2}")).format == .json)
        #expect(try SourceFile(path: folder.write("ToDoItems.binary.plist", "[]")).stem == "ToDoItems")
        #expect(try SourceFile(path: folder.write("cars-0.9.0.json", "[]")).stem == "cars-0.9.0")
    }
}
