import Testing

@testable import CloudSeed
@testable import CloudSeedCore
@testable import CloudSeedReaders
@testable import CloudSeedSchema
@testable import CloudSeedStore

/// The error parsing `text` throws, as the user sees it; `nil` when it parses.
func ckslError(_ text: String, file: String = "schema.ckdb") -> String? {
    do {
        _ = try CKSLParser.parse(text, file: file)
        return nil
    } catch {
        return "\(error)"
    }
}

@Suite struct CKSLParserErrorTests {
    /// `DEFINE SCHEMA RECORD TYPE T (` followed by `body` and `);`, on one line: the body starts at column 30.
    static func inType(_ body: String) -> String {
        "DEFINE SCHEMA RECORD TYPE T (\(body));"
    }

    @Test func reportsApplesExampleAsPrintedOnTheWebPage() {
        let text = CKSLParserTests.appleExample
            .replacingOccurrences(of: "LIST<STRING>", with: "LIST")
            .replacingOccurrences(of: "LIST<REFERENCE>", with: "LIST")
        #expect(
            ckslError(text, file: "seed.ckdb") == """
                seed.ckdb:9:19: expected "<", found ","
                        phone LIST,
                                  ^
                """)
    }

    @Test(arguments: [
        (
            "",
            #"""
            schema.ckdb:1:1: expected DEFINE SCHEMA, found end of file

            ^
            """#
        ),
        (
            "DEFINE",
            #"""
            schema.ckdb:1:7: expected SCHEMA, found end of file
            DEFINE
                  ^
            """#
        ),
        (
            "DEFINE SCHEMA\n    RECORD TYPE A (name STRING)\n    RECORD TYPE B (name STRING);",
            #"""
            schema.ckdb:3:5: expected ";", found RECORD
                RECORD TYPE B (name STRING);
                ^
            """#
        ),
        (
            "DEFINE SCHEMA\n    CREATE TABLE A;",
            #"""
            schema.ckdb:2:12: expected ROLE, found TABLE
                CREATE TABLE A;
                       ^
            """#
        ),
        (
            "DEFINE SCHEMA\n    DROP TYPE A;",
            #"""
            schema.ckdb:2:5: expected CREATE ROLE, RECORD TYPE or end of file, found DROP
                DROP TYPE A;
                ^
            """#
        ),
        (
            "DEFINE SCHEMA RECORD TYPE A name STRING);",
            #"""
            schema.ckdb:1:29: expected "(", found name
            DEFINE SCHEMA RECORD TYPE A name STRING);
                                        ^
            """#
        ),
        (
            "DEFINE SCHEMA\n    RECORD TYPE A (\n        name STRING",
            #"""
            schema.ckdb:3:20: expected QUERYABLE, SEARCHABLE, SORTABLE, "," or ")", found end of file
                    name STRING
                               ^
            """#
        ),
    ])
    func reportsStructureErrors(text: String, expected: String) {
        #expect(ckslError(text) == expected)
    }

    @Test(arguments: [
        (
            "DEFINE SCHEMA\n/* note\n",
            #"""
            schema.ckdb:2:1: expected "*/" to end the comment that starts here, found end of file
            /* note
            ^
            """#
        ),
        (
            "DEFINE SCHEMA\n    RECORD TYPE \"Artist (\n",
            #"""
            schema.ckdb:2:17: expected " to end the quoted name that starts here, found end of line
                RECORD TYPE "Artist (
                            ^
            """#
        ),
        (
            "DEFINE SCHEMA RECORD TYPE \"A",
            #"""
            schema.ckdb:1:27: expected " to end the quoted name that starts here, found end of file
            DEFINE SCHEMA RECORD TYPE "A
                                      ^
            """#
        ),
        (
            inType("name STRING @"),
            #"""
            schema.ckdb:1:42: expected QUERYABLE, SEARCHABLE, SORTABLE, "," or ")", found "@"
            DEFINE SCHEMA RECORD TYPE T (name STRING @);
                                                     ^
            """#
        ),
        (
            "DEFINE SCHEMA\n\tRECORD TYPE T (\n\t\tnamé STRING);",
            #"""
            schema.ckdb:3:6: expected a data type such as STRING, INT64 or LIST<STRING>, found U+00E9
            \#t\#tnamé STRING);
            \#t\#t   ^
            """#
        ),
        (
            "DEFINE SCHEMA\r\n    RECORD TYPE T (name TEXT);\r\n",
            #"""
            schema.ckdb:2:25: expected a data type such as STRING, INT64 or LIST<STRING>, found TEXT
                RECORD TYPE T (name TEXT);
                                    ^
            """#
        ),
    ])
    func reportsCharacterErrors(text: String, expected: String) {
        #expect(ckslError(text) == expected)
    }

    @Test(arguments: [
        (
            inType("queryable STRING"),
            #"""
            schema.ckdb:1:30: expected a field name, GRANT or ")", found queryable; queryable is a reserved word and must be double-quoted
            DEFINE SCHEMA RECORD TYPE T (queryable STRING);
                                         ^
            """#
        ),
        (
            inType("___etag STRING"),
            #"""
            schema.ckdb:1:30: expected a field name, GRANT or ")", found ___etag; names starting with "_" are system fields and must be double-quoted
            DEFINE SCHEMA RECORD TYPE T (___etag STRING);
                                         ^
            """#
        ),
        (
            inType(#""___share" REFERENCE"#),
            #"""
            schema.ckdb:1:30: expected a field name, GRANT or ")", found "___share"; the system fields are "___createTime", "___createdBy", "___etag", "___modTime", "___modifiedBy" and "___recordID"
            DEFINE SCHEMA RECORD TYPE T ("___share" REFERENCE);
                                         ^
            """#
        ),
        (
            inType("1st STRING"),
            #"""
            schema.ckdb:1:30: expected a field name, GRANT or ")", found 1st; a name starts with a letter and continues with letters, digits and "_"
            DEFINE SCHEMA RECORD TYPE T (1st STRING);
                                         ^
            """#
        ),
        (
            inType(#""first name" STRING"#),
            #"""
            schema.ckdb:1:30: expected a field name, GRANT or ")", found "first name"; a name starts with a letter and continues with letters, digits and "_"
            DEFINE SCHEMA RECORD TYPE T ("first name" STRING);
                                         ^
            """#
        ),
        (
            inType("a" + String(repeating: "b", count: 255) + " STRING"),
            """
            schema.ckdb:1:30: expected a field name, GRANT or ")", found a name of 256 characters; a name has at most 255 characters
            \(inType("a" + String(repeating: "b", count: 255) + " STRING"))
            \(String(repeating: " ", count: 29))^
            """
        ),
        (
            "DEFINE SCHEMA RECORD TYPE grant ();",
            #"""
            schema.ckdb:1:27: expected a record type name, found grant; grant is a reserved word and must be double-quoted
            DEFINE SCHEMA RECORD TYPE grant ();
                                      ^
            """#
        ),
        (
            "DEFINE SCHEMA RECORD TYPE _Users ();",
            #"""
            schema.ckdb:1:27: expected a record type name, found _Users; names starting with "_" are reserved for the system
            DEFINE SCHEMA RECORD TYPE _Users ();
                                      ^
            """#
        ),
        (
            "DEFINE SCHEMA CREATE ROLE \"_admin\";",
            #"""
            schema.ckdb:1:27: expected a role name, found "_admin"; names starting with "_" belong to system roles
            DEFINE SCHEMA CREATE ROLE "_admin";
                                      ^
            """#
        ),
        (
            "DEFINE SCHEMA CREATE ROLE \"\";",
            #"""
            schema.ckdb:1:27: expected a role name, found ""; a role name has 1 to 255 characters, none of them a control character
            DEFINE SCHEMA CREATE ROLE "";
                                      ^
            """#
        ),
    ])
    func reportsNamesThatBreakTheRules(text: String, expected: String) {
        #expect(ckslError(text) == expected)
    }

    @Test(arguments: [
        (
            inType(#""___etag" INT64"#),
            #"""
            schema.ckdb:1:40: expected STRING, found INT64; the type of the system field "___etag" cannot change
            DEFINE SCHEMA RECORD TYPE T ("___etag" INT64);
                                                   ^
            """#
        ),
        (
            inType(#""___createTime" ENCRYPTED TIMESTAMP"#),
            #"""
            schema.ckdb:1:46: expected TIMESTAMP, found ENCRYPTED TIMESTAMP; the type of the system field "___createTime" cannot change
            DEFINE SCHEMA RECORD TYPE T ("___createTime" ENCRYPTED TIMESTAMP);
                                                         ^
            """#
        ),
        (
            inType("tags LIST<LIST<STRING>>"),
            #"""
            schema.ckdb:1:40: expected ASSET, BYTES, DOUBLE, INT64, LOCATION, REFERENCE, STRING or TIMESTAMP, found LIST; lists do not nest
            DEFINE SCHEMA RECORD TYPE T (tags LIST<LIST<STRING>>);
                                                   ^
            """#
        ),
        (
            inType("tags LIST STRING"),
            #"""
            schema.ckdb:1:40: expected "<", found STRING
            DEFINE SCHEMA RECORD TYPE T (tags LIST STRING);
                                                   ^
            """#
        ),
        (
            inType("secret ENCRYPTED REFERENCE"),
            #"""
            schema.ckdb:1:47: expected BYTES, DOUBLE, INT64, LOCATION, STRING or TIMESTAMP, found REFERENCE
            DEFINE SCHEMA RECORD TYPE T (secret ENCRYPTED REFERENCE);
                                                          ^
            """#
        ),
        (
            inType("n NUMBER PREFERRED AS STRING"),
            #"""
            schema.ckdb:1:52: expected INT64 or DOUBLE, found STRING
            DEFINE SCHEMA RECORD TYPE T (n NUMBER PREFERRED AS STRING);
                                                               ^
            """#
        ),
        (
            inType("n NUMBER PREFERRED INT64"),
            #"""
            schema.ckdb:1:49: expected AS, found INT64
            DEFINE SCHEMA RECORD TYPE T (n NUMBER PREFERRED INT64);
                                                            ^
            """#
        ),
    ])
    func reportsTypeErrors(text: String, expected: String) {
        #expect(ckslError(text) == expected)
    }

    @Test(arguments: [
        (
            inType("count INT64 SEARCHABLE"),
            #"""
            schema.ckdb:1:42: expected QUERYABLE, SORTABLE, "," or ")", found SEARCHABLE; SEARCHABLE applies only to STRING and LIST<STRING> fields
            DEFINE SCHEMA RECORD TYPE T (count INT64 SEARCHABLE);
                                                     ^
            """#
        ),
        (
            inType("photo ASSET QUERYABLE"),
            #"""
            schema.ckdb:1:42: expected "," or ")", found QUERYABLE; ASSET fields cannot be indexed
            DEFINE SCHEMA RECORD TYPE T (photo ASSET QUERYABLE);
                                                     ^
            """#
        ),
        (
            inType("photos LIST<ASSET> SORTABLE"),
            #"""
            schema.ckdb:1:49: expected "," or ")", found SORTABLE; ASSET fields cannot be indexed
            DEFINE SCHEMA RECORD TYPE T (photos LIST<ASSET> SORTABLE);
                                                            ^
            """#
        ),
        (
            inType("secret ENCRYPTED STRING QUERYABLE"),
            #"""
            schema.ckdb:1:54: expected "," or ")", found QUERYABLE; encrypted fields cannot be indexed
            DEFINE SCHEMA RECORD TYPE T (secret ENCRYPTED STRING QUERYABLE);
                                                                 ^
            """#
        ),
        (
            inType("title STRING QUERYABLE SORTABLE QUERYABLE"),
            #"""
            schema.ckdb:1:62: expected SEARCHABLE, "," or ")", found QUERYABLE; QUERYABLE is already given
            DEFINE SCHEMA RECORD TYPE T (title STRING QUERYABLE SORTABLE QUERYABLE);
                                                                         ^
            """#
        ),
    ])
    func reportsOptionsCloudKitDoesNotAllow(text: String, expected: String) {
        #expect(ckslError(text) == expected)
    }

    @Test(arguments: [
        (
            inType(#"GRANT TO "_world""#),
            #"""
            schema.ckdb:1:36: expected READ, CREATE or WRITE, found TO
            DEFINE SCHEMA RECORD TYPE T (GRANT TO "_world");
                                               ^
            """#
        ),
        (
            inType(#"GRANT READ WRITE TO "_world""#),
            #"""
            schema.ckdb:1:41: expected "," or TO, found WRITE
            DEFINE SCHEMA RECORD TYPE T (GRANT READ WRITE TO "_world");
                                                    ^
            """#
        ),
        (
            inType(#"GRANT READ, READ TO "_world""#),
            #"""
            schema.ckdb:1:42: expected CREATE or WRITE, found READ; READ is already granted
            DEFINE SCHEMA RECORD TYPE T (GRANT READ, READ TO "_world");
                                                     ^
            """#
        ),
        (
            inType(#"GRANT READ, CREATE, WRITE, TO "_world""#),
            #"""
            schema.ckdb:1:55: expected TO, found ","
            DEFINE SCHEMA RECORD TYPE T (GRANT READ, CREATE, WRITE, TO "_world");
                                                                  ^
            """#
        ),
        (
            inType("GRANT READ TO _world"),
            #"""
            schema.ckdb:1:44: expected "_creator", "_icloud", "_world" or a role created with CREATE ROLE, found _world; system role names must be double-quoted
            DEFINE SCHEMA RECORD TYPE T (GRANT READ TO _world);
                                                       ^
            """#
        ),
        (
            inType(#"GRANT READ TO "_admin""#),
            #"""
            schema.ckdb:1:44: expected "_creator", "_icloud", "_world" or a role created with CREATE ROLE, found "_admin"
            DEFINE SCHEMA RECORD TYPE T (GRANT READ TO "_admin");
                                                       ^
            """#
        ),
        (
            inType(#"GRANT READ TO "_world" name STRING"#),
            #"""
            schema.ckdb:1:53: expected "," or ")", found name
            DEFINE SCHEMA RECORD TYPE T (GRANT READ TO "_world" name STRING);
                                                                ^
            """#
        ),
        (
            "DEFINE SCHEMA\n    RECORD TYPE T (\n        GRANT CREATE, WRITE TO moderator\n    );",
            #"""
            schema.ckdb:3:32: expected "_creator", "_icloud", "_world" or a role created with CREATE ROLE, found moderator
                    GRANT CREATE, WRITE TO moderator
                                           ^
            """#
        ),
    ])
    func reportsGrantErrors(text: String, expected: String) {
        #expect(ckslError(text) == expected)
    }

    @Test(arguments: [
        (
            "DEFINE SCHEMA\n    RECORD TYPE Artist (\n        name STRING,\n        name INT64\n    );",
            #"""
            schema.ckdb:4:9: duplicate field name in record type Artist, first declared at schema.ckdb:3:9
                    name INT64
                    ^
            """#
        ),
        (
            "DEFINE SCHEMA\n    RECORD TYPE T (\"___etag\" STRING, \"___etag\" STRING);",
            #"""
            schema.ckdb:2:38: duplicate field "___etag" in record type T, first declared at schema.ckdb:2:20
                RECORD TYPE T ("___etag" STRING, "___etag" STRING);
                                                 ^
            """#
        ),
        (
            "DEFINE SCHEMA\n    RECORD TYPE Artist ();\n    RECORD TYPE Artist ();",
            #"""
            schema.ckdb:3:17: duplicate record type Artist, first declared at schema.ckdb:2:17
                RECORD TYPE Artist ();
                            ^
            """#
        ),
        (
            "DEFINE SCHEMA\n    CREATE ROLE \"test role\";\n    CREATE ROLE \"test role\";",
            #"""
            schema.ckdb:3:17: duplicate role "test role", first declared at schema.ckdb:2:17
                CREATE ROLE "test role";
                            ^
            """#
        ),
    ])
    func reportsDuplicatesWithBothPositions(text: String, expected: String) {
        #expect(ckslError(text) == expected)
    }
}
