import Testing

@testable import CloudSeed
@testable import CloudSeedCore
@testable import CloudSeedReaders
@testable import CloudSeedSchema
@testable import CloudSeedStore

@Suite struct CKSLDiffTests {
    static func schema(_ text: String) throws -> SchemaDefinition {
        try CKSLParser.parse("DEFINE SCHEMA\n" + text)
    }

    @Test func listsEveryKindOfChangeOnePerLineInSchemaOrder() throws {
        let old = try Self.schema(
            """
            CREATE ROLE editor;
            RECORD TYPE Artwork (
                oldName STRING,
                price INT64,
                secret STRING,
                title STRING SORTABLE,
                weight NUMBER,
                GRANT WRITE TO "_creator", GRANT READ, CREATE TO "_icloud", GRANT READ TO editor
            );
            RECORD TYPE Gallery (name STRING);
            """)
        let new = try Self.schema(
            """
            CREATE ROLE moderator;
            RECORD TYPE Artist (name STRING);
            RECORD TYPE Artwork (
                "___recordID" REFERENCE QUERYABLE,
                price DOUBLE QUERYABLE,
                secret ENCRYPTED STRING,
                title STRING QUERYABLE,
                weight NUMBER PREFERRED AS DOUBLE,
                year INT64 SORTABLE,
                GRANT WRITE TO "_creator", GRANT CREATE, WRITE TO "_icloud", GRANT READ TO moderator
            );
            """)
        let diff = SchemaDiff(from: old, to: new)
        #expect(
            diff.description == """
                - role editor
                + role moderator
                + record type Artist
                + index Artwork.___recordID QUERYABLE
                - field Artwork.oldName STRING
                ~ field Artwork.price: INT64 → DOUBLE
                + index Artwork.price QUERYABLE
                + encryption Artwork.secret
                - index Artwork.title SORTABLE
                + index Artwork.title QUERYABLE
                ~ field Artwork.weight: NUMBER → NUMBER PREFERRED AS DOUBLE
                + field Artwork.year INT64 SORTABLE
                + grant Artwork WRITE TO "_icloud"
                - grant Artwork READ TO "_icloud"
                - grant Artwork READ TO editor
                + grant Artwork READ TO moderator
                - record type Gallery
                """)
        #expect(
            diff.changes.filter { !$0.isAdditive }.map(\.description) == [
                "- field Artwork.oldName STRING",
                "~ field Artwork.price: INT64 → DOUBLE",
                "+ encryption Artwork.secret",
                "- record type Gallery",
            ])
        #expect(!diff.isAdditive)
    }

    @Test(arguments: [
        (SchemaChange.roleAdded("moderator"), true),
        (.roleRemoved("moderator"), true),
        (.recordTypeAdded(RecordTypeDefinition(name: "Artist")), true),
        (.recordTypeRemoved(RecordTypeDefinition(name: "Artist")), false),
        (.fieldAdded(recordType: "Artist", field: FieldDefinition(name: "name", type: .string)), true),
        (.fieldRemoved(recordType: "Artist", field: FieldDefinition(name: "name", type: .string)), false),
        (.fieldTypeChanged(recordType: "Artist", field: "age", from: .int64, to: .double), false),
        (
            .fieldTypeChanged(
                recordType: "Artist", field: "age", from: .number(preferred: nil), to: .number(preferred: .int64)), true
        ),
        (
            .fieldTypeChanged(
                recordType: "Artist", field: "age", from: .number(preferred: .int64), to: .number(preferred: .double)),
            false
        ),
        (
            .fieldTypeChanged(
                recordType: "Artist", field: "age", from: .number(preferred: .int64), to: .number(preferred: nil)),
            false
        ),
        (.fieldTypeChanged(recordType: "Artist", field: "age", from: .number(preferred: nil), to: .int64), false),
        (.encryptionChanged(recordType: "Artist", field: "name", isEncrypted: true), false),
        (.encryptionChanged(recordType: "Artist", field: "name", isEncrypted: false), false),
        (.indexAdded(recordType: "Artist", field: "name", option: .queryable), true),
        (.indexRemoved(recordType: "Artist", field: "name", option: .queryable), true),
        (.grantAdded(recordType: "Artist", role: .world, permissions: [.read]), true),
        (.grantRemoved(recordType: "Artist", role: .world, permissions: [.read]), true),
    ])
    func knowsWhichChangesProductionAccepts(change: SchemaChange, isAdditive: Bool) {
        #expect(change.isAdditive == isAdditive)
    }

    @Test func anAdditiveDiffOnlyAddsOrDropsIndexes() throws {
        let old = try Self.schema(#"RECORD TYPE Artwork (title STRING QUERYABLE, GRANT READ TO "_world");"#)
        let new = try Self.schema(
            #"RECORD TYPE Artwork (title STRING SEARCHABLE, price DOUBLE, GRANT READ, WRITE TO "_world");"#)
        let diff = SchemaDiff(from: old, to: new)
        #expect(
            diff.description == """
                + field Artwork.price DOUBLE
                - index Artwork.title QUERYABLE
                + index Artwork.title SEARCHABLE
                + grant Artwork WRITE TO "_world"
                """)
        #expect(diff.isAdditive)
    }

    @Test func sameSchemaWrittenDifferentlyHasNoChanges() throws {
        let old = try Self.schema(
            #"RECORD TYPE A (b STRING, a INT64 SORTABLE QUERYABLE, GRANT READ TO "_world", GRANT WRITE TO "_world");"#)
        let new = try Self.schema(
            #"record type A (a int64 queryable sortable, "___etag" STRING, b string, GRANT WRITE, READ TO "_world")"#)
        let diff = SchemaDiff(from: old, to: new)
        #expect(diff.isEmpty)
        #expect(diff.isAdditive)
        #expect(diff.description == "")
    }
}
