import CSQLite
package import CloudSeedCore
import Foundation

/// A re-import's quick answer for a record it would leave as it is: the stored row's columns are
/// compared with the values the source gives, in their stored form, without reading the record
/// back into a ``CloudRecord`` (for a million unchanged rows, that was the writing core's busiest work).
extension SQLiteContainerStore {
    /// How the records of one type and field order are compared: looked up once for a run's records.
    package struct Comparison {
        package var scope: StoreScope
        package var recordType: String
        package var fieldNames: [String]
        package var zone: Int64
        /// The stored type and column number (in ``select``'s row) of each of `fieldNames`; `nil`
        /// for a field the type does not have.
        package var columns: [(type: FieldType, column: Int32)?]
        /// Reads the stored fields of a record, in the order of the type's field names, then its
        /// creator, zone, record name and rowid, by record name.
        package var select: SQLiteStatement
        /// Reads the same columns of the row with a given rowid.
        package var selectByRowid: SQLiteStatement
        /// The creator's column in the selects' rows; the zone, record name and rowid follow it.
        package var creatorColumn: Int32
        package var statementGeneration: Int
        /// The rowid of the last record found: its successor is tried first.
        package var lastRowid: Int64?
    }

    /// Whether the zone holds a record named as `record` (created by `creator`, if given) whose
    /// fields of `fieldNames` hold, as stored, each value `record` sets (a `nil` value is not
    /// compared): saving it with changed keys would change nothing. `false` also where the
    /// comparison cannot tell; the record is then read and compared the usual way.
    package func holdsUnchanged(
        _ record: TypedRecord, fieldNames: [String], createdBy creator: String?, in scope: StoreScope
    )
        throws -> Bool
    {
        guard let comparison = try comparison(record.recordType, fieldNames: fieldNames, in: scope),
            let statement = try storedRow(named: record.recordName, comparison)
        else { return false }
        defer { statement.reset() }
        if let creator, !Self.column(comparison.creatorColumn, of: statement, holds: .text(creator)) { return false }
        for (offset, value) in record.values.enumerated() {
            guard let value else { continue }
            guard let (type, column) = comparison.columns[offset], type == value.fieldType,
                Self.column(column, of: statement, holds: SQLiteValueCodec.encode(value))
            else { return false }
        }
        return true
    }

    private func comparison(_ recordType: String, fieldNames: [String], in scope: StoreScope) throws -> Comparison? {
        if let last = lastComparison, last.recordType == recordType, last.scope == scope, last.fieldNames == fieldNames,
            last.statementGeneration == database.statementGeneration
        {
            return last
        }
        guard let layout = try typeLayouts(scope.schemaScope)[recordType], let zone = try zoneKey(scope, create: false)
        else { return nil }
        if deferredNameIndexes.contains(layout.table) { try buildDeferredNameIndexes() }
        let stored = layout.sortedFieldNames
        let columns = fieldNames.map { name in
            stored.firstIndex(of: name).map { (type: layout.fields[name]!.type, column: Int32($0)) }
        }
        // `_rowid_`, not `rowid`: a field may be named `rowid`, none starts with an underscore.
        let read =
            (stored.map { layout.fields[$0]!.column } + ["___createdBy", "___zone", "___recordID"]).map(
                SQLIdentifier.quoted) + ["_rowid_"]
        let select = "SELECT \(read.joined(separator: ", ")) FROM \(SQLIdentifier.quoted(layout.table))"
        let comparison = Comparison(
            scope: scope, recordType: recordType, fieldNames: fieldNames, zone: zone, columns: columns,
            select: try database.statement(select + " WHERE \"___zone\" = ? AND \"___recordID\" = ?"),
            selectByRowid: try database.statement(select + " WHERE _rowid_ = ?"), creatorColumn: Int32(stored.count),
            statementGeneration: database.statementGeneration)
        lastComparison = comparison
        return comparison
    }

    /// Steps a select to the stored row of the record named `name`, or returns `nil` where there is
    /// none. The row after the last one found is tried first: a re-import meets its records in the
    /// order they were written, and a row read by rowid, next to the last, is found without a search
    /// of the name index and a seek in the table at a random place for each, which were costly.
    private func storedRow(named name: String, _ comparison: Comparison) throws -> SQLiteStatement? {
        let zoneColumn = comparison.creatorColumn + 1
        let nameColumn = zoneColumn + 1
        let rowidColumn = nameColumn + 1
        if let last = comparison.lastRowid {
            let next = comparison.selectByRowid
            next.reset()
            try next.bind(.integer(last + 1), at: 1)
            if try next.step(), next.int64(zoneColumn) == comparison.zone,
                Self.column(nameColumn, of: next, holds: .text(name))
            {
                lastComparison?.lastRowid = last + 1
                return next
            }
            next.reset()
        }
        let select = comparison.select
        select.reset()
        try select.bind(.integer(comparison.zone), at: 1)
        try select.bind(.text(name), at: 2)
        guard try select.step() else { return nil }
        lastComparison?.lastRowid = select.int64(rowidColumn)
        return select
    }

    /// Whether a column of the current row holds `value` exactly: the same storage class and the same bytes.
    private static func column(_ column: Int32, of statement: SQLiteStatement, holds value: SQLiteValue) -> Bool {
        switch (value, statement.columnType(column)) {
        case (.integer(let number), SQLITE_INTEGER): return statement.int64(column) == number
        case (.real(let number), SQLITE_FLOAT): return statement.double(column) == number
        case (.text(var text), SQLITE_TEXT): return text.withUTF8 { same($0, statement.textBytes(column)) }
        case (.blob(let data), SQLITE_BLOB):
            return data.withUnsafeBytes { same($0.assumingMemoryBound(to: UInt8.self), statement.textBytes(column)) }
        default: return false
        }
    }

    private static func same(_ some: UnsafeBufferPointer<UInt8>, _ other: UnsafeBufferPointer<UInt8>) -> Bool {
        guard some.count == other.count else { return false }
        guard some.count > 0, let first = some.baseAddress, let second = other.baseAddress else { return true }
        return memcmp(first, second, some.count) == 0
    }
}
