import CloudKitWire
import CloudSeed
import Crypto
package import Foundation

/// How requests prove who sends them: a server-to-server key, whose private half signs each
/// request, or an API token (with a web auth token for a signed-in user). Never printed.
package enum CloudKitCredentials: Sendable {
    /// A server-to-server key: its key ID and the P-256 private key's raw bytes.
    case serverKey(id: String, privateKey: Data)
    case apiToken(String, webAuthToken: String?)

    /// A server-to-server key from the PEM text of its EC private key (as
    /// `openssl ecparam -name prime256v1 -genkey -noout` writes it).
    package static func serverKey(id: String, pem: String) throws -> CloudKitCredentials {
        guard let key = try? P256.Signing.PrivateKey(pemRepresentation: pem) else {
            throw ClientError(
                .invalidKey,
                "the key file is not a PEM P-256 private key; make one with openssl ecparam -name prime256v1 -genkey -noout -out eckey.pem"
            )
        }
        return .serverKey(id: id, privateKey: key.rawRepresentation)
    }

    /// The query items a request's URL carries: the tokens, for API-token requests.
    var queryItems: [URLQueryItem] {
        guard case .apiToken(let token, let webAuthToken) = self else { return [] }
        return [URLQueryItem(name: "ckAPIToken", value: token)]
            + (webAuthToken.map { [URLQueryItem(name: "ckWebAuthToken", value: $0)] } ?? [])
    }

    /// The headers a request carries: the signature of server-to-server requests, over
    /// `date:base64(sha256(body)):subpath`.
    func headers(body: Data, subpath: String, date: Date) throws -> [String: String] {
        guard case .serverKey(let id, let raw) = self else { return [:] }
        let dateText = Self.iso8601(date)
        let signature = try P256.Signing.PrivateKey(rawRepresentation: raw).signature(
            for: ServerToServerSignature.message(date: dateText, body: body, subpath: subpath))
        return [
            ServerToServerSignature.keyIDHeader: id, ServerToServerSignature.dateHeader: dateText,
            ServerToServerSignature.signatureHeader: signature.derRepresentation.base64EncodedString(),
        ]
    }

    /// `2026-01-02T03:04:05Z`: UTC, without fractional seconds, as CloudKit takes it.
    static func iso8601(_ date: Date) -> String {
        Timestamp.formatSeconds(Int64((date.timeIntervalSince1970 * 1000).rounded(.down))) ?? ""
    }
}
