import Testing

@testable import CloudSeed
@testable import CloudSeedCore
@testable import CloudSeedReaders
@testable import CloudSeedSchema
@testable import CloudSeedStore

@Suite struct CKSLPrinterTests {
    @Test func printsAnEmptySchema() {
        #expect(CKSLPrinter.print(SchemaDefinition()) == "DEFINE SCHEMA\n")
    }

    @Test func printsEveryConstructInCktoolLayout() {
        let schema = SchemaDefinition(
            roles: ["test role", "moderator", "Grant"],
            recordTypes: [
                RecordTypeDefinition(
                    name: "searchable",
                    fields: [FieldDefinition(name: "queryable", type: .string)]),
                RecordTypeDefinition(
                    name: "Artwork",
                    fields: [
                        FieldDefinition(name: "title", type: .string, options: [.sortable, .searchable, .queryable]),
                        FieldDefinition(name: "price", type: .number(preferred: .int64), options: [.sortable]),
                        FieldDefinition(name: "weight", type: .number(preferred: nil)),
                        FieldDefinition(name: "notes", type: .string, isEncrypted: true),
                        FieldDefinition(name: "tags", type: .list(.string), options: [.searchable]),
                        FieldDefinition(name: "CD_entityName", type: .string, options: [.queryable]),
                        FieldDefinition(name: "___recordID", type: .reference, options: [.queryable]),
                        FieldDefinition(name: "where", type: .location, options: [.queryable, .sortable]),
                    ],
                    grants: [
                        Grant([.write, .create], to: "moderator"),
                        Grant([.read], to: .world),
                        Grant([.write, .read, .create], to: .icloud),
                        Grant([.read], to: "test role"),
                        Grant([.write], to: .creator),
                        Grant([.read], to: "Grant"),
                    ]),
            ])
        #expect(
            CKSLPrinter.print(schema) == """
                DEFINE SCHEMA

                    CREATE ROLE "Grant";

                    CREATE ROLE moderator;

                    CREATE ROLE "test role";

                    RECORD TYPE Artwork (
                        CD_entityName   STRING QUERYABLE,
                        "___createTime" TIMESTAMP,
                        "___createdBy"  REFERENCE,
                        "___etag"       STRING,
                        "___modTime"    TIMESTAMP,
                        "___modifiedBy" REFERENCE,
                        "___recordID"   REFERENCE QUERYABLE,
                        notes           ENCRYPTED STRING,
                        price           NUMBER PREFERRED AS INT64 SORTABLE,
                        tags            LIST<STRING> SEARCHABLE,
                        title           STRING QUERYABLE SEARCHABLE SORTABLE,
                        weight          NUMBER,
                        where           LOCATION QUERYABLE SORTABLE,
                        GRANT WRITE TO "_creator",
                        GRANT READ, CREATE, WRITE TO "_icloud",
                        GRANT READ TO "_world",
                        GRANT READ TO "Grant",
                        GRANT CREATE, WRITE TO moderator,
                        GRANT READ TO "test role"
                    );

                    RECORD TYPE "searchable" (
                        "___createTime" TIMESTAMP,
                        "___createdBy"  REFERENCE,
                        "___etag"       STRING,
                        "___modTime"    TIMESTAMP,
                        "___modifiedBy" REFERENCE,
                        "___recordID"   REFERENCE,
                        "queryable"     STRING
                    );


                """)
    }

    @Test func padsTheNameColumnToTheLongestQuotedOrBareName() {
        let schema = SchemaDefinition(recordTypes: [
            RecordTypeDefinition(name: "T", fields: [FieldDefinition(name: "aVeryLongFieldNameIndeed", type: .bytes)])
        ])
        #expect(
            CKSLPrinter.print(schema) == """
                DEFINE SCHEMA

                    RECORD TYPE T (
                        "___createTime"          TIMESTAMP,
                        "___createdBy"           REFERENCE,
                        "___etag"                STRING,
                        "___modTime"             TIMESTAMP,
                        "___modifiedBy"          REFERENCE,
                        "___recordID"            REFERENCE,
                        aVeryLongFieldNameIndeed BYTES
                    );

                """)
    }

    @Test func printsAStoreSchemaAsCktoolExportsJustInTimeTypes() throws {
        let schema = Schema(recordTypes: [
            "ToDoItem": RecordTypeSchema(
                name: "ToDoItem", fields: ["title": .string, "dueDate": .timestamp, "isCompleted": .int64]),
            "Artist": RecordTypeSchema(name: "Artist", fields: ["CD_name": .string, "tags": .list(.string)]),
        ])
        #expect(
            CKSLPrinter.print(try SchemaDefinition(schema)) == """
                DEFINE SCHEMA

                    RECORD TYPE Artist (
                        CD_name         STRING,
                        "___createTime" TIMESTAMP,
                        "___createdBy"  REFERENCE,
                        "___etag"       STRING,
                        "___modTime"    TIMESTAMP,
                        "___modifiedBy" REFERENCE,
                        "___recordID"   REFERENCE,
                        tags            LIST<STRING>,
                        GRANT WRITE TO "_creator",
                        GRANT CREATE TO "_icloud",
                        GRANT READ TO "_world"
                    );

                    RECORD TYPE ToDoItem (
                        "___createTime" TIMESTAMP,
                        "___createdBy"  REFERENCE,
                        "___etag"       STRING,
                        "___modTime"    TIMESTAMP,
                        "___modifiedBy" REFERENCE,
                        "___recordID"   REFERENCE,
                        dueDate         TIMESTAMP,
                        isCompleted     INT64,
                        title           STRING,
                        GRANT WRITE TO "_creator",
                        GRANT CREATE TO "_icloud",
                        GRANT READ TO "_world"
                    );

                """)
    }
}
