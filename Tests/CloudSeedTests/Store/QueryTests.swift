import CloudSeedTestSupport
import Foundation
import Testing

@testable import CloudSeed
@testable import CloudSeedCore
@testable import CloudSeedReaders
@testable import CloudSeedSchema
@testable import CloudSeedStore

/// Runs on every backend (``BackendKind/testable``): queries, indexes and search behave alike.
@Suite struct QueryTests {
    /// The gallery's artists and artworks in a new store of `backend`.
    struct Gallery {
        let testStore: TestStore
        let store: any StoreBackend
        var folder: TemporaryFolder { testStore.folder }

        init(_ backend: BackendKind) throws {
            testStore = try TestStore(backend)
            store = try testStore.open()
            _ = try Importer(store: ContainerStore(backend: store), scope: StoreScope(), now: 0).run([
                SourceFile(path: Repository.sample("Gallery/artists.csv")),
                SourceFile(path: Repository.sample("Gallery/artworks.plist")),
            ])
        }

        func indexed(_ options: [String: String]) throws {
            var definition = try store.schemaDefinition(of: StoreScope().schemaScope)
            var artwork = try #require(definition.recordType(named: "Artwork"))
            artwork.fields = artwork.fields.map { field in
                var field = field
                if let text = options[field.name] {
                    field.options = Set(
                        text.split(separator: " ").compactMap {
                            FieldDefinition.Option(rawValue: String($0).uppercased())
                        })
                }
                return field
            }
            definition.recordTypes.append(artwork)
            try store.write { try $0.applySchema(definition, to: StoreScope().schemaScope) }
        }

        func titles(_ query: RecordQuery) throws -> [String] {
            try store.query(query, in: StoreScope()).compactMap {
                if case .string(let title)? = $0.fields["title"] { title } else { nil }
            }
        }
    }

    @Test(arguments: BackendKind.testable) func refusesFieldsWithoutTheirIndex(_ backend: BackendKind) throws {
        let gallery = try Gallery(backend)
        let query = RecordQuery(
            recordType: "Artwork", filters: [try QueryFilter(parsing: "price > 100")], sort: [QuerySort("title")])
        #expect(
            throws: CloudSeedError(
                .unsupportedQuery,
                "Field 'price' is not marked sortable; add SORTABLE to Artwork.price in the schema and run a schema import"
            )
        ) {
            try gallery.store.query(query, in: StoreScope())
        }
        try gallery.indexed(["price": "SORTABLE", "title": "SORTABLE"])
        #expect(
            try gallery.titles(query) == [
                "MacKerricher State Park", "Night Harbor", "Rainy Day in Mendocino", "Über den Dächern",
            ])
    }

    @Test(arguments: BackendKind.testable) func filtersSortsAndLimits(_ backend: BackendKind) throws {
        let gallery = try Gallery(backend)
        try gallery.indexed([
            "price": "QUERYABLE SORTABLE", "title": "QUERYABLE SORTABLE", "tags": "QUERYABLE", "location": "QUERYABLE",
            "catalogNumber": "QUERYABLE",
        ])
        #expect(
            try gallery.titles(
                RecordQuery(
                    recordType: "Artwork", filters: [try QueryFilter(parsing: "price >= 980.75")],
                    sort: [QuerySort("price", ascending: false)])) == [
                    "Über den Dächern", "MacKerricher State Park", "Rainy Day in Mendocino",
                ])
        #expect(
            try gallery.titles(
                RecordQuery(recordType: "Artwork", filters: [try QueryFilter(parsing: "title BEGINSWITH Night")])) == [
                    "Night Harbor"
                ])
        #expect(
            try gallery.titles(
                RecordQuery(
                    recordType: "Artwork", filters: [try QueryFilter(parsing: "catalogNumber IN 115,308")],
                    sort: [QuerySort("title")])) == [
                    "MacKerricher State Park", "Night Harbor",
                ])
        #expect(
            try gallery.titles(
                RecordQuery(recordType: "Artwork", filters: [try QueryFilter(parsing: "tags CONTAINS watercolor")]))
                == ["Rainy Day in Mendocino"])
        #expect(
            try gallery.titles(
                RecordQuery(
                    recordType: "Artwork", filters: [try QueryFilter(parsing: "location NEAR 39.3,-123.8,2000")],
                    sort: [QuerySort("title")])) == [
                    "MacKerricher State Park", "Rainy Day in Mendocino",
                ])
        #expect(
            try gallery.titles(
                RecordQuery(
                    recordType: "Artwork", filters: [try QueryFilter(parsing: "price != 615.5")],
                    sort: [QuerySort("title")],
                    limit: 1)) == ["MacKerricher State Park"])
    }

    @Test(arguments: BackendKind.testable) func sortsByEachFieldInTurn(_ backend: BackendKind) throws {
        let gallery = try Gallery(backend)
        try gallery.indexed(["artist": "SORTABLE", "price": "QUERYABLE SORTABLE"])
        func titles(_ sort: [QuerySort]) throws -> [String] {
            try gallery.titles(
                RecordQuery(recordType: "Artwork", filters: [try QueryFilter(parsing: "price > 0")], sort: sort))
        }
        // Mei Chen's two artworks tie on the artist; the price orders them.
        #expect(
            try titles([QuerySort("artist"), QuerySort("price")]) == [
                "Rainy Day in Mendocino", "MacKerricher State Park", "Night Harbor", "Über den Dächern",
            ])
        #expect(
            try titles([QuerySort("artist", ascending: false), QuerySort("price", ascending: false)]) == [
                "Über den Dächern", "Night Harbor", "MacKerricher State Park", "Rainy Day in Mendocino",
            ])
        #expect(
            throws: CloudSeedError(
                .unsupportedQuery,
                "Field 'catalogNumber' is not marked sortable; add SORTABLE to Artwork.catalogNumber in the schema and run a schema import"
            )
        ) { try titles([QuerySort("artist"), QuerySort("catalogNumber")]) }
    }

    @Test(arguments: BackendKind.testable) func sortsByTheDistanceFromAPlace(_ backend: BackendKind) throws {
        let gallery = try Gallery(backend)
        try gallery.indexed(["location": "QUERYABLE SORTABLE", "price": "QUERYABLE SORTABLE"])
        let mendocino = Location(latitude: 39.3071, longitude: -123.7991)
        func titles(_ sort: [QuerySort], limit: Int? = nil) throws -> [String] {
            try gallery.titles(
                RecordQuery(
                    recordType: "Artwork", filters: [try QueryFilter(parsing: "price > 0")], sort: sort, limit: limit))
        }
        // Mendocino, then 480 m up the coast, then Munich (9,342 km), then Valparaíso (9,673 km).
        #expect(
            try titles([QuerySort("location", relativeTo: mendocino)]) == [
                "Rainy Day in Mendocino", "MacKerricher State Park", "Über den Dächern", "Night Harbor",
            ])
        #expect(
            try titles([QuerySort("location", ascending: false, relativeTo: mendocino), QuerySort("price")], limit: 2)
                == ["Night Harbor", "Über den Dächern"])
        #expect(
            throws: CloudSeedError(
                .unsupportedQuery, "sort by the distance from 'location' first, before the other fields")
        ) { try titles([QuerySort("price"), QuerySort("location", relativeTo: mendocino)]) }
        #expect(
            throws: CloudSeedError(.unsupportedQuery, "a sort by distance takes a LOCATION field; 'price' is not one")
        ) { try titles([QuerySort("price", relativeTo: mendocino)]) }
    }

    @Test(arguments: BackendKind.testable) func filtersListsAndNegates(_ backend: BackendKind) throws {
        let gallery = try Gallery(backend)
        try gallery.indexed(["title": "QUERYABLE SORTABLE", "tags": "QUERYABLE", "catalogNumber": "QUERYABLE"])
        func titles(_ filter: String) throws -> [String] {
            try gallery.titles(
                RecordQuery(
                    recordType: "Artwork", filters: [try QueryFilter(parsing: filter)], sort: [QuerySort("title")])
            )
        }
        #expect(try titles("tags CONTAINSANY oil,night") == ["MacKerricher State Park", "Night Harbor"])
        #expect(try titles("tags CONTAINSALL rain,town") == ["Rainy Day in Mendocino"])
        #expect(try titles("tags CONTAINSALL rain,oil").isEmpty)
        #expect(try titles("tags MEMBERBEGINSWITH roof") == ["Über den Dächern"])
        #expect(
            try titles("tags NOT CONTAINS oil") == ["Night Harbor", "Rainy Day in Mendocino", "Über den Dächern"])
        #expect(try titles("tags NOT CONTAINSANY oil,night,rain") == ["Über den Dächern"])
        #expect(try titles("catalogNumber NOT IN 115,308") == ["Rainy Day in Mendocino", "Über den Dächern"])
        #expect(
            try titles("title NOT BEGINSWITH Night") == [
                "MacKerricher State Park", "Rainy Day in Mendocino", "Über den Dächern",
            ])
        #expect(throws: CloudSeedError.self) { try titles("title CONTAINS Night") }
    }

    @Test(arguments: BackendKind.testable) func searchesForAnyWord(_ backend: BackendKind) throws {
        let gallery = try Gallery(backend)
        try gallery.indexed(["title": "SEARCHABLE SORTABLE"])
        var query = RecordQuery(recordType: "Artwork", sort: [QuerySort("title")], search: "harbor rainy")
        #expect(try gallery.titles(query).isEmpty)
        query.searchesAnyWord = true
        #expect(try gallery.titles(query) == ["Night Harbor", "Rainy Day in Mendocino"])
    }

    @Test(arguments: BackendKind.testable) func searchesSearchableText(_ backend: BackendKind) throws {
        let gallery = try Gallery(backend)
        let query = RecordQuery(recordType: "Artwork", search: "harbor")
        #expect(
            throws: CloudSeedError(
                .unsupportedQuery,
                "Type Artwork has no SEARCHABLE field; add SEARCHABLE to a STRING field in the schema and run a schema import"
            )
        ) {
            try gallery.store.query(query, in: StoreScope())
        }
        try gallery.indexed(["title": "SEARCHABLE"])
        #expect(try gallery.titles(query) == ["Night Harbor"])
        let change = try gallery.folder.write("Artwork.csv", "recordName,title\nNight Harbor,Night Port\n")
        _ = try Importer(store: ContainerStore(backend: gallery.store), scope: StoreScope(), now: 0).run([
            SourceFile(path: change)
        ])
        #expect(try gallery.titles(query).isEmpty)
        #expect(try gallery.titles(RecordQuery(recordType: "Artwork", search: "port")) == ["Night Port"])
    }

    @Test(arguments: BackendKind.testable) func valuesMustFitTheFieldType(_ backend: BackendKind) throws {
        let gallery = try Gallery(backend)
        try gallery.indexed(["price": "SORTABLE"])
        #expect(
            throws: CloudSeedError(
                .invalidOption,
                "Field 'price' has a value type of DOUBLE and cannot be queried using filter value type STRING; give a DOUBLE value"
            )
        ) {
            try gallery.store.query(
                RecordQuery(recordType: "Artwork", filters: [try QueryFilter(parsing: "price > cheap")]),
                in: StoreScope())
        }
    }
}
