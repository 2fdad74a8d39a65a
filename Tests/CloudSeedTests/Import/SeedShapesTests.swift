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

    @Test func lineItemsThatHoldAProductAreNoProducts() throws {
        let summary = try importing([
            ("products.json", #"[{"id": "p1", "title": "Shirt"}, {"id": "p2", "title": "Hat"}]"#),
            (
                "carts.json",
                #"[{"id": "c1", "products": [{"product": "p2", "quantity": 2}, {"product": "p1", "quantity": 1}]}]"#
            ),
        ])
        #expect(summary.plan.recordTypes.map(\.name).sorted() == ["Cart", "Cart_product", "Product"])
        #expect(try records("Product").count == 2)
        let lines = try records("Cart_product")
        #expect(lines.map(\.fields["quantity"]) == [.int64(2), .int64(1)])
        #expect(lines.map(\.fields["cart"]) == Array(repeating: .reference(Reference(recordName: "c1")), count: 2))
        #expect(
            lines.map(\.fields["product"]) == [
                .reference(Reference(recordName: "p2")), .reference(Reference(recordName: "p1")),
            ])
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
