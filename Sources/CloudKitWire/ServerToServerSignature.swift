import Crypto
package import Foundation

/// CloudKit's signature of a server-to-server request: the headers that carry it, and the message
/// the key signs, which the client signs and the server verifies alike.
package enum ServerToServerSignature {
    package static let keyIDHeader = "X-Apple-CloudKit-Request-KeyID"
    package static let dateHeader = "X-Apple-CloudKit-Request-ISO8601Date"
    package static let signatureHeader = "X-Apple-CloudKit-Request-SignatureV1"

    /// The message signed: `date:base64(sha256(body)):subpath`.
    package static func message(date: String, body: some DataProtocol, subpath: String) -> Data {
        Data("\(date):\(Data(SHA256.hash(data: body)).base64EncodedString()):\(subpath)".utf8)
    }
}
