import Testing

@testable import CloudSeed
@testable import CloudSeedCore
@testable import CloudSeedReaders
@testable import CloudSeedSchema
@testable import CloudSeedStore

@Suite struct FieldTypeTests {
    @Test func namesEveryTypeInSchemaAndWireForm() {
        #expect(
            FieldType.primitives.map(\.schemaName) == [
                "STRING", "INT64", "DOUBLE", "BYTES", "TIMESTAMP", "LOCATION", "REFERENCE", "ASSET",
            ])
        #expect(FieldType.asset.wireName == "ASSETID")
        #expect(FieldType.list(.int64).schemaName == "LIST<INT64>")
        #expect(FieldType.list(.asset).wireName == "ASSETID_LIST")
    }

    @Test func readsBothForms() {
        for type in FieldType.primitives + FieldType.primitives.map(FieldType.list) {
            #expect(FieldType(name: type.schemaName) == type)
            #expect(FieldType(name: type.wireName) == type)
        }
        #expect(FieldType(name: "list<string>") == .list(.string))
        #expect(FieldType(name: "LIST<LIST<STRING>>") == nil)
        #expect(FieldType(name: "LIST") == nil)
        #expect(FieldType(name: "NUMBER") == nil)
    }
}
