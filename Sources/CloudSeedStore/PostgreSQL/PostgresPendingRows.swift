package import CloudSeedCore

/// Saved rows waiting to be sent to the server with `COPY`, table by table.
///
/// A run's saves are buffered so that a million rows travel in a few hundred `COPY` batches rather
/// than a million round trips. A record saved again before its batch is sent replaces its row;
/// reads by name look here first, and every other read sends the buffer first.
///
/// A batch keeps its rows encoded one after another in one buffer, ready to send, rather than an
/// array of bytes for each; a record inserted new keeps nothing else but its name (its values are
/// in its row alone). Each row kept its own bytes and its record before, and copying and freeing
/// them was much of the writing thread's work.
package struct PostgresPendingRows {
    /// How many rows a table buffers before they are sent in a `COPY` of their own.
    package static let batchSize = 10_000
    /// How many rows a table buffers before they go on in the copy left open for them
    /// (``PostgresConnection/streamCopy(_:header:rows:trailer:)``): the server starts on them
    /// sooner than with batches of ``batchSize``.
    package static let streamedBatchSize = 2_500

    package struct Key: Hashable {
        package let zone: Int64
        package let recordName: String
    }

    /// What the buffer holds under a record's name.
    package enum Pending {
        case saved(CloudRecord)
        /// A record inserted new, whose values its encoded row alone holds: to be read back, the
        /// rows are sent and it is read from the server.
        case inserted
    }

    /// A buffered row: the record saved whole (`nil` for one inserted new), its name, the zone's
    /// row id, and where its bytes lie in the batch's ``Batch/bytes``.
    package struct Row {
        package let saved: CloudRecord?
        package let recordName: String
        package let zone: Int64
        package let bytes: Range<Int>
    }

    /// The columns the rows of a bulk insert into an empty table leave to the table's defaults:
    /// the zone, and the system fields every record the run inserts shares (all but the change
    /// tag). Five columns of seventeen, a fifth of each row's bytes: the server copies rows in
    /// faster without them.
    package struct SharedColumns: Equatable {
        package let zone: Int64
        package let createdTimestamp: Int64
        package let createdUserRecordName: String
        package let modifiedTimestamp: Int64
        package let modifiedUserRecordName: String

        package init(zone: Int64, system: SystemFields) {
            self.zone = zone
            createdTimestamp = system.createdTimestamp
            createdUserRecordName = system.createdUserRecordName
            modifiedTimestamp = system.modifiedTimestamp
            modifiedUserRecordName = system.modifiedUserRecordName
        }

        /// The indexes of the columns left out, among ``RecordColumns/system``.
        package static let systemColumnIndexes: Set<Int> = [0, 2, 3, 4, 5]
    }

    /// The rows of one table, in the order they were saved; a replaced or deleted row leaves `nil`.
    /// Rows inserted new are indexed by name only when a save, read or deletion by name needs it:
    /// a bulk insert of new records, which names each once, hashes no name.
    package struct Batch {
        package let layout: PostgresContainerStore.TypeLayout
        /// The columns every row of the batch leaves to the table's defaults; `nil` where rows are whole.
        package let shared: SharedColumns?
        /// `COPY`'s binary header, then every row's bytes in the order they came.
        private var bytes = PostgresBinaryRow.header
        private var rows: [Row?] = []
        private var index: [Key: Int] = [:]
        /// How many of ``rows`` ``index`` covers.
        private var indexed = 0
        /// Whether some of ``bytes`` belong to a row replaced or deleted since.
        private var holdsDroppedRows = false

        /// A batch whose bytes have room for `capacity` without growing, and, where `capacity` is a
        /// batch's before it (not 0), whose rows have room for a full batch.
        package init(layout: PostgresContainerStore.TypeLayout, shared: SharedColumns?, capacity: Int) {
            self.layout = layout
            self.shared = shared
            bytes.reserveCapacity(capacity)
            // A table's later batches fill up: their rows are not copied a dozen times as they grow.
            if capacity > 0 { rows.reserveCapacity(PostgresPendingRows.batchSize) }
        }

        /// How many bytes the batch's rows take.
        package var byteCount: Int { bytes.count }

        /// How many rows the batch holds.
        package var count: Int { index.count + rows.count - indexed }

        /// Adds or replaces the row of a record saved whole; returns how many rows the batch holds.
        package mutating func add(_ record: CloudRecord, encoded: [UInt8], zone: Int64) -> Int {
            let row = keep(encoded, saved: record, recordName: record.recordID.recordName, zone: zone)
            let key = Key(zone: zone, recordName: row.recordName)
            indexAll()
            if let slot = index[key] {
                rows[slot] = row
                holdsDroppedRows = true
            } else {
                index[key] = rows.count
                rows.append(row)
            }
            indexed = rows.count
            return count
        }

        /// Adds the row of a record inserted new, whose name no other row of the run has, as
        /// `encode` writes it at the end of the batch's bytes (a row of `fieldCount` fields); returns
        /// how many rows the batch holds. A row `encode` fails to write leaves nothing.
        package mutating func append(
            recordName: String, zone: Int64, fieldCount: Int, encode: (inout PostgresBinaryRow) throws -> Void
        ) throws -> Int {
            let start = bytes.count
            var row = PostgresBinaryRow(fieldCount: fieldCount, appendingTo: &bytes)
            do {
                try encode(&row)
            } catch {
                row.giveBack(to: &bytes)
                bytes.removeSubrange(start...)
                throw error
            }
            row.giveBack(to: &bytes)
            rows.append(Row(saved: nil, recordName: recordName, zone: zone, bytes: start..<bytes.count))
            return count
        }

        private mutating func keep(_ encoded: [UInt8], saved: CloudRecord?, recordName: String, zone: Int64) -> Row {
            let start = bytes.count
            bytes += encoded
            return Row(saved: saved, recordName: recordName, zone: zone, bytes: start..<bytes.count)
        }

        /// The row saved under a name, if the batch holds one.
        package mutating func row(_ key: Key) -> Row? {
            indexAll()
            return index[key].flatMap { rows[$0] }
        }

        /// Drops the row saved under a name; `true` when there was one.
        package mutating func remove(_ key: Key) -> Bool {
            indexAll()
            guard let slot = index.removeValue(forKey: key) else { return false }
            rows[slot] = nil
            holdsDroppedRows = true
            return true
        }

        /// Indexes the rows appended since the index last covered them all.
        private mutating func indexAll() {
            while indexed < rows.count {
                if let row = rows[indexed] { index[Key(zone: row.zone, recordName: row.recordName)] = indexed }
                indexed += 1
            }
        }

        /// The batch as `COPY … (FORMAT binary)` data, header to trailer; `nil` if it holds no row.
        consuming func copyData() -> ArraySlice<UInt8>? {
            guard var data = keptBytes() else { return nil }
            data += PostgresBinaryRow.trailer
            return data[...]
        }

        /// The batch's rows in `COPY`'s binary format, without its header and trailer; `nil` if it holds no row.
        consuming func rowData() -> ArraySlice<UInt8>? {
            keptBytes()?[PostgresBinaryRow.header.count...]
        }

        /// The header and the bytes of the rows kept, without those of rows replaced or deleted.
        private consuming func keptBytes() -> [UInt8]? {
            guard count > 0 else { return nil }
            guard holdsDroppedRows else { return bytes }
            var kept = PostgresBinaryRow.header
            for slot in rows.indices { if let range = rows[slot]?.bytes { kept += bytes[range] } }
            return kept
        }
    }

    private var batches: [String: Batch] = [:]
    /// The batch that records inserted new last went to, kept out of ``batches`` meanwhile: the
    /// records of a bulk insert find it by comparing one name, without hashing their table's.
    private var current: (table: String, batch: Batch)?
    /// How many bytes each table's last batch took: its next batch is given room for an eighth
    /// more at once (rows differ in length), rather than growing and copying its bytes a dozen
    /// times on the way.
    private var lastByteCounts: [String: Int] = [:]

    package var isEmpty: Bool { batches.isEmpty && current == nil }

    /// Puts ``current`` back among the batches.
    private mutating func park() {
        guard let (table, batch) = current.take() else { return }
        batches[table] = batch
    }

    /// Buffers a saved record's row of `layout`'s table; `true` when the table's batch is full and should be sent.
    package mutating func add(
        _ record: CloudRecord, encoded: [UInt8], zone: Int64, layout: PostgresContainerStore.TypeLayout
    )
        -> Bool
    {
        park()
        let table = layout.qualifiedTable
        let capacity = batchCapacity(table)
        return batches[table, default: Batch(layout: layout, shared: nil, capacity: capacity)].add(
            record, encoded: encoded, zone: zone) >= Self.batchSize
    }

    /// Whether `table`'s batch leaves out other columns than `shared` says (keeps rows whole where
    /// `shared` is `nil`): it must be sent before a row that leaves out these joins the table's rows.
    /// Mutating, so that the store's buffer is read in place, not copied with its arrays retained.
    package mutating func mustSend(_ table: String, before shared: SharedColumns?) -> Bool {
        if current?.table == table { return current?.batch.shared != shared }
        guard let index = batches.index(forKey: table) else { return false }
        return batches.values[index].shared != shared
    }

    /// Buffers the row of a record inserted new (``PostgresContainerStore/insertNew(_:fieldNames:system:in:)``)
    /// into `table`'s batch, as `encode` writes it (``Batch/append(recordName:zone:fieldCount:encode:)``),
    /// leaving out the columns `shared` holds, as every row of the batch must (``mustSend(_:before:)``);
    /// `true` when the batch holds `batchSize` rows and should be sent.
    package mutating func append(
        recordName: String, zone: Int64, table: String, layout: @autoclosure () -> PostgresContainerStore.TypeLayout,
        shared: @autoclosure () -> SharedColumns?, batchSize: Int, fieldCount: Int,
        encode: (inout PostgresBinaryRow) throws -> Void
    ) throws -> Bool {
        if current?.table != table {
            park()
            current = (
                table,
                batches.removeValue(forKey: table)
                    ?? Batch(layout: layout(), shared: shared(), capacity: batchCapacity(table))
            )
        }
        return try current!.batch.append(recordName: recordName, zone: zone, fieldCount: fieldCount, encode: encode)
            >= batchSize
    }

    private func batchCapacity(_ table: String) -> Int {
        lastByteCounts[table].map { $0 + $0 / 8 } ?? 0
    }

    /// What the buffer holds under a record's name, if anything.
    package mutating func pending(_ recordName: String, zone: Int64, table: String) -> Pending? {
        park()
        guard let row = batches[table]?.row(Key(zone: zone, recordName: recordName)) else { return nil }
        return row.saved.map(Pending.saved) ?? .inserted
    }

    /// Drops a buffered row; `true` when there was one.
    package mutating func remove(_ recordName: String, zone: Int64, table: String) -> Bool {
        park()
        return batches[table]?.remove(Key(zone: zone, recordName: recordName)) ?? false
    }

    /// Every table's batch, by qualified table, leaving the buffer empty.
    package mutating func takeAll() -> [String: Batch] {
        park()
        for (table, batch) in batches { lastByteCounts[table] = batch.byteCount }
        defer { batches = [:] }
        return batches
    }

    package mutating func removeAll() {
        current = nil
        batches.removeAll()
    }
}
