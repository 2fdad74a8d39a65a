import CloudSeedCore

/// Reading a record table in record-name order, as the CSV export does, with two readers.
///
/// In name order the table's rows are read out of their order in the file, one B-tree seek by
/// rowid each: the reading is the bottleneck of a CSV export. So a big table is read by two
/// connections at once, on one snapshot, over alternate ranges of names, while this thread takes
/// their rows in order.
extension SQLiteContainerStore {
    /// How many ranges of names a table is cut into: about a thousand records each for a million.
    package static let nameRangeCount = 1024

    /// Calls `body` with each row `select` (``TypeLayout/selectAll`` or
    /// ``TypeLayout/selectNamesAndFields``) reads for `zone`, in record-name order. The rows are
    /// copied out on other threads; nothing in `body` may use the database.
    package func forEachRowByName(
        _ select: String, of layout: TypeLayout, zone: Int64, _ body: (CopiedRow) throws -> Void
    )
        throws
    {
        guard let bounds = try nameBounds(of: layout, zone: zone), let readers = database.snapshotReaders(2) else {
            return try database.forEachCopiedRow(select, [.integer(zone)], body)
        }
        let between = TypeLayout.limitingNames(select, below: true)
        let from = TypeLayout.limitingNames(select, below: false)
        // Range r holds the names from bounds[r - 1] (from "" for the first) up to bounds[r]; the last has no end.
        try ChunkedPipeline.run(
            chunkCount: bounds.count + 1, producerCount: readers.count,
            produce: { reader, range, emit in
                let first = range == 0 ? "" : bounds[range - 1]
                if range < bounds.count {
                    try readers[reader].copyRows(between, [.integer(zone), .text(first), .text(bounds[range])], emit)
                } else {
                    try readers[reader].copyRows(from, [.integer(zone), .text(first)], emit)
                }
            },
            consume: { batch in
                for row in 0..<batch.count { try body(batch.row(row)) }
            })
    }

    /// Names that cut the zone's records of the type into ranges of about equal size, in byte
    /// order: those of records at evenly spaced rowids. `nil` for a small table.
    package func nameBounds(of layout: TypeLayout, zone: Int64) throws -> [String]? {
        let table = SQLIdentifier.quoted(layout.table)
        guard case .integer(let last)? = try database.rows("SELECT max(rowid) FROM \(table)").first?.first,
            last >= twoReadersFrom
        else { return nil }
        let step = max(1, last / Int64(Self.nameRangeCount))
        var names: [String] = []
        for rowid in stride(from: step, to: last, by: Int(step)) {
            let row = try database.rows(
                "SELECT \"___recordID\" FROM \(table) WHERE rowid = ? AND \"___zone\" = ?",
                [.integer(rowid), .integer(zone)])
            if case .text(let name)? = row.first?.first { names.append(name) }
        }
        names.sort { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        var bounds: [String] = []
        for name in names where bounds.last != name { bounds.append(name) }
        return bounds.count >= 2 ? bounds : nil
    }
}

extension SQLiteContainerStore.TypeLayout {
    /// `select`, a query of one zone's records by name, limited to the names from a first one
    /// (`>= ?`) and, when `below`, under another (`< ?`).
    package static func limitingNames(_ select: String, below: Bool) -> String {
        let order = " ORDER BY \"___recordID\""
        precondition(select.hasSuffix(order), "a query of records by name")
        return select.dropLast(order.count) + " AND \"___recordID\" >= ?" + (below ? " AND \"___recordID\" < ?" : "")
            + order
    }
}
