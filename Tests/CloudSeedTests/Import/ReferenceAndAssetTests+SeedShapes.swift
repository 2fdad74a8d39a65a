import CloudSeedTestSupport
import Foundation
import Testing

@testable import CloudSeed
@testable import CloudSeedCore
@testable import CloudSeedReaders
@testable import CloudSeedSchema
@testable import CloudSeedStore

/// Shapes people's seed files take that no one file of the samples shows: each imported with no
/// options, as its author meant it. (Written as an extension for the suite's folder, store and helpers.)
extension ReferenceAndAssetTests {
    func importing(_ files: [(name: String, text: String)], options: MappingOptions = MappingOptions()) throws
        -> ImportSummary
    {
        try importFiles(files.map { try folder.write($0.name, $0.text) }, options: options)
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

    @Test func recordsNestedByTheirIdsAreChildRecordsNamedByThem() throws {
        // As a Firebase export nests a user's posts.
        _ = try importing([
            (
                "export.json",
                #"{"users": {"uidA": {"name": "Ann", "posts": {"-Mp1": {"title": "Hi"}, "-Mp2": {"title": "Yo"}}}, "uidB": {"name": "Bob", "posts": {"-Mp3": {"title": "Hey"}}}, "uidC": {"name": "Cy", "tintColor": {"red": 1, "green": 0}}}}"#
            )
        ])
        let posts = try records("Post")
        #expect(posts.map(\.recordID.recordName) == ["uidA-posts--Mp1", "uidA-posts--Mp2", "uidB-posts--Mp3"])
        #expect(posts.map(\.fields["user"]) == ["uidA", "uidA", "uidB"].map { .reference(Reference(recordName: $0)) })
        #expect(
            try records("User").map { Set($0.fields.keys) } == [
                ["name"], ["name"], ["name", "tintColor_red", "tintColor_green"],
            ])
    }

    @Test func aSetKeptAsKeysSetToTrueIsTheListOfItsKeys() throws {
        // As Firebase keeps a room's members; pinned as references, they find the users.
        var options = MappingOptions()
        options.references = [try ReferenceDeclaration(parsing: "Room.members:User")]
        _ = try importing(
            [
                (
                    "chat.json",
                    #"{"users": {"uidA": {"name": "Ann"}, "uidB": {"name": "Bob"}}, "rooms": {"-R1": {"members": {"uidA": true, "uidB": true}}, "-R2": {"members": {"uidB": true}}}}"#
                )
            ], options: options)
        let users = { (names: [String]) in
            RecordValue.list(.reference, names.map { .reference(Reference(recordName: $0)) })
        }
        #expect(try records("Room").map(\.fields["members"]) == [users(["uidA", "uidB"]), users(["uidB"])])
    }

    @Test func aTypesOwnIDColumnNamesItsRecordsAndFindsThem() throws {
        // As Northwind's CSVs name their keys: CustomerID in customers.csv and in orders.csv.
        let summary = try importing([
            ("customers.csv", "CustomerID,CompanyName\nALFKI,Alfreds Futterkiste\nANATR,Ana Trujillo\n"),
            ("orders.csv", "OrderID,CustomerID,EmployeeID\n10248,ALFKI,5\n10249,ANATR,6\n10250,ALFKI,4\n"),
        ])
        #expect(summary.plan.recordType("Customer")?.namingRule == .column("CustomerID"))
        #expect(try records("Customer").map(\.recordID.recordName) == ["ALFKI", "ANATR"])
        #expect(try records("Order").map(\.recordID.recordName) == ["10248", "10249", "10250"])
        #expect(
            try records("Order").map(\.fields["CustomerID"])
                == ["ALFKI", "ANATR", "ALFKI"].map { .reference(Reference(recordName: $0)) })
        #expect(try records("Order").map(\.fields["EmployeeID"]) == [.int64(5), .int64(6), .int64(4)])
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

    static let djangoFixture = """
        [{"model": "auth.user", "fields": {"password": "x", "username": "admin", "email": "a@example.com"}},
         {"model": "auth.user", "fields": {"password": "y", "username": "mei", "email": "m@example.com"}},
         {"model": "contenttypes.contenttype", "fields": {"app_label": "books", "model": "book"}},
         {"model": "contenttypes.contenttype", "fields": {"app_label": "books", "model": "category"}},
         {"model": "admin.logentry", "pk": 1,
          "fields": {"user": ["mei"], "content_type": ["books", "category"], "object_id": "4"}},
         {"model": "admin.logentry", "pk": 2,
          "fields": {"user": ["admin"], "content_type": ["books", "book"], "object_id": "7"}}]
        """

    @Test(arguments: [[], ["Logentry.user:User", "Logentry.content_type:Contenttype"]])
    func djangoNaturalKeysAreReferences(pinned: [String]) throws {
        // Found by the names and values alone, or pinned with the flags the plan prints: the same records.
        var options = MappingOptions()
        options.references = try pinned.map(ReferenceDeclaration.init(parsing:))
        let summary = try importing([("initial_data.json", Self.djangoFixture)], options: options)
        let entry = try #require(summary.plan.recordType("Logentry"))
        #expect(entry.fields["user"]?.type == .reference)
        #expect(entry.fields["content_type"]?.target == "Contenttype")
        if pinned.isEmpty {
            #expect(entry.fields["user"]?.reason == "its name and every value name User records by their natural keys")
        }
        #expect(
            try records("Logentry").map(\.fields["user"]) == [
                .reference(Reference(recordName: "m@example.com")), .reference(Reference(recordName: "a@example.com")),
            ])
        #expect(
            try records("Logentry").map(\.fields["content_type"]) == [
                .reference(Reference(recordName: "Contenttype-2")), .reference(Reference(recordName: "Contenttype-1")),
            ])
    }

    @Test func aNaturalKeyThatNamesNoRecordIsRefusedWithTheClosest() throws {
        var options = MappingOptions()
        options.references = [try ReferenceDeclaration(parsing: "Logentry.content_type:Contenttype")]
        let fixture = Self.djangoFixture.replacingOccurrences(of: #"["books", "book"]"#, with: #"["books", "author"]"#)
        let messages = errorMessages { _ = try importing([("initial_data.json", fixture)], options: options) }
        #expect(messages.count == 1)
        #expect(
            messages.first?.hasSuffix(
                #"no Contenttype record matches '["books", "author"]' (closest: Contenttype-1, Contenttype-2); fix the value, or pass MappingOptions.allowDangling to keep it as a reference to a missing record"#
            ) == true)
        #expect(try records("Logentry").isEmpty)
    }
}
