/// A name (a table's, a column's) as SQL writes it, the same in SQLite and PostgreSQL.
package enum SQLIdentifier {
    /// `name` in double quotes, a quote in it doubled.
    package static func quoted(_ name: String) -> String {
        guard name.utf8.contains(UInt8(ascii: "\"")) else { return "\"" + name + "\"" }
        return "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
