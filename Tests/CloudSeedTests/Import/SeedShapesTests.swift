import CloudSeedTestSupport
import Foundation
import Testing

@testable import CloudSeed

/// Shapes people's seed files take that no one file of the samples shows: each imported with no
/// options, as its author meant it.
@Suite struct SeedShapesTests {
    let folder: TemporaryFolder
    let store: SQLiteContainerStore

    init() throws {
        folder = try TemporaryFolder()
        store = try SQLiteContainerStore(path: folder.path("store.sqlite"))
    }

    func importing(_ files: [(name: String, text: String)], options: MappingOptions = MappingOptions()) throws
        -> ImportSummary
    {
        try Importer(store: store, scope: StoreScope(), options: options, now: 0).run(
            files.map { try SourceFile(path: folder.write($0.name, $0.text)) })
    }

    func records(_ type: String) throws -> [CloudRecord] {
        var result: [CloudRecord] = []
        try store.forEachRecord(in: StoreScope(), recordType: type) { result.append($0) }
        return result
    }

    @Test func decimalsInStringsAreNumbersButVersionsAndZipCodesStayText() throws {
        _ = try importing([
            (
                "books.json",
                #"[{"title": "A", "price": "900.00", "version": "1.10", "zip": "02134"}, {"title": "B", "price": "12.50", "version": "1.1", "zip": "10001"}]"#
            )
        ])
        let books = try records("Book")
        #expect(books.map(\.fields["price"]) == [.double(900), .double(12.5)])
        #expect(books.map(\.fields["version"]) == [.string("1.10"), .string("1.1")])
        #expect(books.map(\.fields["zip"]) == [.string("02134"), .string("10001")])
    }
}
