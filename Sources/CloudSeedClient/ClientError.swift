/// A push or pull that cannot go on: its code says what kind of failure it is, as
/// ``CloudSeedError``'s does, and its message what failed, in the client's terms; it never holds
/// a key or a token. The command line adds the option that fixes it (`check --zone`).
package struct ClientError: Error, CustomStringConvertible {
    package enum Code: String, Sendable, CaseIterable {
        /// The server has no zone of that name in the database.
        case unknownZone
        /// The store has no such container, environment, database or zone to push.
        case unknownScope
        /// The server could not be reached.
        case unreachable
        /// The server refused the credentials.
        case notAuthenticated
        /// The server refused a request for another reason, after any retries.
        case refused
        /// The server answered with something that is not JSON.
        case notJSON
        /// The server answered JSON that is not what CloudKit Web Services answers.
        case unexpectedAnswer
        /// The server-to-server private key is not a PEM P-256 key.
        case invalidKey
        /// The default zone's records are fetched one record type at a time, and no type is known.
        case recordTypesNeeded
        /// As ``recordTypesNeeded``, where a store with the schema would give the types.
        case recordTypesOrSchemaNeeded
    }

    package var code: Code
    package var message: String

    package init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    package var description: String { message }
}
