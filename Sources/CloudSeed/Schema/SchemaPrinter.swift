/// Prints a schema in the CloudKit Schema Language, in the layout `cktool export-schema` writes:
/// four-space indent, the field column padded so types align, fields and types in byte order,
/// the six quoted system fields, and the grants just-in-time types get in the public database.
///
/// ```
/// DEFINE SCHEMA
///
///     RECORD TYPE ToDoItem (
///         "___createTime" TIMESTAMP,
///         ...
///         title           STRING,
///         GRANT WRITE TO "_creator",
///         GRANT CREATE TO "_icloud",
///         GRANT READ TO "_world"
///     );
/// ```
public enum SchemaPrinter {
    /// The implicit system fields every record type has, with their types.
    public static let systemFields: [(String, FieldType)] = [
        ("___createTime", .timestamp), ("___createdBy", .reference), ("___etag", .string),
        ("___modTime", .timestamp), ("___modifiedBy", .reference), ("___recordID", .reference),
    ]

    static let defaultGrants = [
        "GRANT WRITE TO \"_creator\"", "GRANT CREATE TO \"_icloud\"", "GRANT READ TO \"_world\"",
    ]

    public static func print(_ schema: Schema) -> String {
        var output = "DEFINE SCHEMA\n"
        for recordType in schema.sortedRecordTypes {
            output += "\n    RECORD TYPE \(recordType.name) (\n"
            var columns = systemFields + recordType.fields.map { ($0.key, $0.value) }
            columns.sort { $0.0.utf8.lexicographicallyPrecedes($1.0.utf8) }
            let names = columns.map { $0.0.hasPrefix("_") ? "\"\($0.0)\"" : $0.0 }
            let width = names.map(\.count).max() ?? 0
            var lines = zip(names, columns).map { name, column in
                name + String(repeating: " ", count: width - name.count + 1) + column.1.schemaName
            }
            lines += defaultGrants
            output += lines.map { "        " + $0 }.joined(separator: ",\n")
            output += "\n    );\n"
        }
        return output
    }
}
