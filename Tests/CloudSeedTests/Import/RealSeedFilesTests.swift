import CloudSeedTestSupport
import Crypto
import Foundation
import Testing

@testable import CloudSeed
@testable import CloudSeedCore
@testable import CloudSeedReaders
@testable import CloudSeedSchema
@testable import CloudSeedStore

/// The real seed files of `../shared/examples/real`, imported with no options under their original
/// names (the files of a set in one run), checked against what their README rows say a correct
/// import gives; skipped without them.
@Suite(
    .enabled(
        if: FileManager.default.fileExists(atPath: SharedExamples.path("real/README.md")),
        "../shared/examples/real is not beside this checkout"))
struct RealSeedFilesTests {
    struct Imported {
        let summary: ImportSummary
        let records: [CloudRecord]
        private let byName: [String: CloudRecord]

        init(summary: ImportSummary, records: [CloudRecord]) {
            self.summary = summary
            self.records = records
            byName = Dictionary(records.map { ($0.recordID.recordName, $0) }, uniquingKeysWith: { first, _ in first })
        }

        var total: Int { summary.counts.map(\.created).reduce(0, +) }
        var typeNames: Set<String> { Set(summary.plan.recordTypes.map(\.name)) }
        func count(_ type: String) -> Int { summary.counts.first { $0.recordType == type }?.created ?? 0 }
        func type(_ field: String, of recordType: String) -> FieldType? {
            summary.plan.recordType(recordType)?.fields[field]?.type
        }
        func fields(of recordType: String) -> Set<String> {
            summary.plan.recordType(recordType).map { Set($0.fields.keys) } ?? []
        }
        func records(_ type: String) -> [CloudRecord] { records.filter { $0.recordType == type } }
        func names(_ type: String) -> Set<String> { Set(records(type).map(\.recordID.recordName)) }
        func record(named name: String) -> CloudRecord? { byName[name] }

        /// The record that the REFERENCE `field` of `record` points at.
        func target(of record: CloudRecord, _ field: String) -> CloudRecord? {
            guard case .reference(let reference)? = record.fields[field] else { return nil }
            return byName[reference.recordName]
        }

        /// Whether there are records of `type` and each has a REFERENCE `field` to a record of `targetType`.
        func every(_ type: String, refersWith field: String, to targetType: String) -> Bool {
            let referring = records(type)
            return !referring.isEmpty && referring.allSatisfy { target(of: $0, field)?.recordType == targetType }
        }

        /// How many records of `type` point with `field` at each target, by the target's `label`.
        func tally(
            _ type: String, _ field: String, by label: (CloudRecord) -> String? = { $0.recordID.recordName }
        ) -> [String: Int] {
            var counts: [String: Int] = [:]
            for record in records(type) {
                counts[target(of: record, field).flatMap(label) ?? "(none)", default: 0] += 1
            }
            return counts
        }
    }

    /// Each file's original name: the last component of the path in its README row's source column.
    static let originalNames: [String: String] = {
        let readme = (try? String(contentsOfFile: SharedExamples.path("real/README.md"), encoding: .utf8)) ?? ""
        var names: [String: String] = [:]
        for line in readme.split(separator: "\n") where line.hasPrefix("| `") {
            let cells = line.split(separator: "|")
            guard cells.count > 1, let source = cells[1].split(separator: "`").dropFirst().first else { continue }
            let file = cells[0].trimmingCharacters(in: CharacterSet(charactersIn: "` "))
            names[file] = String(source.split(separator: "/").last ?? source)
        }
        return names
    }()

    /// Imports `files` of `real/` in one run, each copied under its original name into a fresh folder.
    func importing(_ files: String...) throws -> Imported {
        let folder = try TemporaryFolder()
        let copies = try files.map { file in
            let copied = URL(fileURLWithPath: file).lastPathComponent
            let name = try #require(Self.originalNames[copied], "no row of real/README.md names \(copied)")
            try FileManager.default.copyItem(atPath: SharedExamples.path("real/\(file)"), toPath: folder.path(name))
            return folder.path(name)
        }
        return try withExtendedLifetime(folder) { try run(copies) }
    }

    /// Imports `file` of the folder `folder` of `real/`, copied whole so that the files beside it come along.
    func importing(_ file: String, withTheFilesOf folder: String, options: MappingOptions = MappingOptions()) throws
        -> Imported
    {
        let copy = try TemporaryFolder()
        let destination = copy.path(URL(fileURLWithPath: folder).lastPathComponent)
        try FileManager.default.copyItem(atPath: SharedExamples.path("real/\(folder)"), toPath: destination)
        return try withExtendedLifetime(copy) { try run(["\(destination)/\(file)"], options: options) }
    }

    private func run(_ paths: [String], options: MappingOptions = MappingOptions()) throws -> Imported {
        let folder = try TemporaryFolder()
        let store = try SQLiteContainerStore(path: folder.path("store.sqlite"))
        let summary = try Importer(store: ContainerStore(backend: store), scope: StoreScope(), options: options, now: 0)
            .run(paths.map { try SourceFile(path: $0) })
        var records: [CloudRecord] = []
        try store.forEachRecord(in: StoreScope(), recordType: nil) { records.append($0) }
        return Imported(summary: summary, records: records)
    }

    // MARK: - jsonserver/

    @Test func confusionJSONServerDatabase() throws {
        let (dish, comment, promotion, leader, feedback) = ("Dish", "Comment", "Promotion", "Leader", "Feedback")
        let result = try importing("jsonserver/01-DC_confusion-coursera-reactjs_db.json")
        #expect(result.total == 33)
        #expect(result.typeNames == [dish, comment, promotion, leader, feedback])
        let ids = [dish: 0...3, comment: 0...20, promotion: 0...0, leader: 0...3, feedback: 1...3]
        for (type, range) in ids {
            #expect(result.count(type) == range.count, "\(type)")
            #expect(result.names(type) == Set(range.map { "\(type)-\($0)" }), "\(type)")
        }
        #expect(result.type("dishId", of: comment) == .reference)
        #expect(result.every(comment, refersWith: "dishId", to: dish))
        #expect(result.tally(comment, "dishId") == ["\(dish)-0": 6, "\(dish)-1": 5, "\(dish)-2": 5, "\(dish)-3": 5])
        #expect(result.type("date", of: comment) == .timestamp)
        #expect(result.type("date", of: feedback) == .timestamp)
        #expect(
            result.record(named: "\(comment)-0")?.fields["date"]
                == .timestamp(Timestamp.parse("2012-10-16T17:57:28.556Z")!))
        #expect(
            result.record(named: "\(feedback)-1")?.fields["date"]
                == .timestamp(Timestamp.parse("2017-12-04T09:41:49.890Z")!))
        #expect(result.type("rating", of: comment) == .int64)
        for type in [dish, promotion, leader] { #expect(result.type("featured", of: type) == .int64, "\(type)") }
        #expect(result.type("agree", of: feedback) == .int64)
        #expect(result.record(named: "\(dish)-0")?.fields["featured"] == .int64(1))
        #expect(result.record(named: "\(dish)-1")?.fields["featured"] == .int64(0))
        #expect(result.records(feedback).allSatisfy { $0.fields["agree"] == .int64(1) })
        #expect(result.type("telnum", of: feedback) == .string)
    }

    @Test func bookReviewJSONServerDatabaseWithAnIDCounter() throws {
        let review = "Review"
        let result = try importing("jsonserver/00019132_book-review-app_db.json")
        #expect(result.total == 2)
        #expect(result.count(review) == 2)
        #expect(result.typeNames == [review])
        #expect(result.type("createdAt", of: review) == .timestamp)
        #expect(result.type("updatedAt", of: review) == .timestamp)
    }

    @Test func burgersWithTheirAddressesAsChildRecords() throws {
        let (burger, address) = ("Burger", "Address")
        let result = try importing("jsonserver/005guy_burger-api_db.json")
        #expect(result.total == 4)
        #expect(result.count(burger) == 2)
        #expect(result.count(address) == 2)
        #expect(result.type("ingredients", of: burger) == .list(.string))
        #expect(result.type("burger", of: address) == .reference)
        #expect(result.every(address, refersWith: "burger", to: burger))
        let moundRoad = try #require(result.records(address).first { $0.text("line1") == "Mound Road" })
        #expect(result.target(of: moundRoad, "burger")?.text("name") == "Five Guy's Cheeseburger")
        #expect(
            result.tally(address, "burger", by: { $0.text("name") })
                == ["Five Guy's Cheeseburger": 1, "Whiskey River BBQ": 1])
    }

    // MARK: - django/

    @Test func bookstoreDjangoFixture() throws {
        let (book, category, order, user) = ("Book", "Category", "Order", "User")
        let (logEntry, permission, contentType, session) = ("Logentry", "Permission", "Contenttype", "Session")
        let result = try importing("django/AlexeiSnow_bookstore_initial_data.json")
        #expect(result.total == 126)
        #expect(result.typeNames == [book, category, order, user, logEntry, permission, contentType, session])
        let counts = [
            book: 6, category: 6, order: 2, user: 3, logEntry: 32, permission: 60, contentType: 15, session: 2,
        ]
        for (type, count) in counts { #expect(result.count(type) == count, "\(type)") }
        for (type, field, targetType) in [
            (book, "category", category), (order, "book", book), (order, "user", user), (logEntry, "user", user),
            (logEntry, "content_type", contentType), (permission, "content_type", contentType),
        ] {
            #expect(result.type(field, of: type) == .reference, "\(type).\(field)")
            #expect(result.every(type, refersWith: field, to: targetType), "\(type).\(field)")
        }
        let dune = try #require(result.records(book).first { $0.text("title") == "Дюна" })
        #expect(result.target(of: dune, "category")?.text("name") == "Фантастика")
        let buying = try #require(result.records(order).first { $0.text("order_type") == "buy" })
        #expect(result.target(of: buying, "user")?.text("username") == "Алексей")
        #expect(result.target(of: buying, "book")?.text("title") == "Дюна")
        #expect(
            result.tally(logEntry, "user", by: { $0.text("username") }) == ["book_admin": 28, "Администратор": 4])
        let appAndModel: (CloudRecord) -> String? = { "\($0.text("app_label") ?? "").\($0.text("model") ?? "")" }
        #expect(
            result.tally(logEntry, "content_type", by: appAndModel)
                == ["books.book": 21, "books.category": 8, "auth.user": 2, "books.order": 1])
        let permissionsByContentType = result.tally(permission, "content_type", by: appAndModel)
        #expect(permissionsByContentType.count == 15)
        #expect(permissionsByContentType.values.allSatisfy { $0 == 4 })
        for field in ["buy_price", "rent_price_2w", "rent_price_1m", "rent_price_3m"] {
            #expect(result.type(field, of: book) == .double, "\(field)")
        }
        #expect(result.type("created_at", of: book) == .timestamp)
        #expect(result.type("created_at", of: order) == .timestamp)
        #expect(result.type("last_login", of: user) == .timestamp)
        #expect(result.type("is_available", of: book) == .int64)
        for field in ["is_superuser", "is_staff", "is_active"] {
            #expect(result.type(field, of: user) == .int64, "\(field)")
        }
        #expect(result.type("action_flag", of: logEntry) == .int64)
        #expect(result.type("object_id", of: logEntry) == .string)
    }

    @Test func bikeMarketplaceDjangoFixture() throws {
        let (site, seller, bike) = ("Site", "Seller", "Bike")
        let result = try importing("django/CalumJEadie_bike-marketplace-mvp_initial_data.json")
        #expect(result.total == 23)
        #expect(result.count(site) == 2)
        #expect(result.count(seller) == 10)
        #expect(result.count(bike) == 11)
        #expect(result.type("seller", of: bike) == .reference)
        #expect(result.every(bike, refersWith: "seller", to: seller))
        #expect(
            result.tally(bike, "seller", by: { $0.text("name") }) == [
                "Calum": 4, "Michael": 1, "Nik": 1, "Alice": 1, "Andy": 1, "Tom": 1, "Jack": 1, "Jordan": 1,
            ])
        for field in ["price", "mileage", "model_year"] { #expect(result.type(field, of: bike) == .int64, "\(field)") }
    }

    // MARK: - plist/

    @Test func thaiFoodFlashcardsWithoutTheirImages() throws {
        let (section, entry) = ("Data", "Entry")
        let result = try importing("plist/samlowry_Thai-Food-Flashcards_data.plist")
        #expect(result.total == 37)
        #expect(result.count(section) == 6)
        #expect(result.count(entry) == 31)
        #expect(result.type("data", of: entry) == .reference)
        #expect(result.every(entry, refersWith: "data", to: section))
        #expect(
            result.tally(entry, "data", by: { $0.text("title") }) == [
                "Rice and noodles": 5, "Soups": 5, "Salads": 6, "Main dishes": 10, "Drinks": 2, "Exceptions": 3,
            ])
        #expect(result.type("image", of: entry) == .string)
        #expect(result.type("buttons", of: entry) == .list(.string))
    }

    @Test func memorialPlaquesWithALocation() throws {
        let plaque = "Data"
        let result = try importing("plist/mec_MRPlaqueApp_data.plist")
        #expect(result.total == 32)
        #expect(result.count(plaque) == 32)
        #expect(result.type("location", of: plaque) == .location)
        #expect(result.records(plaque).allSatisfy { $0.fields["location"]?.fieldType == .location })
        #expect(result.fields(of: plaque).isDisjoint(with: ["Latitude", "Longitude"]))
        let fabianSociety = try #require(result.records(plaque).first { $0.text("Title") == "Fabian Society" })
        #expect(fabianSociety.fields["location"] == .location(Location(latitude: 51.525607, longitude: -0.143917)))
        let hendrix = try #require(result.records(plaque).first { $0.text("Title") == "Jimi Hendrix" })
        #expect(hendrix.fields["location"] == .location(Location(latitude: 51.512983, longitude: -0.145871)))
        #expect(result.type("Favorite", of: plaque) == .int64)
        #expect(result.type("Title", of: plaque) == .string)
        #expect(result.type("Subtitle", of: plaque) == .string)
        #expect(result.type("Wiki_String", of: plaque) == .string)
        #expect(result.type("Life_Time", of: plaque) == .string)
    }

    @Test func countriesWithTheirRadiosAsChildRecords() throws {
        let (country, radio) = ("Country", "Radio")
        let result = try importing("plist/elenamoga1982_Online-radio-Europe_Countries.plist")
        #expect(result.total == 262)
        #expect(result.count(country) == 44)
        #expect(result.count(radio) == 218)
        #expect(result.type("country", of: radio) == .reference)
        #expect(result.every(radio, refersWith: "country", to: country))
        let radiosByCountry = result.tally(radio, "country", by: { $0.text("name") })
        #expect(radiosByCountry.count == 44)
        #expect(radiosByCountry["Albania"] == 6)
    }

    @Test func foodCategories() throws {
        let food = "Food"
        let result = try importing("plist/saurabhdutta_SingtelDining_Food.plist")
        #expect(result.total == 24)
        #expect(result.count(food) == 24)
        let idType = result.type("ID", of: food)
        #expect(idType == .string || idType == .int64)
        #expect(result.type("Name", of: food) == .string)
    }

    // MARK: - jsonarray/

    // MARK: - otherjson/

    @Test func creditCardsOfOneTypeKeepingTheirBankAsTheirGroup() throws {
        let card = "CreditCard"
        let result = try importing("plist/saurabhdutta_SingtelDining_CreditCard.plist")
        #expect(result.total == 66)
        #expect(result.count(card) == 66)
        #expect(result.typeNames == [card])
        #expect(result.type("group", of: card) == .string)
        #expect(
            Dictionary(grouping: result.records(card), by: { $0.text("group") ?? "(none)" }).mapValues(\.count) == [
                "Citibank": 12, "DBS": 2, "HSBC": 4, "OCBC": 12, "POSB": 1, "Standard Chartered": 2, "UOB": 19,
                "AMEX": 14,
            ])
    }

    // MARK: - jsonarray/

    @Test func blogPostWithAnEnglishDate() throws {
        let post = "Seed"
        let result = try importing("jsonarray/LucasAho_blogServeAPI_seeds.json")
        #expect(result.total == 1)
        #expect(result.count(post) == 1)
        #expect(result.type("dateWritten", of: post) == .timestamp)
        #expect(result.records(post).first?.fields["dateWritten"] == .timestamp(Timestamp.parse("2021-05-05")!))
        #expect(result.type("paragraphs", of: post) == .list(.string))
        guard case .list(_, let paragraphs)? = result.records(post).first?.fields["paragraphs"] else {
            Issue.record("no paragraphs")
            return
        }
        #expect(paragraphs.count == 14)
    }

    // MARK: - otherjson/

    @Test func forumQuestionsAndAnswers() throws {
        let (question, answer) = ("Question", "Answer")
        let result = try importing("otherjson/Aaron3831_ember-tech-forum_seed.json")
        #expect(result.total == 5)
        #expect(result.count(question) == 3)
        #expect(result.count(answer) == 2)
        for type in [question, answer] {
            #expect(!result.fields(of: type).isEmpty, "\(type)")
            #expect(result.fields(of: type).allSatisfy { result.type($0, of: type) == .string }, "\(type)")
        }
    }

    @Test func firebaseExportNamedByItsKeys() throws {
        let card = "Card"
        let result = try importing("otherjson/KChellis_flashcard-angular_firebase-export.json")
        #expect(result.total == 4)
        #expect(result.typeNames == [card])
        #expect(result.names(card) == ["0", "1", "2", "-LC0PaUcLlSfubJjvyry"])
        #expect(result.fields(of: card) == ["definition", "section", "show", "term"])
        for field in ["definition", "section", "term"] { #expect(result.type(field, of: card) == .string, "\(field)") }
        #expect(result.type("show", of: card) == .int64)
    }

    // MARK: - jsonl/

    @Test func carRentalJSONLines() throws {
        let car = "Seed"
        let result = try importing("jsonl/Drew-space_car-rental_seed.jsonl")
        #expect(result.total == 20)
        #expect(result.count(car) == 20)
        #expect(result.type("rating", of: car) == .double)
        for field in ["price", "seats", "bags", "isPublished", "isFeatured"] {
            #expect(result.type(field, of: car) == .int64, "\(field)")
        }
        #expect(result.records(car).allSatisfy { $0.fields["isPublished"] == .int64(1) })
        #expect(result.records(car).filter { $0.fields["isFeatured"] == .int64(1) }.count == 7)
        #expect(result.records(car).filter { $0.fields["isFeatured"] == .int64(0) }.count == 13)
        #expect(result.type("slug", of: car) == .string)
    }

    // MARK: - mongo/

    // MARK: - csv/

    @Test func mongoExportSet() throws {
        let (product, cart, user) = ("Product", "Cart", "User")
        let result = try importing(
            "mongo/benitodev_Ecommerce-MERN_products.json", "mongo/benitodev_Ecommerce-MERN_carts.json",
            "mongo/benitodev_Ecommerce-MERN_users.json")
        #expect(result.total == 15)
        #expect(result.count(product) == 12)
        #expect(result.count(cart) == 1)
        #expect(result.count(user) == 1)

        let productNames = result.names(product)
        #expect(productNames.allSatisfy { $0.count == 24 && $0.allSatisfy(\.isHexDigit) })
        #expect(result.record(named: "6390e2ddb1507ec88d178deb")?.text("title") == "Shirt Off-white")
        #expect(result.fields(of: product).isDisjoint(with: ["id_oid", "_id_oid"]))
        #expect(result.type("price", of: product) == .int64)
        #expect(result.type("stock", of: product) == .int64)
        #expect(result.type("category", of: product) == .list(.string))
        #expect(result.type("size", of: product) == .list(.string))

        #expect(result.names(cart) == ["63c54428f5c110fc697828dd"])
        #expect(result.names(user) == ["63c54428f5c110fc697828db"])
        #expect(result.type("user", of: cart) == .reference)
        #expect(result.every(cart, refersWith: "user", to: user))

        let lineItems = result.records.filter { $0.fields["cart"] != nil }
        #expect(lineItems.count == 1)
        let lineItem = try #require(lineItems.first)
        #expect(![product, cart, user].contains(lineItem.recordType))
        #expect(result.typeNames == Set([product, cart, user, lineItem.recordType]))
        #expect(result.every(lineItem.recordType, refersWith: "cart", to: cart))
        #expect(result.type("quantity", of: lineItem.recordType) == .int64)
        #expect(lineItem.fields["quantity"] == .int64(2))

        let createdAt = RecordValue.timestamp(Timestamp.parse("2023-01-16T12:33:44.560Z")!)
        #expect(result.type("createdAt", of: user) == .timestamp)
        #expect(result.type("updatedAt", of: user) == .timestamp)
        #expect(result.records(user).first?.fields["createdAt"] == createdAt)
        #expect(result.records(user).first?.fields["updatedAt"] == createdAt)
        #expect(result.type("isAdmin", of: user) == .int64)
        #expect(result.records(user).first?.fields["isAdmin"] == .int64(1))
    }

    // MARK: - csv/

    @Test func ordersAndTheirItems() throws {
        let (order, orderItem) = ("Order", "Order_item")
        let result = try importing(
            "csv/Alex-Kopylov_sample_db_orders.csv", "csv/Alex-Kopylov_sample_db_order_items.csv")
        #expect(result.total == 1500)
        #expect(result.count(order) == 500)
        #expect(result.count(orderItem) == 1000)
        #expect(result.names(order).isDisjoint(with: result.names(orderItem)))
        #expect(result.type("order_id", of: orderItem) == .reference)
        #expect(result.every(orderItem, refersWith: "order_id", to: order))
        let itemsPerOrder = result.tally(orderItem, "order_id")
        #expect(itemsPerOrder.count == 500)
        #expect(itemsPerOrder.values.allSatisfy { $0 == 2 })
        #expect(result.type("created_at", of: order) == .timestamp)
        #expect(result.type("customer_id", of: order) == .int64)
        #expect(result.type("status", of: order) == .string)
        for field in ["product_id", "quantity", "unit_price_cents"] {
            #expect(result.type(field, of: orderItem) == .int64, "\(field)")
        }
    }

    @Test func bakeryProducts() throws {
        let product = "Product"
        let result = try importing("csv/LetiTran_betsy_products.csv")
        #expect(result.total == 10)
        #expect(result.count(product) == 10)
        #expect(result.type("price", of: product) == .double)
        #expect(result.type("quantity", of: product) == .int64)
        #expect(result.type("photo", of: product) == .string)
    }

    @Test func headerlessRestaurantTSV() throws {
        let restaurant = "Seed"
        let result = try importing("csv/farmcp_list_app_seed.tsv")
        #expect(result.total == 106)
        #expect(result.count(restaurant) == 106)
        #expect(result.records(restaurant).contains { $0.fields.values.contains(.string("Burma SuperStar")) })
        #expect(result.fields(of: restaurant) == Set((1...6).map { "column\($0)" }))
    }

    // MARK: - with-assets/

    @Test func thaiFoodFlashcardsWithTheirImages() throws {
        // One image is named "Phat Thai.jpg" where the file is "Phat thai.jpg": an error naming it.
        let errors = errorMessages {
            _ = try importing("data.plist", withTheFilesOf: "with-assets/samlowry_Thai-Food-Flashcards")
        }
        #expect(errors.count == 1)
        #expect(
            errors.first?.hasSuffix(
                "; closest: 'Phat thai.jpg'); fix the path, or pass MappingOptions.allowDangling to leave it out")
                == true)
        #expect(errors.first?.contains("the asset file 'Phat Thai.jpg' does not exist") == true)

        let (section, entry) = ("Data", "Entry")
        var options = MappingOptions()
        options.allowDangling = true
        let result = try importing(
            "data.plist", withTheFilesOf: "with-assets/samlowry_Thai-Food-Flashcards", options: options)
        #expect(result.total == 37)
        #expect(result.count(section) == 6)
        #expect(result.count(entry) == 31)
        #expect(result.every(entry, refersWith: "data", to: section))
        #expect(result.type("image", of: entry) == .asset)
        #expect(result.records(entry).filter { $0.fields["image"]?.fieldType == .asset }.count == 30)
        #expect(result.type("buttons", of: entry) == .list(.asset))
        #expect(result.records(entry).filter { $0.fields["buttons"]?.fieldType == .list(.asset) }.count == 28)
        let phatThai = try #require(result.records(entry).first { $0.text("englishPhrase") == "Phat Thai" })
        #expect(phatThai.fields["image"] == nil)
    }

    // MARK: - Coverage

    /// The files of `real/` that the tests above import; those outside `real/` are `SharedExamplesTests`'.
    static let covered: Set<String> = [
        "jsonserver/01-DC_confusion-coursera-reactjs_db.json", "jsonserver/00019132_book-review-app_db.json",
        "jsonserver/005guy_burger-api_db.json",
        "django/AlexeiSnow_bookstore_initial_data.json", "django/CalumJEadie_bike-marketplace-mvp_initial_data.json",
        "plist/samlowry_Thai-Food-Flashcards_data.plist", "plist/mec_MRPlaqueApp_data.plist",
        "plist/elenamoga1982_Online-radio-Europe_Countries.plist", "plist/saurabhdutta_SingtelDining_Food.plist",
        "plist/saurabhdutta_SingtelDining_CreditCard.plist",
        "jsonarray/LucasAho_blogServeAPI_seeds.json",
        "otherjson/Aaron3831_ember-tech-forum_seed.json", "otherjson/KChellis_flashcard-angular_firebase-export.json",
        "jsonl/Drew-space_car-rental_seed.jsonl",
        "mongo/benitodev_Ecommerce-MERN_products.json", "mongo/benitodev_Ecommerce-MERN_carts.json",
        "mongo/benitodev_Ecommerce-MERN_users.json",
        "csv/Alex-Kopylov_sample_db_orders.csv", "csv/Alex-Kopylov_sample_db_order_items.csv",
        "csv/LetiTran_betsy_products.csv", "csv/farmcp_list_app_seed.tsv",
        "with-assets/samlowry_Thai-Food-Flashcards",
    ]

    @Test func everyFileOfRealHasATestHere() throws {
        let root = SharedExamples.path("real")
        var found: Set<String> = []
        for kind in try FileManager.default.contentsOfDirectory(atPath: root) {
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: "\(root)/\(kind)", isDirectory: &isFolder), isFolder.boolValue
            else { continue }
            for entry in try FileManager.default.contentsOfDirectory(atPath: "\(root)/\(kind)")
            where !entry.hasPrefix(".") {
                found.insert("\(kind)/\(entry)")
            }
        }
        #expect(found == Self.covered)
        let files = Self.covered.filter { !$0.hasPrefix("with-assets/") }
        #expect(files.allSatisfy { Self.originalNames[URL(fileURLWithPath: $0).lastPathComponent] != nil })
    }
}

extension CloudRecord {
    fileprivate func text(_ field: String) -> String? {
        guard case .string(let text)? = fields[field] else { return nil }
        return text
    }
}
