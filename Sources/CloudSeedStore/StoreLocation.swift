/// Where a store is: a SQLite file (a path, or `sqlite:PATH`) or a PostgreSQL database
/// (`postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE`).
///
/// ```swift
/// let store = try StoreLocation("postgres://seed@localhost:5432/cloudseed").open()
/// ```
package enum StoreLocation: Hashable, Sendable, CustomStringConvertible {
    case sqlite(path: String)
    case postgres(url: String)

    /// Reads a store's name: `postgres://` or `postgresql://` URLs are PostgreSQL, anything else a SQLite path.
    package init(_ text: String) {
        if text.hasPrefix("postgres://") || text.hasPrefix("postgresql://") {
            self = .postgres(url: text)
        } else if text.hasPrefix("sqlite:") {
            self = .sqlite(path: String(text.dropFirst("sqlite:".count)))
        } else {
            self = .sqlite(path: text)
        }
    }

    /// The path, or the URL without its password: what messages show.
    package var description: String {
        switch self {
        case .sqlite(let path): path
        case .postgres(let url): PostgresConnection.redacted(url)
        }
    }

    /// The SQLite file's path; `nil` for a server.
    package var path: String? {
        if case .sqlite(let path) = self { return path }
        return nil
    }

    /// Opens the store, creating an empty one if there is none.
    package func open() throws -> any StoreBackend {
        switch self {
        case .sqlite(let path): try SQLiteContainerStore(path: path)
        case .postgres(let url): try PostgresContainerStore(url: url)
        }
    }
}
