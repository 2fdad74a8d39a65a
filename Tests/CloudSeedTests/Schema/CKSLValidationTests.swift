import Testing

@testable import CloudSeed
@testable import CloudSeedCore
@testable import CloudSeedReaders
@testable import CloudSeedSchema
@testable import CloudSeedStore

@Suite struct CKSLValidationTests {
    @Test func aParsedPublicTypeWithoutTheDefaultGrantsParsesButWarns() throws {
        let schema = try CKSLParser.parse(
            """
            DEFINE SCHEMA
                RECORD TYPE Note (text STRING);
                RECORD TYPE Post (text STRING, GRANT WRITE TO "_creator", GRANT READ, CREATE, WRITE TO "_icloud", GRANT READ TO "_world");
                RECORD TYPE Users (roles LIST<INT64>, GRANT WRITE TO "_creator", GRANT READ TO "_world");
            """)
        #expect(
            schema.validate().map(\.description) == [
                #"warning: Note: lacks GRANT WRITE TO "_creator", which a type needs in the public database"#,
                #"warning: Note: lacks GRANT CREATE TO "_icloud", which a type needs in the public database"#,
                #"warning: Note: lacks GRANT READ TO "_world", which a type needs in the public database"#,
            ])
        #expect(schema.validate().allSatisfy { $0.severity == .warning })
    }

    @Test func reportsWhatTheParserWouldRefuseInASchemaBuiltInCode() {
        let schema = SchemaDefinition(
            roles: ["_admin", "bad\nrole"],
            recordTypes: [
                RecordTypeDefinition(
                    name: "2nd",
                    fields: [
                        FieldDefinition(name: "___etag", type: .int64),
                        FieldDefinition(name: "_hidden", type: .string),
                        FieldDefinition(name: "count", type: .int64, options: [.searchable, .queryable]),
                        FieldDefinition(name: "first name", type: .string),
                        FieldDefinition(name: "photo", type: .asset, isEncrypted: true, options: [.sortable]),
                        FieldDefinition(name: "ref", type: .reference, isEncrypted: true),
                        FieldDefinition(name: "tags", type: .list(.string), options: [.searchable]),
                    ],
                    grants: Grant.publicDatabaseDefaults + [Grant([.read], to: "moderator")])
            ])
        #expect(
            schema.validate().map(\.description) == [
                #"error: role "_admin": names starting with "_" belong to system roles"#,
                "error: role \"bad\nrole\": a role name has 1 to 255 characters, none of them a control character",
                #"error: 2nd: a name starts with a letter and continues with letters, digits and "_""#,
                #"error: 2nd.___etag: the system field "___etag" is STRING, not INT64"#,
                #"error: 2nd._hidden: names starting with "_" are reserved for system fields"#,
                "error: 2nd.count: SEARCHABLE: SEARCHABLE applies only to STRING and LIST<STRING> fields",
                #"error: 2nd.first name: a name starts with a letter and continues with letters, digits and "_""#,
                "error: 2nd.photo: ENCRYPTED applies only to BYTES, DOUBLE, INT64, LOCATION, STRING and TIMESTAMP",
                "error: 2nd.photo: SORTABLE: encrypted fields cannot be indexed",
                "error: 2nd.ref: ENCRYPTED applies only to BYTES, DOUBLE, INT64, LOCATION, STRING and TIMESTAMP",
                "error: 2nd: GRANT READ TO moderator names a role that no CREATE ROLE creates",
            ])
    }
}
