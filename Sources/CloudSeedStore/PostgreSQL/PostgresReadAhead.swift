/// Rows read past a record a run looked up, in its table's physical order.
///
/// A re-import asks for its records in the order an earlier import stored them, so one query for
/// the rows that follow a record answers the next lookups too, instead of a round trip each. The
/// window grows while it is useful and shrinks back when lookups jump around.
package struct PostgresReadAhead {
    package static let smallest = 16
    package static let largest = 1_000

    private var table = ""
    private var zone: Int64 = 0
    private var rows: [String: [String?]] = [:]
    private var hits = 0
    /// How many rows the next query reads.
    package private(set) var size = smallest

    /// The row of a record, if the last window holds it.
    package mutating func row(_ recordName: String, zone: Int64, table: String) -> [String?]? {
        guard table == self.table, zone == self.zone, let row = rows[recordName] else { return nil }
        hits += 1
        return row
    }

    /// Keeps the rows of a new window (their first column is the record name).
    package mutating func fill(_ window: [[String?]], zone: Int64, table: String) {
        size = hits > 0 ? min(size * 2, Self.largest) : Self.smallest
        hits = 0
        self.table = table
        self.zone = zone
        rows = Dictionary(
            window.compactMap { row in row[0].map { ($0, row) } }, uniquingKeysWith: { first, _ in first })
    }

    /// Drops a record whose row a save or delete makes stale.
    package mutating func forget(_ recordName: String) { rows[recordName] = nil }

    /// Drops every row, when the tables' columns change or the run ends.
    package mutating func removeAll() {
        rows.removeAll()
        table = ""
    }
}
