import CSQLite
import CloudSeedCore
import Foundation

/// A stored row's columns, read the same way from a live statement or from a copy of its row.
package protocol StoredColumns {
    /// The storage class of a column: `SQLITE_INTEGER`, `SQLITE_TEXT`, ….
    func columnType(_ index: Int32) -> Int32
    func int64(_ index: Int32) -> Int64
    func double(_ index: Int32) -> Double
    /// A text or blob column's bytes, valid while the row is.
    func textBytes(_ index: Int32) -> UnsafeBufferPointer<UInt8>
}

extension SQLiteStatement: StoredColumns {}

/// Rows copied out of a statement, a few hundred at a time, so that one core steps through the
/// table while the other writes what it read (``SQLiteDatabase/forEachCopiedRow(_:_:_:)``).
/// Filled on the stepping core through a ``Filling``, then only read: its storage is constants,
/// which Swift need not guard against simultaneous access.
package final class CopiedRowBatch {
    fileprivate struct Cell {
        var type: Int32
        var count: Int32
        /// The integer, the double's bits, or where the bytes start in ``bytes``.
        var value: Int64
    }

    package let columnCount: Int
    private let cells: [Cell]
    private let bytes: UnsafeMutablePointer<UInt8>

    fileprivate init(columnCount: Int, cells: [Cell], bytes: UnsafeMutablePointer<UInt8>) {
        self.columnCount = columnCount
        self.cells = cells
        self.bytes = bytes
    }

    deinit { bytes.deallocate() }

    package var count: Int { cells.count / columnCount }

    /// A batch being filled: a value of the stepping core's own, whose bytes the batch takes over.
    package struct Filling: ~Copyable {
        package let columnCount: Int
        private var cells: [Cell] = []
        private var bytes: UnsafeMutablePointer<UInt8>
        package private(set) var byteCount = 0
        private var byteCapacity: Int

        package init(columnCount: Int, rows: Int, bytes byteCapacity: Int) {
            self.columnCount = columnCount
            cells.reserveCapacity(columnCount * rows)
            self.byteCapacity = byteCapacity
            bytes = .allocate(capacity: byteCapacity)
        }

        package var count: Int { cells.count / columnCount }

        /// Copies the statement's current row.
        package mutating func append(_ statement: SQLiteStatement) {
            for column in 0..<Int32(columnCount) {
                let type = statement.columnType(column)
                switch type {
                case SQLITE_INTEGER: cells.append(Cell(type: type, count: 0, value: statement.int64(column)))
                case SQLITE_FLOAT:
                    cells.append(
                        Cell(type: type, count: 0, value: Int64(bitPattern: statement.double(column).bitPattern)))
                case SQLITE_TEXT, SQLITE_BLOB:
                    let text = statement.textBytes(column)
                    reserve(text.count)
                    if let base = text.baseAddress { (bytes + byteCount).update(from: base, count: text.count) }
                    cells.append(Cell(type: type, count: Int32(text.count), value: Int64(byteCount)))
                    byteCount += text.count
                default: cells.append(Cell(type: type, count: 0, value: 0))
                }
            }
        }

        private mutating func reserve(_ extra: Int) {
            guard byteCount + extra > byteCapacity else { return }
            let capacity = max(byteCapacity * 2, byteCount + extra)
            let grown = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
            grown.update(from: bytes, count: byteCount)
            bytes.deallocate()
            bytes = grown
            byteCapacity = capacity
        }

        /// The batch, for the other core; it owns the bytes from now on.
        consuming func batch() -> CopiedRowBatch {
            CopiedRowBatch(columnCount: columnCount, cells: cells, bytes: bytes)
        }
    }

    /// Row `row` of the batch, from 0.
    package func row(_ row: Int) -> CopiedRow { CopiedRow(batch: self, first: row * columnCount) }

    fileprivate func columnType(_ cell: Int) -> Int32 { cells[cell].type }
    fileprivate func int64(_ cell: Int) -> Int64 { cells[cell].value }
    fileprivate func double(_ cell: Int) -> Double { Double(bitPattern: UInt64(bitPattern: cells[cell].value)) }
    fileprivate func textBytes(_ cell: Int) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(start: bytes + Int(cells[cell].value), count: Int(cells[cell].count))
    }
}

/// One row of a ``CopiedRowBatch``.
package struct CopiedRow: StoredColumns {
    package let batch: CopiedRowBatch
    package let first: Int

    package func columnType(_ index: Int32) -> Int32 { batch.columnType(first + Int(index)) }
    package func int64(_ index: Int32) -> Int64 { batch.int64(first + Int(index)) }
    package func double(_ index: Int32) -> Double { batch.double(first + Int(index)) }
    package func textBytes(_ index: Int32) -> UnsafeBufferPointer<UInt8> { batch.textBytes(first + Int(index)) }

    /// The row's values, as ``SQLiteStatement/row()`` gives them.
    package func values() -> [SQLiteValue] {
        (0..<Int32(batch.columnCount)).map { column in
            switch columnType(column) {
            case SQLITE_INTEGER: .integer(int64(column))
            case SQLITE_FLOAT: .real(double(column))
            case SQLITE_TEXT: .text(String(decoding: textBytes(column), as: UTF8.self))
            case SQLITE_BLOB: .blob(Data(buffer: textBytes(column)))
            default: .null
            }
        }
    }
}

extension SQLiteDatabase {
    /// Runs `sql` and calls `body` with each row, stepping through the table on a second thread
    /// that copies rows out in batches while `body` runs on this one: an export formats on one
    /// core while SQLite reads on the other.
    package func forEachCopiedRow(_ sql: String, _ arguments: [SQLiteValue], _ body: (CopiedRow) throws -> Void) throws
    {
        try BackgroundProducer.run(
            batchSize: 1,
            produce: { emit in
                try copyRows(sql, arguments, emit)
            },
            consume: { batch in
                for row in 0..<batch.count { try body(batch.row(row)) }
            })
    }

    /// Runs `sql` and hands its rows to `emit`, copied out in batches of a few hundred, on the calling thread.
    package func copyRows(_ sql: String, _ arguments: [SQLiteValue], _ emit: (CopiedRowBatch) throws -> Void) throws {
        let statement = try self.statement(sql)
        try statement.bind(arguments)
        defer { statement.reset() }
        let columnCount = Int(statement.columnCount)
        let rowsPerBatch = 256
        // Each batch starts with room for a little more than the last one's bytes.
        var filling = CopiedRowBatch.Filling(columnCount: columnCount, rows: rowsPerBatch, bytes: 64 * 1024)
        while true {
            let stepped: Bool
            do {
                stepped = try statement.step()
            } catch {
                _ = filling.batch()  // which frees the bytes
                throw error
            }
            guard stepped else { break }
            filling.append(statement)
            if filling.count == rowsPerBatch {
                let byteCount = filling.byteCount
                try emit(filling.batch())
                filling = CopiedRowBatch.Filling(
                    columnCount: columnCount, rows: rowsPerBatch, bytes: byteCount + byteCount / 4)
            }
        }
        let last = filling.batch()
        if last.count > 0 { try emit(last) }
    }
}
