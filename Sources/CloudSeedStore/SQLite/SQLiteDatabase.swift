import CSQLite
package import CloudSeedCore
package import Foundation

/// A value bound to or read from a SQLite statement.
package enum SQLiteValue: Hashable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob(Data)
}

/// One connection to a SQLite file: the single owner of its statements and transactions.
package final class SQLiteDatabase {
    private var handle: OpaquePointer?
    private var statements: [String: SQLiteStatement] = [:]
    package let path: String

    /// How long a writer waits for another run's transaction before giving up.
    package static let busyTimeoutMilliseconds: Int32 = 600_000

    package init(path: String, readOnly: Bool = false) throws {
        self.path = path
        let flags = (readOnly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE) | SQLITE_OPEN_NOMUTEX
        guard sqlite3_open_v2(path, &handle, flags, nil) == SQLITE_OK else {
            let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
            sqlite3_close(handle)
            throw CloudSeedError(
                .storeFailure, "cannot open the store: \(message); check the path and its permissions",
                at: SourcePosition(file: path))
        }
        sqlite3_busy_timeout(handle, Self.busyTimeoutMilliseconds)
    }

    deinit { close() }

    /// Closes the connection (once its statements are finalized); it cannot be used afterwards.
    package func close() {
        statements.removeAll()
        sqlite3_close_v2(handle)
        handle = nil
    }

    /// Runs SQL that returns no rows (one or several statements).
    package func execute(_ sql: String) throws {
        var message: UnsafeMutablePointer<CChar>?
        guard sqlite3_exec(handle, sql, nil, nil, &message) == SQLITE_OK else {
            let text = message.map { String(cString: $0) } ?? lastError
            sqlite3_free(message)
            throw storeError(text)
        }
    }

    /// Runs `body` with the file memory-mapped for reading (up to SQLite's limit, 2 GB as built here).
    ///
    /// Records go out in record-name order, which is not the order of the table's pages: read page by
    /// page, each record costs a system call and a copy, which mapping avoids. The mapped pages are the file's own in the operating system's page cache, shared and
    /// given back under memory pressure, though the resident size counts the ones touched.
    package func withMappedReads<T>(_ body: () throws -> T) throws -> T {
        try execute("PRAGMA mmap_size = \(Self.mappedReadSize)")
        defer { try? execute("PRAGMA mmap_size = 0") }
        return try body()
    }

    private static let mappedReadSize: Int64 = 1 << 40

    /// `count` more connections to the file, read-only and memory-mapped, each in a read
    /// transaction on one snapshot: they start reading while this connection holds the write lock,
    /// so that no run can commit between them. `nil` where the lock cannot be had at once (a run is
    /// writing) or the database has no file: the caller then reads on this connection alone.
    package func snapshotReaders(_ count: Int) -> [SQLiteDatabase]? {
        guard path != ":memory:", !path.isEmpty,
            (try? withoutWaiting({ try execute("BEGIN IMMEDIATE") })) != nil
        else { return nil }
        defer { try? execute("ROLLBACK") }
        return try? (0..<count).map { _ in
            let reader = try SQLiteDatabase(path: path, readOnly: true)
            try reader.execute("PRAGMA mmap_size = \(Self.mappedReadSize); BEGIN")
            try reader.rows("SELECT count(*) FROM sqlite_master")  // the first read fixes the snapshot
            return reader
        }
    }

    /// A prepared statement for `sql`, reused for the same text from transaction to transaction:
    /// SQLite prepares it again itself where another connection changed the schema.
    package func statement(_ sql: String) throws -> SQLiteStatement {
        if let cached = statements[sql] {
            cached.reset()
            return cached
        }
        // A long-running server meets new texts as its schema grows: past the limit, all are let go.
        if statements.count >= Self.maximumStatements { forgetStatements() }
        var pointer: OpaquePointer?
        guard sqlite3_prepare_v2(handle, sql, -1, &pointer, nil) == SQLITE_OK, let pointer else {
            throw storeError(lastError)
        }
        let statement = SQLiteStatement(pointer: pointer, database: self)
        statements[sql] = statement
        return statement
    }

    /// Runs `sql` with `arguments` bound, returning every row.
    @discardableResult
    package func rows(_ sql: String, _ arguments: [SQLiteValue] = []) throws -> [[SQLiteValue]] {
        let statement = try self.statement(sql)
        try statement.bind(arguments)
        var result: [[SQLiteValue]] = []
        while try statement.step() { result.append(statement.row()) }
        return result
    }

    /// Runs `sql` with `arguments` bound and calls `body` with each row as it is stepped to, so that
    /// memory holds one row. `body` must not run the same SQL text again.
    package func forEachRow(_ sql: String, _ arguments: [SQLiteValue] = [], _ body: ([SQLiteValue]) throws -> Void)
        throws
    {
        let statement = try self.statement(sql)
        try statement.bind(arguments)
        defer { statement.reset() }
        while try statement.step() { try body(statement.row()) }
    }

    /// Runs `sql` with `arguments` bound and calls `body` with the statement at each row, for reading
    /// columns in place (``SQLiteStatement/textBytes(_:)``) without making values of them.
    package func forEachStep(_ sql: String, _ arguments: [SQLiteValue] = [], _ body: (SQLiteStatement) throws -> Void)
        throws
    {
        let statement = try self.statement(sql)
        try statement.bind(arguments)
        defer { statement.reset() }
        while try statement.step() { try body(statement) }
    }

    /// Runs `body` in one write transaction: all of it is kept, or none of it.
    ///
    /// `BEGIN IMMEDIATE` takes the write lock up front, so concurrent runs wait for each other
    /// (up to ``busyTimeoutMilliseconds``) instead of failing half-way. `exclusive` also keeps
    /// readers out until it commits: with a rollback journal, a reader that got in could block the
    /// commit, and another run that read first and then wants to write would be refused at once.
    package func transaction<T>(exclusive: Bool = false, _ body: () throws -> T) throws -> T {
        try execute(exclusive ? "BEGIN EXCLUSIVE" : "BEGIN IMMEDIATE")
        do {
            let result = try body()
            try execute("COMMIT")
            return result
        } catch {
            try? execute("ROLLBACK")
            throw error
        }
    }

    /// Runs `body` without waiting for another connection's lock: what it needs of the file that
    /// another run holds fails at once, as busy.
    package func withoutWaiting<T>(_ body: () throws -> T) rethrows -> T {
        sqlite3_busy_timeout(handle, 0)
        defer { sqlite3_busy_timeout(handle, Self.busyTimeoutMilliseconds) }
        return try body()
    }

    /// Switches the file from its write-ahead log to a rollback journal, where no other
    /// connection has it open (SQLite leaves WAL mode only then); whether it did. Every connection
    /// that opens the file switches it back (``SQLiteContainerStore``), so a run killed meanwhile
    /// leaves the journal that the next one rolls back, and the file in WAL mode again.
    package func leaveWriteAheadLog() -> Bool {
        let left = withoutWaiting { (try? rows("PRAGMA journal_mode = DELETE"))?.first?.first == .text("delete") }
        if left { syncEveryCommit(true) }
        return left
    }

    /// Puts the file in WAL mode, after ``leaveWriteAheadLog()`` or when opening it, without
    /// waiting: where another connection is writing through a rollback journal, this one goes on in
    /// that mode, and the connection that comes next switches the file back.
    package func returnToWriteAheadLog() {
        let mode = withoutWaiting { (try? rows("PRAGMA journal_mode = WAL"))?.first?.first }
        syncEveryCommit(mode != .text("wal"))
    }

    /// Whether each commit waits for the disk. In WAL mode a commit that only reached the log
    /// survives a killed process, and the log is synced at checkpoints, as SQLite advises; a
    /// rollback journal is synced at every commit.
    private func syncEveryCommit(_ sync: Bool) {
        try? execute(sync ? "PRAGMA synchronous = FULL" : "PRAGMA synchronous = NORMAL")
    }

    /// How many prepared statements are kept at most.
    package static let maximumStatements = 256

    /// Drops cached statements, which schema changes make stale.
    package func forgetStatements() {
        statements.removeAll()
        statementGeneration += 1
    }

    /// Counts ``forgetStatements()`` calls: a statement kept elsewhere is stale once it moves.
    package private(set) var statementGeneration = 0

    package var lastError: String { String(cString: sqlite3_errmsg(handle)) }

    package func storeError(_ message: String) -> CloudSeedError {
        CloudSeedError(.storeFailure, "store error: \(message)", at: SourcePosition(file: path))
    }
}

/// A prepared statement with values bound by position.
package final class SQLiteStatement {
    private let pointer: OpaquePointer
    private unowned let database: SQLiteDatabase

    /// SQLite's destructor constant telling it to copy bound text and blobs.
    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
    /// The bytes of the text bound to each parameter, by index: SQLite reads them in place until
    /// the parameter is bound again or the statement ends, instead of copying them into memory it
    /// allocates and frees for every value. Not checked for overlapping access at run time: a
    /// statement is used by one thread at a time, and the check was much of binding a text.
    @exclusivity(unchecked) private var boundTexts: [UnsafeMutableRawBufferPointer?] = []
    /// Texts longer than this are copied by SQLite, so that a statement does not keep a large buffer.
    private static let boundTextLimit = 4096

    package init(pointer: OpaquePointer, database: SQLiteDatabase) {
        self.pointer = pointer
        self.database = database
    }

    deinit {
        sqlite3_finalize(pointer)
        for buffer in boundTexts { buffer?.deallocate() }
    }

    package func reset() {
        sqlite3_reset(pointer)
        sqlite3_clear_bindings(pointer)
    }

    /// Makes the statement ready to run again, keeping what is bound to it: for a caller that binds
    /// every parameter anew (clearing them all first was costly).
    package func resetKeepingBindings() {
        sqlite3_reset(pointer)
    }

    package func bind(_ values: [SQLiteValue]) throws {
        for (offset, value) in values.enumerated() { try bind(value, at: Int32(offset + 1)) }
    }

    /// Binds one value to the parameter at `index` (from 1).
    package func bind(_ value: SQLiteValue, at index: Int32) throws {
        switch value {
        case .null: try check(sqlite3_bind_null(pointer, index))
        case .integer(let number): try check(sqlite3_bind_int64(pointer, index, number))
        case .real(let number): try check(sqlite3_bind_double(pointer, index, number))
        case .text(let text): try bindText(text, at: index)
        case .blob(let data):
            try data.withUnsafeBytes { buffer in
                try check(
                    sqlite3_bind_blob64(
                        pointer, index, buffer.baseAddress ?? UnsafeRawPointer(bitPattern: 1),
                        sqlite3_uint64(buffer.count), Self.transient))
            }
        }
    }

    /// Binds text to the parameter at `index`: the bytes in place (a short string's on the stack),
    /// not a copy made to end them with a NUL.
    package func bindText(_ text: String, at index: Int32) throws {
        var text = text
        try text.withUTF8 { try bindText(bytes: $0, at: index) }
    }

    /// Binds UTF-8 bytes as text to the parameter at `index`, copied into the parameter's buffer
    /// (``boundTexts``), or by SQLite when they are long.
    package func bindText(bytes: UnsafeBufferPointer<UInt8>, at index: Int32) throws {
        guard bytes.count <= Self.boundTextLimit, index > 0 else {
            let start = UnsafeRawPointer(bytes.baseAddress ?? UnsafePointer(bitPattern: 1)!).assumingMemoryBound(
                to: CChar.self)
            return try check(
                sqlite3_bind_text64(
                    pointer, index, start, sqlite3_uint64(bytes.count), Self.transient, UInt8(SQLITE_UTF8)))
        }
        let slot = Int(index)
        if slot >= boundTexts.count { boundTexts += repeatElement(nil, count: slot + 1 - boundTexts.count) }
        if (boundTexts[slot]?.count ?? -1) < bytes.count {
            // The old buffer goes before SQLite is given the new one, which it is next: it reads
            // a bound value only when the statement steps.
            boundTexts[slot]?.deallocate()
            boundTexts[slot] = .allocate(byteCount: max(64, bytes.count * 2), alignment: 1)
        }
        let buffer = boundTexts[slot]!
        if let source = bytes.baseAddress { buffer.baseAddress!.copyMemory(from: source, byteCount: bytes.count) }
        try check(
            sqlite3_bind_text64(
                pointer, index, buffer.baseAddress!.assumingMemoryBound(to: CChar.self), sqlite3_uint64(bytes.count),
                nil, UInt8(SQLITE_UTF8)))
    }

    private func check(_ status: Int32) throws {
        guard status == SQLITE_OK else { throw database.storeError(database.lastError) }
    }

    /// Steps once: `true` while there is a row to read.
    package func step() throws -> Bool {
        switch sqlite3_step(pointer) {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default: throw database.storeError(database.lastError)
        }
    }

    /// Runs the statement to completion.
    package func run(_ values: [SQLiteValue]) throws {
        reset()
        try bind(values)
        while try step() {}
    }

    /// Runs the statement to completion with the values bound to it (``resetKeepingBindings()`` keeps them from run to run).
    package func runBound() throws {
        while try step() {}
    }

    /// How many columns the statement's rows have.
    package var columnCount: Int32 { sqlite3_column_count(pointer) }

    package func row() -> [SQLiteValue] {
        (0..<sqlite3_column_count(pointer)).map(column)
    }

    /// The storage class of a column of the current row: `SQLITE_INTEGER`, `SQLITE_TEXT`, ….
    package func columnType(_ index: Int32) -> Int32 { sqlite3_column_type(pointer, index) }

    package func int64(_ index: Int32) -> Int64 { sqlite3_column_int64(pointer, index) }

    package func double(_ index: Int32) -> Double { sqlite3_column_double(pointer, index) }

    /// A text or blob column's bytes, valid until the next step. Read as a blob: SQLite then hands
    /// out the bytes where they lie, where asking for text first copies them to end them with a NUL.
    package func textBytes(_ index: Int32) -> UnsafeBufferPointer<UInt8> {
        let start = sqlite3_column_blob(pointer, index)?.assumingMemoryBound(to: UInt8.self)
        return UnsafeBufferPointer(start: start, count: Int(sqlite3_column_bytes(pointer, index)))
    }

    package func column(_ index: Int32) -> SQLiteValue {
        switch sqlite3_column_type(pointer, index) {
        case SQLITE_INTEGER: return .integer(sqlite3_column_int64(pointer, index))
        case SQLITE_FLOAT: return .real(sqlite3_column_double(pointer, index))
        case SQLITE_TEXT:
            let count = Int(sqlite3_column_bytes(pointer, index))
            guard count > 0, let bytes = sqlite3_column_text(pointer, index) else { return .text("") }
            return .text(String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self))
        case SQLITE_BLOB:
            let count = Int(sqlite3_column_bytes(pointer, index))
            guard count > 0, let bytes = sqlite3_column_blob(pointer, index) else { return .blob(Data()) }
            return .blob(Data(bytes: bytes, count: count))
        default: return .null
        }
    }
}
