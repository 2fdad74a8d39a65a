import CloudSeedCore

/// Prints a ``SchemaDefinition`` in the CloudKit Schema Language, byte for byte as
/// `cktool export-schema` writes it, so that an unedited export prints back unchanged:
///
/// ```
/// DEFINE SCHEMA
///
///     CREATE ROLE moderator;
///
///     RECORD TYPE Artist (
///         CD_name         STRING QUERYABLE SEARCHABLE SORTABLE,
///         "___createTime" TIMESTAMP,
///         ...
///         "___recordID"   REFERENCE QUERYABLE,
///         photo           ASSET,
///         GRANT WRITE TO "_creator",
///         GRANT READ, CREATE, WRITE TO "_icloud",
///         GRANT CREATE, WRITE TO moderator
///     );
///
/// ```
///
/// Roles come first, then record types, each after a blank line and indented four spaces. Fields are
/// indented eight, in byte order, with their names padded so that the types line up one space after
/// the longest name; grants follow in role order. Names that are reserved words or system names are
/// double-quoted. An export ends after the last `);` and its newline, and when the schema has roles,
/// with one more newline: the one export with a role does (`robbiet480/Dispatch`), the others without
/// roles do not.
package enum CKSLPrinter {
    /// The CKSL text of `schema`.
    package static func print(_ schema: SchemaDefinition) -> String {
        var output = "DEFINE SCHEMA\n"
        for role in schema.roles {
            output += "\n    CREATE ROLE \(CKSLName.spelling(role));\n"
        }
        for recordType in schema.recordTypes {
            output += "\n    RECORD TYPE \(CKSLName.spelling(recordType.name)) (\n"
            output += lines(of: recordType).map { "        " + $0 }.joined(separator: ",\n")
            output += "\n    );\n"
        }
        if !schema.roles.isEmpty { output += "\n" }
        return output
    }

    /// The field lines, names padded to one column, then the grant lines.
    private static func lines(of recordType: RecordTypeDefinition) -> [String] {
        let names = recordType.fields.map { CKSLName.spelling($0.name) }
        let width = names.map(\.unicodeScalars.count).max() ?? 0
        let fields = zip(names, recordType.fields).map { name, field in
            name + String(repeating: " ", count: width - name.unicodeScalars.count + 1) + field.declaration
        }
        return fields + recordType.grants.map(\.description)
    }
}
