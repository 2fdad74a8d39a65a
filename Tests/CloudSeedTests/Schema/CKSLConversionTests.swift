import Testing

@testable import CloudSeed
@testable import CloudSeedCore
@testable import CloudSeedReaders
@testable import CloudSeedSchema
@testable import CloudSeedStore

@Suite struct CKSLConversionTests {
    @Test func givesTheStoreUserFieldsWithPlainTypes() throws {
        let definition = try CKSLParser.parse(
            """
            DEFINE SCHEMA
                RECORD TYPE Reading (
                    "___recordID" REFERENCE QUERYABLE,
                    count NUMBER, ratio NUMBER PREFERRED AS DOUBLE, total NUMBER PREFERRED AS INT64,
                    note ENCRYPTED STRING, place ENCRYPTED LOCATION, tags LIST<STRING> SEARCHABLE, photo ASSET
                );
            """)
        #expect(
            Schema(definition)
                == Schema(recordTypes: [
                    "Reading": RecordTypeSchema(
                        name: "Reading",
                        fields: [
                            "count": .int64, "ratio": .double, "total": .int64, "note": .string, "place": .location,
                            "tags": .list(.string), "photo": .asset,
                        ])
                ]))
    }

    @Test func makesADefinitionWithTheDefaultGrantsFromAStoreSchema() throws {
        let schema = Schema(recordTypes: [
            "Artist": RecordTypeSchema(
                name: "Artist", fields: ["name": .string, "___etag": .string, "works": .list(.reference)])
        ])
        #expect(
            try SchemaDefinition(schema)
                == SchemaDefinition(recordTypes: [
                    RecordTypeDefinition(
                        name: "Artist",
                        fields: [
                            FieldDefinition(name: "name", type: .string),
                            FieldDefinition(name: "works", type: .list(.reference)),
                        ],
                        grants: Grant.publicDatabaseDefaults)
                ]))
    }

    @Test(arguments: [
        (
            "tags", FieldType.list(.list(.string)),
            "Artist.tags has type LIST<LIST<STRING>>, which CKSL cannot write; lists do not nest"
        ),
        ("___etag", FieldType.int64, "Artist.___etag has type INT64, but the system field ___etag is STRING"),
    ])
    func refusesWhatCKSLCannotWrite(field: String, type: FieldType, message: String) {
        let schema = Schema(recordTypes: ["Artist": RecordTypeSchema(name: "Artist", fields: [field: type])])
        #expect(throws: CloudSeedError(.invalidSchema, message)) { try SchemaDefinition(schema) }
    }
}
