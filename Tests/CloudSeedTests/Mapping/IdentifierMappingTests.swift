import Testing

@testable import CloudSeed
@testable import CloudSeedCore
@testable import CloudSeedReaders
@testable import CloudSeedSchema
@testable import CloudSeedStore

@Suite struct IdentifierMappingTests {
    @Test(arguments: [
        ("Date Added", "Date_Added"), ("eol-lts", "eol_lts"), ("Libellé", "Libelle"),
        ("wagtailcore.page", "wagtailcore_page"), ("title", "title"), ("2020 total", "field_2020_total"),
        ("  spaced  out ", "spaced_out"), ("_private", "private"), ("漢字", "han_zi"),
    ])
    func mapsKeysToCloudKitIdentifiers(key: String, identifier: String) {
        #expect(IdentifierMapping.identifier(for: key) == identifier)
        #expect(IdentifierMapping.isValid(identifier))
    }

    @Test(arguments: [
        ("artworks", "Artwork"), ("ToDoItems", "ToDoItem"), ("categories", "Category"), ("boxes", "Box"),
        ("addresses", "Address"), ("Person", "Person"), ("status", "Status"), ("zip-codes", "Zip_code"),
    ])
    func namesRecordTypesAfterFiles(stem: String, recordType: String) {
        #expect(IdentifierMapping.recordType(forFileStem: stem) == recordType)
    }

    @Test(arguments: ["", "1abc", "_x", "has space", "Artwork\"; DROP TABLE x; --", String(repeating: "a", count: 256)])
    func refusesInvalidIdentifiers(name: String) {
        #expect(!IdentifierMapping.isValid(name))
    }
}
