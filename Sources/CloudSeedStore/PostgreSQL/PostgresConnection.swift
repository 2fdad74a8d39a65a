import CPostgres
package import CloudSeedCore
import Foundation

/// One libpq connection to a PostgreSQL server: the single owner of its statements and transactions.
///
/// Values travel in PostgreSQL's text format, always as parameters (never spliced into SQL);
/// a value is `nil` for SQL NULL. Work given to ``inBackground(_:)`` runs on a thread of its own
/// while the caller goes on; every other use of the connection first waits for it, so the
/// connection is only ever used by one thread at a time (hence `@unchecked Sendable`).
package final class PostgresConnection: @unchecked Sendable {
    private let handle: OpaquePointer
    /// Runs background work, one job at a time.
    private let background = DispatchQueue(label: "cloudseed.postgres.background")
    private static let backgroundKey = DispatchSpecificKey<Bool>()
    /// The error of the last background job, thrown by the next use of the connection.
    private var backgroundFailure: (any Error)?
    /// Prepared statement names by SQL text, for the life of the session.
    private var prepared: [String: String] = [:]
    /// The copy ``streamCopy(_:header:rows:trailer:)`` left open for more rows: its statement and
    /// what ends its data.
    private var openCopy: (sql: String, trailer: [UInt8])?
    /// Names of the cursors opened by ``forEachRow(_:_:body:)``, so nested reads do not collide.
    private var cursorCount = 0
    /// The oldest server version cloudseed uses, as `PQserverVersion` gives it: 14.0.
    package static let oldestServer: Int32 = 140_000
    /// The server as a user may see it: the URL without its password.
    package let location: String

    /// Connects with a `postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE` URL.
    package init(url: String) throws {
        location = PostgresConnection.redacted(url)
        guard let handle = PQconnectdb(url) else {
            throw CloudSeedError(.storeFailure, "cannot connect to the PostgreSQL store at \(location): out of memory")
        }
        self.handle = handle
        background.setSpecific(key: Self.backgroundKey, value: true)
        guard PQstatus(handle) == CONNECTION_OK else {
            let message = String(cString: PQerrorMessage(handle)).trimmingCharacters(in: .whitespacesAndNewlines)
            throw CloudSeedError(
                .storeFailure,
                "cannot connect to the PostgreSQL store at \(location): \(message); check that the server is running there and that the user, password and database in \(option: .store) are right"
            )
        }
        let version = PQserverVersion(handle)
        guard version >= Self.oldestServer else {
            throw CloudSeedError(
                .storeFailure,
                "the PostgreSQL server at \(location) runs version \(version / 10_000); cloudseed needs 14 or later (for generated search columns and row range scans), so upgrade it or use a SQLite store"
            )
        }
        PQsetNoticeProcessor(handle, { _, _ in }, nil)
        try execute(
            "SET client_encoding = 'UTF8'; SET TimeZone = 'UTC'; SET DateStyle = 'ISO'; SET extra_float_digits = 1")
    }

    deinit { PQfinish(handle) }

    /// `url` with any password replaced by `***`, for messages.
    package static func redacted(_ url: String) -> String {
        guard var components = URLComponents(string: url), components.password != nil else { return url }
        components.password = "***"
        return components.string ?? url
    }

    /// Runs `job` on the connection's own thread and returns at once, so that the server stores one
    /// `COPY` batch while the caller prepares the next. The next use of the connection waits for the
    /// job and throws its error.
    package func inBackground(_ job: @escaping @Sendable (PostgresConnection) throws -> Void) throws {
        try awaitJob()
        background.async { [self] in
            do {
                try job(self)
            } catch {
                backgroundFailure = error
            }
        }
    }

    /// Waits for the background job, if any, and ends the copy it left open, if any; throws the
    /// job's error, else the copy's. Every statement waits so; jobs themselves never wait.
    private func awaitBackground() throws {
        let failure = Result { try awaitJob() }
        let copyFailure = Result { try endOpenCopy() }
        try failure.get()
        try copyFailure.get()
    }

    /// Waits for the background job, if any, and throws its error, leaving its copy open.
    private func awaitJob() throws {
        guard DispatchQueue.getSpecific(key: Self.backgroundKey) == nil else { return }
        background.sync {}
        if let failure = backgroundFailure {
            backgroundFailure = nil
            throw failure
        }
    }

    /// Runs SQL that returns no rows (one or several statements, no parameters).
    package func execute(_ sql: String) throws {
        try awaitBackground()
        let result = PQexec(handle, sql)
        defer { PQclear(result) }
        try check(result)
    }

    /// Runs `sql` with `parameters` (`$1`, `$2`…) as a statement prepared once per SQL text, returning every row.
    @discardableResult
    package func rows(_ sql: String, _ parameters: [String?] = []) throws -> [[String?]] {
        let result = try run(sql, parameters)
        defer { PQclear(result) }
        return Self.rows(of: result)
    }

    /// The first column of the first row `sql` returns; `nil` when there is none or it is NULL.
    package func value(_ sql: String, _ parameters: [String?] = []) throws -> String? {
        try rows(sql, parameters).first?.first ?? nil
    }

    /// Runs `sql` through a cursor inside the current transaction, calling `body` with each row and
    /// fetching `batch` rows at a time, so that memory holds one batch. `body` may run other statements.
    package func forEachRow(
        _ sql: String, _ parameters: [String?] = [], batch: Int = 2_000, body: ([String?]) throws -> Void
    ) throws {
        try awaitBackground()
        cursorCount += 1
        let cursor = "cloudseed_cursor_\(cursorCount)"
        defer { cursorCount -= 1 }
        let declared = try run("DECLARE \(cursor) NO SCROLL CURSOR FOR \(sql)", parameters, prepare: false)
        PQclear(declared)
        defer { try? execute("CLOSE \(cursor)") }
        while true {
            let result = PQexec(handle, "FETCH \(batch) FROM \(cursor)")
            defer { PQclear(result) }
            try check(result)
            let rows = Self.rows(of: result)
            for row in rows { try body(row) }
            if rows.count < batch { return }
        }
    }

    /// Sends `data` to the `COPY … FROM STDIN` that `sql` starts, and ends the copy.
    package func copy(_ sql: String, _ data: ArraySlice<UInt8>) throws {
        try startCopy(sql)
        try putCopyData(data)
        try endCopy()
    }

    /// Sends `rows` into the `COPY … FROM STDIN` that `sql` starts, and leaves the copy open: the
    /// next rows sent with the same `sql` go on in it, and any other use of the connection first
    /// ends it with `trailer`. A copy opened is started with `header`. The server stores the rows
    /// as they come, while the caller prepares the next: a bulk insert's batches flow as one copy,
    /// where a copy of its own for each batch left the server idle until the whole batch was there.
    package func streamCopy(_ sql: String, header: [UInt8], rows: ArraySlice<UInt8>, trailer: [UInt8]) throws {
        if openCopy?.sql != sql {
            try startCopy(sql)
            openCopy = (sql, trailer)
            try putCopyData(header[...])
        }
        try putCopyData(rows)
    }

    /// Starts the `COPY … FROM STDIN` that `sql` is, once the work before it is done.
    private func startCopy(_ sql: String) throws {
        try awaitBackground()
        lastSQLState = nil
        let started = PQexec(handle, sql)
        defer { PQclear(started) }
        guard PQresultStatus(started) == PGRES_COPY_IN else {
            try check(started)
            throw storeError("\(sql) did not start a copy")
        }
    }

    /// Ends the copy ``streamCopy(_:header:rows:trailer:)`` left open, if any, and throws the
    /// server's error about its rows, if any.
    private func endOpenCopy() throws {
        guard let (_, trailer) = openCopy.take() else { return }
        try putCopyData(trailer[...])
        try endCopy()
    }

    private func putCopyData(_ data: ArraySlice<UInt8>) throws {
        let sent = data.withUnsafeBufferPointer { buffer in
            buffer.baseAddress.map { base in
                base.withMemoryRebound(to: CChar.self, capacity: buffer.count) {
                    PQputCopyData(handle, $0, Int32(buffer.count))
                }
            } ?? 1
        }
        guard sent == 1 else { throw storeError(lastError) }
    }

    /// Ends the copy in progress and throws the server's error about its rows, if any.
    private func endCopy() throws {
        guard PQputCopyEnd(handle, nil) == 1 else { throw storeError(lastError) }
        var failure: CloudSeedError?
        while let result = PQgetResult(handle) {
            if failure == nil { failure = checked(result) }
            PQclear(result)
        }
        if let failure { throw failure }
    }

    /// Runs `body` in one transaction: all of it is kept, or none of it. A killed client never
    /// commits, so the server keeps the store as it was.
    package func transaction<T>(_ body: () throws -> T) throws -> T {
        try execute("BEGIN")
        do {
            let result = try body()
            try execute("COMMIT")
            return result
        } catch {
            try? awaitBackground()
            try? execute("ROLLBACK")
            throw error
        }
    }

    /// Whether a transaction is open on the connection, once the background job, if any, is done.
    package func isInTransaction() throws -> Bool {
        try awaitBackground()
        return PQtransactionStatus(handle) != PQTRANS_IDLE
    }

    /// The SQLSTATE of the last statement that failed on the server, as `23505` for a unique violation.
    package private(set) var lastSQLState: String?

    private var lastError: String {
        String(cString: PQerrorMessage(handle)).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    package func storeError(_ message: String) -> CloudSeedError {
        CloudSeedError(.storeFailure, "PostgreSQL store error: \(message)", at: SourcePosition(file: location))
    }

    private func run(_ sql: String, _ parameters: [String?], prepare: Bool = true) throws -> OpaquePointer? {
        try awaitBackground()
        var storage = parameters.map { $0.map { strdup($0) } ?? nil }
        defer { for value in storage { free(value) } }
        let result: OpaquePointer? = try storage.withUnsafeMutableBufferPointer { buffer in
            let values = UnsafeRawPointer(buffer.baseAddress)?.assumingMemoryBound(to: UnsafePointer<CChar>?.self)
            guard prepare else {
                return PQexecParams(handle, sql, Int32(parameters.count), nil, values, nil, nil, 0)
            }
            let name = try statementName(sql, parameterCount: parameters.count)
            return PQexecPrepared(handle, name, Int32(parameters.count), values, nil, nil, 0)
        }
        do {
            try check(result)
        } catch {
            PQclear(result)
            throw error
        }
        return result
    }

    private func statementName(_ sql: String, parameterCount: Int) throws -> String {
        if let name = prepared[sql] { return name }
        let name = "cloudseed_\(prepared.count + 1)"
        let result = PQprepare(handle, name, sql, Int32(parameterCount), nil)
        defer { PQclear(result) }
        try check(result)
        prepared[sql] = name
        return name
    }

    private func check(_ result: OpaquePointer?) throws {
        if let failure = checked(result) { throw failure }
    }

    private func checked(_ result: OpaquePointer?) -> CloudSeedError? {
        switch PQresultStatus(result) {
        case PGRES_COMMAND_OK, PGRES_TUPLES_OK, PGRES_COPY_IN, PGRES_EMPTY_QUERY: return nil
        default:
            let message =
                result.flatMap { PQresultErrorField($0, Int32(UInt8(ascii: "M"))) }.map { String(cString: $0) }
                ?? lastError
            let state =
                result.flatMap { PQresultErrorField($0, Int32(UInt8(ascii: "C"))) }.map { String(cString: $0) } ?? ""
            lastSQLState = state
            return storeError(message)
        }
    }

    private static func rows(of result: OpaquePointer?) -> [[String?]] {
        let count = PQntuples(result)
        let columns = PQnfields(result)
        var rows: [[String?]] = []
        rows.reserveCapacity(Int(count))
        for row in 0..<count {
            rows.append(
                (0..<columns).map { column in
                    guard PQgetisnull(result, row, column) == 0, let value = PQgetvalue(result, row, column) else {
                        return nil
                    }
                    return String(cString: value)
                })
        }
        return rows
    }
}
