import CloudSeedTestSupport
import Foundation
import Testing

@testable import CloudSeed
@testable import CloudSeedCore
@testable import CloudSeedReaders
@testable import CloudSeedSchema
@testable import CloudSeedStore

@Suite struct SchemaOperationsTests {
    let folder: TemporaryFolder
    let store: SQLiteContainerStore
    let operations: SchemaOperations

    static let gallery = """
        DEFINE SCHEMA

            RECORD TYPE Artwork (
                "___createTime" TIMESTAMP,
                "___createdBy"  REFERENCE,
                "___etag"       STRING,
                "___modTime"    TIMESTAMP,
                "___modifiedBy" REFERENCE,
                "___recordID"   REFERENCE QUERYABLE,
                catalogNumber   STRING QUERYABLE,
                price           DOUBLE QUERYABLE SORTABLE,
                title           STRING QUERYABLE SEARCHABLE SORTABLE,
                GRANT WRITE TO "_creator",
                GRANT CREATE TO "_icloud",
                GRANT READ TO "_world"
            );

        """

    init() throws {
        folder = try TemporaryFolder()
        store = try SQLiteContainerStore(path: folder.path("store.sqlite"))
        operations = SchemaOperations(store: ContainerStore(backend: store), container: StoreScope.defaultContainer)
    }

    func importSchema(_ text: String) throws -> SchemaDiff {
        try operations.importIntoDevelopment(try CKSLParser.parse(text, file: "schema.ckdb"))
    }

    @Test func importedSchemasExportBackByteForByte() throws {
        _ = try importSchema(Self.gallery)
        #expect(CKSLPrinter.print(try store.schemaDefinition(of: StoreScope().schemaScope)) == Self.gallery)
    }

    @Test func theSchemaTypesCSVColumns() throws {
        _ = try importSchema(Self.gallery)
        let csv = try folder.write("artworks.csv", "catalogNumber,title,price\n115,MacKerricher,1250\n")
        _ = try Importer(store: ContainerStore(backend: store), scope: StoreScope(), now: 0).run([SourceFile(path: csv)]
        )
        var records: [CloudRecord] = []
        try store.forEachRecord(in: StoreScope(), recordType: "Artwork") { records.append($0) }
        #expect(
            records.first?.fields == [
                "catalogNumber": .string("115"), "title": .string("MacKerricher"), "price": .double(1250),
            ])
        let bad = try folder.write("more/artworks.csv", "catalogNumber,title,price\n116,Dear,cheap\n")
        #expect(
            errorMessages {
                _ = try Importer(store: ContainerStore(backend: store), scope: StoreScope(), now: 0).run([
                    SourceFile(path: bad)
                ])
            }
                == [
                    "\(bad):2:10: invalid attempt to set value type STRING for field 'price' for type 'Artwork', defined to be: DOUBLE; the store's schema defines 'price' as DOUBLE: fix the value"
                ])
    }

    @Test func promotionIsAdditiveOnly() throws {
        _ = try importSchema(Self.gallery)
        let first = try operations.promote()
        #expect(first.description == "+ record type Artwork")
        _ = try importSchema(
            Self.gallery.replacingOccurrences(
                of: "        title ", with: "        year            INT64,\n        title "))
        #expect(try operations.promote().description == "+ field Artwork.year INT64")
        let production = StoreScope(environment: .production)
        try store.write {
            try $0.applySchema(
                try CKSLParser.parse(
                    Self.gallery.replacingOccurrences(of: "price           DOUBLE QUERYABLE SORTABLE,\n", with: "")),
                to: StoreScope().schemaScope)
        }
        let before = try store.schemaDefinition(of: production.schemaScope)
        #expect(
            errorMessages { _ = try operations.promote() } == [
                "production cannot take this change: - field Artwork.price DOUBLE QUERYABLE SORTABLE; production schemas are additive only, so restore it in development",
                "production cannot take this change: - field Artwork.year INT64; production schemas are additive only, so restore it in development",
            ])
        #expect(try store.schemaDefinition(of: production.schemaScope) == before)
        let csv = try folder.write("artworks.csv", "title,price,rating\nNew,5.5,3\n")
        #expect(
            errorMessages {
                _ = try Importer(store: ContainerStore(backend: store), scope: production, now: 0).run([
                    SourceFile(path: csv)
                ])
            }
                == [
                    "\(csv):2:9: Cannot create or modify field 'rating' in record 'Artwork' in production schema; import into the development environment, where fields are created just in time"
                ])
    }

    @Test func developmentImportsCannotDropWhatProductionHas() throws {
        _ = try importSchema(Self.gallery)
        _ = try operations.promote()
        #expect(
            errorMessages {
                _ = try importSchema(
                    Self.gallery.replacingOccurrences(
                        of: "        price           DOUBLE QUERYABLE SORTABLE,\n", with: ""))
            } == [
                "the schema would lose what production has: - field Artwork.price DOUBLE QUERYABLE SORTABLE; keep it in the file (production schemas are additive only)"
            ])
    }

    @Test func diffsSayWhetherProductionCouldTakeThem() throws {
        let old = try CKSLParser.parse(Self.gallery)
        let new = try CKSLParser.parse(
            Self.gallery.replacingOccurrences(of: "price           DOUBLE", with: "price           INT64 "))
        let diff = SchemaDiff(from: old, to: new)
        #expect(diff.description == "~ field Artwork.price: DOUBLE → INT64")
        #expect(!diff.isAdditive)
    }
}
