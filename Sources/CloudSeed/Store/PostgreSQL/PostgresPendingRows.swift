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

    /// A buffered record: saved whole, or inserted new as its values (made a whole record only
    /// if it is read back before it is sent).
    enum Record {
        case saved(CloudRecord)
        case new(FlatRecord, fieldNames: [String], system: SystemFields)

        var recordName: String {
            switch self {
            case .saved(let record): record.recordID.recordName
            case .new(let record, _, _): record.recordName
            }
        }

        var cloudRecord: CloudRecord {
            switch self {
            case .saved(let record):
                return record
            case .new(let record, let fieldNames, let system):
                return record.cloudRecord(fieldNames: fieldNames, system: system)
            }
        }
    }

    /// A buffered row: its record, the zone's row id and the row in `COPY`'s binary format (``PostgresBinaryRow``).
    struct Row {
        let record: Record
        let zone: Int64
        let encoded: [UInt8]
    }

    /// The rows of one table, in the order they were saved; a replaced or deleted row leaves `nil`.
    /// Rows inserted new are indexed by name only when a save, read or deletion by name needs it:
    /// a bulk insert of new records, which names each once, hashes no name.
    struct Batch {
        let layout: PostgresContainerStore.TypeLayout
        var rows: [Row?] = []
        var index: [Key: Int] = [:]
        /// How many of ``rows`` ``index`` covers.
        private var indexed = 0

        init(layout: PostgresContainerStore.TypeLayout) { self.layout = layout }

        /// How many rows the batch holds.
        var count: Int { index.count + rows.count - indexed }

        /// Adds or replaces a row; returns how many rows the batch holds.
        mutating func add(_ row: Row) -> Int {
            let key = Key(zone: row.zone, recordName: row.record.recordName)
            indexAll()
            if let slot = index[key] {
                rows[slot] = row
            } else {
                index[key] = rows.count
                rows.append(row)
            }
            indexed = rows.count
            return count
        }

        /// Adds the row of a record inserted new, whose name no other row of the run has; returns
        /// how many rows the batch holds.
        mutating func append(_ row: Row) -> Int {
            rows.append(row)
            return count
        }

        /// Indexes the rows appended since the index last covered them all.
        mutating func indexAll() {
            while indexed < rows.count {
                if let row = rows[indexed] { index[Key(zone: row.zone, recordName: row.record.recordName)] = indexed }
                indexed += 1
            }
        }
    }

    private(set) var batches: [String: Batch] = [:]

    var isEmpty: Bool { batches.isEmpty }

    /// Buffers a saved record's row of `layout`'s table; `true` when the table's batch is full and should be sent.
    mutating func add(_ record: CloudRecord, encoded: [UInt8], zone: Int64, layout: PostgresContainerStore.TypeLayout) -> Bool {
        batches[layout.qualifiedTable, default: Batch(layout: layout)].add(Row(record: .saved(record), zone: zone, encoded: encoded)) >= Self.batchSize
    }

    /// Buffers the row of a record inserted new (``PostgresContainerStore/insertNew(_:fieldNames:system:in:)``);
    /// `true` when the table's batch is full and should be sent.
    mutating func append(_ row: Row, layout: PostgresContainerStore.TypeLayout) -> Bool {
        batches[layout.qualifiedTable, default: Batch(layout: layout)].append(row) >= Self.batchSize
    }

    /// The buffered record with this name, if there is one.
    mutating func record(_ recordName: String, zone: Int64, table: String) -> CloudRecord? {
        batches[table]?.indexAll()
        guard let batch = batches[table], let slot = batch.index[Key(zone: zone, recordName: recordName)] else { return nil }
        return batch.rows[slot]?.record.cloudRecord
    }

    /// Drops a buffered row; `true` when there was one.
    mutating func remove(_ recordName: String, zone: Int64, table: String) -> Bool {
        batches[table]?.indexAll()
        guard let slot = batches[table]?.index.removeValue(forKey: Key(zone: zone, recordName: recordName)) else { return false }
        batches[table]?.rows[slot] = nil
        return true
    }

    mutating func removeAll() { batches.removeAll() }
}
