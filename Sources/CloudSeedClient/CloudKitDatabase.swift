package import CloudSeed
package import Foundation

/// A database of a CloudKit container as Web Services name it:
/// `{endpoint}/database/1/{container}/{environment}/{database}/…`.
package struct CloudKitDatabase: Sendable {
    /// Apple's CloudKit Web Services.
    package static let appleEndpoint = URL(string: "https://api.apple-cloudkit.com")!

    package var endpoint: URL
    package var container: String
    package var environment: ContainerEnvironment
    package var database: DatabaseScope

    package init(endpoint: URL, container: String, environment: ContainerEnvironment, database: DatabaseScope) {
        self.endpoint = endpoint
        self.container = container
        self.environment = environment
        self.database = database
    }

    /// The path of an operation, as a request is signed with it: `/database/1/…/records/modify`.
    package func subpath(_ operation: String) -> String {
        "/database/1/\(container)/\(environment.rawValue)/\(database.rawValue)/\(operation)"
    }

    /// What the store's journal notes this database under, for `push` or `pull`.
    package func journalTarget(_ command: String) -> String {
        var endpoint = endpoint.absoluteString
        while endpoint.hasSuffix("/") { endpoint.removeLast() }
        return "\(command) \(endpoint)\(subpath("").dropLast())"
    }
}
