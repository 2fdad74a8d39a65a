/// A push or pull that cannot go on: the message says what failed and what to do. It never holds
/// a key or a token.
package struct ClientError: Error, CustomStringConvertible {
    package var description: String

    package init(_ message: String) {
        description = message
    }
}
