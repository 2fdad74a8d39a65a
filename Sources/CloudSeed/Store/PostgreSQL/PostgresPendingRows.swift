/// Saved rows waiting to be sent to the server with `COPY`, table by table.
///
/// A run's saves are buffered so that a million rows travel in a few hundred `COPY` batches rather
/// than a million round trips. A record saved again before its batch is sent replaces its row;
/// reads by name look here first, and every other read sends the buffer first.
struct PostgresPendingRows {
    /// How many rows a table buffers before they are sent.
    static let batchSize = 10_000

    struct Key: Hashable {
        let zone: Int64
        let recordName: String
    }

    /// The rows of one table, in the order they were saved; a replaced or deleted row leaves `nil`.
    struct Batch {
        let layout: PostgresContainerStore.TypeLayout
        var rows: [(record: CloudRecord, line: [UInt8])?] = []
        var index: [Key: Int] = [:]

        /// Adds or replaces a row; returns how many rows the batch holds.
        mutating func add(_ row: (record: CloudRecord, line: [UInt8]), key: Key) -> Int {
            if let slot = index[key] {
                rows[slot] = row
            } else {
                index[key] = rows.count
                rows.append(row)
            }
            return index.count
        }
    }

    private(set) var batches: [String: Batch] = [:]

    var isEmpty: Bool { batches.isEmpty }

    /// Buffers a row of `layout`'s table; `true` when the table's batch is full and should be sent.
    mutating func add(_ record: CloudRecord, line: [UInt8], zone: Int64, layout: PostgresContainerStore.TypeLayout) -> Bool {
        let key = Key(zone: zone, recordName: record.recordID.recordName)
        return batches[layout.qualifiedTable, default: Batch(layout: layout)].add((record, line), key: key) >= Self.batchSize
    }

    /// The buffered record with this name, if there is one.
    func record(_ recordName: String, zone: Int64, table: String) -> CloudRecord? {
        guard let batch = batches[table], let slot = batch.index[Key(zone: zone, recordName: recordName)] else { return nil }
        return batch.rows[slot]?.record
    }

    /// Drops a buffered row; `true` when there was one.
    mutating func remove(_ recordName: String, zone: Int64, table: String) -> Bool {
        guard let slot = batches[table]?.index.removeValue(forKey: Key(zone: zone, recordName: recordName)) else { return false }
        batches[table]?.rows[slot] = nil
        return true
    }

    mutating func removeAll() { batches.removeAll() }
}
