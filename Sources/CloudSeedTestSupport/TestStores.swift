package import CloudSeed
import Foundation

/// The backends store tests run against: SQLite always, PostgreSQL when
/// `CLOUDSEED_TEST_POSTGRES_URL` names a server.
public enum BackendKind: String, Sendable, CaseIterable, CustomStringConvertible {
    case sqlite, postgres

    /// The backends this machine can test.
    public static var testable: [BackendKind] { TestPostgresServer.url == nil ? [.sqlite] : [.sqlite, .postgres] }

    public var description: String { rawValue }
}

/// The PostgreSQL server tests use, named by `CLOUDSEED_TEST_POSTGRES_URL`
/// (`postgres://USER@127.0.0.1:5432/postgres`: a user who may create databases).
public enum TestPostgresServer {
    public static let url = ProcessInfo.processInfo.environment["CLOUDSEED_TEST_POSTGRES_URL"].flatMap {
        $0.isEmpty ? nil : $0
    }

    public static var isAvailable: Bool { url != nil }

    /// Why PostgreSQL tests are skipped, for the test report.
    public static let skipReason =
        "CLOUDSEED_TEST_POSTGRES_URL is not set; set it to a server's URL (as .ci/run does) to run the PostgreSQL tests"
}

/// A fresh database on the test server for one test, dropped when the value is released, so that
/// tests run in parallel without meeting.
public final class TestPostgresDatabase: @unchecked Sendable {
    /// The database's URL, as `--store` takes it.
    public let url: String
    private let name: String
    private let admin: PostgresConnection

    public init() throws {
        guard let server = TestPostgresServer.url, var components = URLComponents(string: server) else {
            throw CloudSeedError(.storeFailure, TestPostgresServer.skipReason)
        }
        admin = try PostgresConnection(url: server)
        name = "cloudseed_test_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
        try admin.execute("CREATE DATABASE \(name)")
        components.path = "/" + name
        url = components.string ?? server
    }

    deinit { try? admin.execute("DROP DATABASE IF EXISTS \(name) WITH (FORCE)") }

    /// Runs `sql` on the server (connected to the server URL's database, not this one), for tests
    /// that watch other sessions: `pg_stat_activity`, `pg_locks`.
    public func serverRows(_ sql: String) throws -> [[String?]] { try admin.rows(sql) }

    /// This database's name, as `pg_stat_activity.datname` shows it.
    public var databaseName: String { name }
}

/// A new, empty store of one backend for one test, with its folder; both removed when released.
public final class TestStore: @unchecked Sendable {
    public let backend: BackendKind
    public let folder: TemporaryFolder
    /// What `--store` takes to name this store.
    public let location: String
    private let database: TestPostgresDatabase?

    public init(_ backend: BackendKind, folder: TemporaryFolder? = nil, name: String = "store.sqlite") throws {
        self.backend = backend
        self.folder = try folder ?? TemporaryFolder()
        switch backend {
        case .sqlite:
            database = nil
            location = self.folder.path(name)
        case .postgres:
            let database = try TestPostgresDatabase()
            self.database = database
            location = database.url
        }
    }

    /// Opens the store (each call a new connection or file handle).
    package func open() throws -> any StoreBackend { try StoreLocation(location).open() }
}
