import Testing

@testable import CloudSeed
@testable import CloudSeedCore
@testable import CloudSeedReaders
@testable import CloudSeedSchema
@testable import CloudSeedStore

@Suite struct CKSLParserTests {
    /// Apple's example from "Integrating a Text-Based Schema into Your Workflow", with the `<…>` the
    /// web page lost restored (`phone LIST` is a list of strings, `employees LIST` of references) and
    /// its trailing spaces kept.
    static let appleExample = """
        DEFINE SCHEMA
            CREATE ROLE DeptManager;

            RECORD TYPE Department (
                "___createTime" TIMESTAMP QUERYABLE SORTABLE,
                "___recordID" REFERENCE QUERYABLE,
                name STRING,
                address STRING,
                phone LIST<STRING>,
                employees LIST<REFERENCE>,
                GRANT WRITE TO "_creator",\u{20}
                GRANT CREATE TO "_icloud",
                GRANT READ TO "_world",
                GRANT WRITE, CREATE, READ TO DeptManager
            );

            RECORD TYPE Employee (
                "___createTime" TIMESTAMP QUERYABLE SORTABLE,
                "___recordID" REFERENCE QUERYABLE,
                name STRING,
                address STRING,
                hiredate TIMESTAMP,
                salary INT64,
                GRANT WRITE TO "_creator",\u{20}
                GRANT CREATE TO "_icloud",
                GRANT READ TO "_world"
            );
        """

    @Test func parsesApplesExampleAndPrintsItCanonically() throws {
        let schema = try CKSLParser.parse(Self.appleExample)
        #expect(schema.roles == ["DeptManager"])
        #expect(
            CKSLPrinter.print(schema) == """
                DEFINE SCHEMA

                    CREATE ROLE DeptManager;

                    RECORD TYPE Department (
                        "___createTime" TIMESTAMP QUERYABLE SORTABLE,
                        "___createdBy"  REFERENCE,
                        "___etag"       STRING,
                        "___modTime"    TIMESTAMP,
                        "___modifiedBy" REFERENCE,
                        "___recordID"   REFERENCE QUERYABLE,
                        address         STRING,
                        employees       LIST<REFERENCE>,
                        name            STRING,
                        phone           LIST<STRING>,
                        GRANT WRITE TO "_creator",
                        GRANT CREATE TO "_icloud",
                        GRANT READ TO "_world",
                        GRANT READ, CREATE, WRITE TO DeptManager
                    );

                    RECORD TYPE Employee (
                        "___createTime" TIMESTAMP QUERYABLE SORTABLE,
                        "___createdBy"  REFERENCE,
                        "___etag"       STRING,
                        "___modTime"    TIMESTAMP,
                        "___modifiedBy" REFERENCE,
                        "___recordID"   REFERENCE QUERYABLE,
                        address         STRING,
                        hiredate        TIMESTAMP,
                        name            STRING,
                        salary          INT64,
                        GRANT WRITE TO "_creator",
                        GRANT CREATE TO "_icloud",
                        GRANT READ TO "_world"
                    );


                """)
        #expect(try CKSLParser.parse(CKSLPrinter.print(schema)) == schema)
    }

    @Test func readsKeywordsInAnyCase() throws {
        let schema = try CKSLParser.parse(
            #"define Schema record TYPE Artist (name string Queryable, grant read TO "_world");"#)
        #expect(
            schema
                == SchemaDefinition(recordTypes: [
                    RecordTypeDefinition(
                        name: "Artist", fields: [FieldDefinition(name: "name", type: .string, options: [.queryable])],
                        grants: [Grant([.read], to: .world)])
                ]))
    }

    @Test func skipsAllThreeCommentForms() throws {
        let schema = try CKSLParser.parse(
            """
            // A schema -- with comments
            DEFINE SCHEMA /* block
               over lines */
                RECORD TYPE Artist ( -- the artist
                    name STRING, // a name
                    /* the age */ age INT64
                ); // done
            -- end
            """)
        #expect(schema.recordType(named: "Artist")?.userFields.map(\.name) == ["age", "name"])
    }

    @Test func acceptsAMissingFinalSemicolonATrailingCommaAndAnEmptyType() throws {
        let schema = try CKSLParser.parse(
            """
            DEFINE SCHEMA
                RECORD TYPE Empty ();
                RECORD TYPE Artist (
                    name STRING,
                )
            """)
        #expect(schema.recordTypes.map(\.name) == ["Artist", "Empty"])
        #expect(schema.recordType(named: "Empty")?.fields == FieldDefinition.systemFields)
        #expect(schema.recordType(named: "Empty")?.grants == [])
    }

    @Test func readsQuotedNamesReservedWordsAndRolesWithSpaces() throws {
        let schema = try CKSLParser.parse(
            """
            DEFINE SCHEMA
                CREATE ROLE "test role";
                RECORD TYPE "grant" (
                    "sortable" STRING,
                    "feedURL"  STRING,
                    GRANT READ TO "test role"
                );
            """)
        let recordType = try #require(schema.recordType(named: "grant"))
        #expect(schema.roles == ["test role"])
        #expect(recordType.userFields.map(\.name) == ["feedURL", "sortable"])
        #expect(recordType.grants == [Grant([.read], to: "test role")])
    }

    @Test func readsEveryDataType() throws {
        let schema = try CKSLParser.parse(
            """
            DEFINE SCHEMA
                RECORD TYPE T (
                    a ASSET, b BYTES, c DOUBLE, d INT64, e LOCATION, f REFERENCE, g STRING, h TIMESTAMP,
                    i NUMBER, j NUMBER PREFERRED AS INT64, k number preferred as double,
                    l ENCRYPTED STRING, m ENCRYPTED BYTES, n ENCRYPTED LOCATION,
                    o LIST<ASSET>, p LIST < STRING >, q LIST<TIMESTAMP> QUERYABLE
                );
            """)
        let fields = try #require(schema.recordType(named: "T")).userFields
        #expect(
            fields.map(\.declaration) == [
                "ASSET", "BYTES", "DOUBLE", "INT64", "LOCATION", "REFERENCE", "STRING", "TIMESTAMP",
                "NUMBER", "NUMBER PREFERRED AS INT64", "NUMBER PREFERRED AS DOUBLE",
                "ENCRYPTED STRING", "ENCRYPTED BYTES", "ENCRYPTED LOCATION",
                "LIST<ASSET>", "LIST<STRING>", "LIST<TIMESTAMP> QUERYABLE",
            ])
    }

    @Test func addsMissingSystemFieldsAndKeepsTheOptionsOfDeclaredOnes() throws {
        let schema = try CKSLParser.parse(#"DEFINE SCHEMA RECORD TYPE T ("___recordID" REFERENCE QUERYABLE);"#)
        let fields = try #require(schema.recordType(named: "T")).fields
        #expect(fields.map(\.name) == FieldDefinition.systemFields.map(\.name))
        #expect(fields.map(\.options) == [[], [], [], [], [], [.queryable]])
    }

    @Test func mergesGrantsToTheSameRoleAndSortsThem() throws {
        let schema = try CKSLParser.parse(
            """
            DEFINE SCHEMA
                RECORD TYPE Feed (
                    GRANT READ TO "_world",
                    GRANT CREATE TO "_creator",
                    GRANT CREATE TO "_icloud",
                    GRANT WRITE TO "_icloud"
                );
            """)
        #expect(
            schema.recordType(named: "Feed")?.grants == [
                Grant([.create], to: .creator), Grant([.create, .write], to: .icloud), Grant([.read], to: .world),
            ])
    }

    @Test func acceptsRolesCreatedAfterTheTypesThatGrantToThem() throws {
        let schema = try CKSLParser.parse(
            """
            DEFINE SCHEMA
                RECORD TYPE T (GRANT READ TO moderator);
                CREATE ROLE moderator
            """)
        #expect(schema.roles == ["moderator"])
    }

    @Test func skipsAByteOrderMarkAtTheStart() throws {
        #expect(try CKSLParser.parse("\u{FEFF}DEFINE SCHEMA RECORD TYPE T ();").recordTypes.map(\.name) == ["T"])
        #expect(
            ckslError("DEFINE SCHEMA\u{FEFF}")
                == "schema.ckdb:1:14: expected CREATE ROLE, RECORD TYPE or end of file, found U+FEFF\nDEFINE SCHEMA\u{FEFF}\n             ^"
        )
    }

    @Test func readsHandWrittenLayoutWithCommentsBeforeDefineSchemaAndWindowsLineEnds() throws {
        let schema = try CKSLParser.parse(
            "// Hand-maintained\r\nDEFINE SCHEMA\r\n    RECORD TYPE WalletBackup (\r\n        network STRING QUERYABLE,\r\n"
                + "\r\n        payload ASSET\r\n    );\r\n")
        #expect(
            schema.recordType(named: "WalletBackup")?.userFields.map(\.declaration) == ["STRING QUERYABLE", "ASSET"])
    }
}
