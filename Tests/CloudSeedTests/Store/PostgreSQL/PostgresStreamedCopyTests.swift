import CloudSeedTestSupport
import Testing

@testable import CloudSeed
@testable import CloudSeedCore
@testable import CloudSeedReaders
@testable import CloudSeedSchema
@testable import CloudSeedStore

/// A copy left open for more rows (``PostgresConnection/streamCopy(_:header:rows:trailer:)``): its
/// rows go on in one `COPY` until another statement ends it, and its failure undoes the run.
@Suite struct PostgresStreamedCopyTests {
    private static let copy = "COPY t (n) FROM STDIN WITH (FORMAT binary)"

    /// `numbers` as rows of one `bigint` (or NULL) in `COPY`'s binary format, without header or trailer.
    private static func rows(_ numbers: [Int64?]) -> ArraySlice<UInt8> {
        var bytes: [UInt8] = []
        for number in numbers {
            var row = PostgresBinaryRow(fieldCount: 1, appendingTo: &bytes)
            if let number { row.appendInt64(number) } else { row.appendNull() }
            row.giveBack(to: &bytes)
        }
        return bytes[...]
    }

    private static func send(_ numbers: [Int64?], on connection: PostgresConnection) throws {
        let rows = rows(numbers)
        try connection.inBackground {
            try $0.streamCopy(copy, header: PostgresBinaryRow.header, rows: rows, trailer: PostgresBinaryRow.trailer)
        }
    }

    @Test(.enabled(if: TestPostgresServer.isAvailable, Comment(rawValue: TestPostgresServer.skipReason)))
    func rowsSentInPiecesGoOnInOneCopyUntilAnotherStatementEndsIt() throws {
        let testStore = try TestStore(.postgres)
        let connection = try PostgresConnection(url: testStore.location)
        try connection.execute("CREATE TABLE t (n bigint NOT NULL)")
        try connection.transaction {
            try Self.send([1, 2], on: connection)
            try Self.send([3], on: connection)
            #expect(try connection.rows("SELECT n FROM t ORDER BY n") == [["1"], ["2"], ["3"]])
            // The statement ended the copy: the next rows open another.
            try Self.send([4], on: connection)
        }
        #expect(try connection.rows("SELECT count(*), sum(n) FROM t") == [["4", "10"]])
    }

    @Test(.enabled(if: TestPostgresServer.isAvailable, Comment(rawValue: TestPostgresServer.skipReason)))
    func aStreamedRowTheServerRefusesFailsTheCommitAndLeavesNothing() throws {
        let testStore = try TestStore(.postgres)
        let connection = try PostgresConnection(url: testStore.location)
        try connection.execute("CREATE TABLE t (n bigint NOT NULL)")
        #expect(
            throws: connection.storeError("null value in column \"n\" of relation \"t\" violates not-null constraint")
        ) {
            try connection.transaction {
                try Self.send([1], on: connection)
                try Self.send([nil], on: connection)
            }
        }
        #expect(try connection.isInTransaction() == false)
        #expect(try connection.rows("SELECT count(*) FROM t") == [["0"]])
    }
}
