import CloudKitWire
import CloudSeed
import Crypto
import Foundation

/// Who may call the server, as CloudKit checks it: an API token (`ckAPIToken`, with
/// `ckWebAuthToken` for a signed-in user) where the server has one, or a server-to-server key's
/// signature where the server has its public half. Without either configured, every request is
/// taken as the store's default user, as a local development server may. With either, the private
/// and shared databases, and writes to the public one, need a signed-in user (a web auth token, as
/// the server's sign-in page gives), as on CloudKit, where server-to-server keys reach the public
/// database only.
struct RequestAuthentication: Sendable {
    var apiToken: String?
    /// The server-to-server public key, as its X9.63 bytes (the key type is not `Sendable`).
    var serverKey: Data?
    /// The key ID server-to-server requests must give, where the server was told one.
    var serverKeyID: String?
    /// The user a request acts as when it names none.
    var defaultUser: String
    /// The server's clock, in milliseconds since 1970, that a signed request's date is checked against.
    var now: @Sendable () -> Int64

    /// How far a signed request's date may be from the server's clock: 10 minutes (CloudKit
    /// refuses stale dates without publishing its allowance).
    static let allowedClockSkew: Int64 = 10 * 60 * 1000

    /// What a request carries to prove who sends it.
    struct Credentials {
        var apiToken: String?
        var webAuthToken: String?
        var keyID: String?
        var date: String?
        var signature: String?
    }

    /// The user the request acts as, or AUTHENTICATION_FAILED. As on CloudKit, a request needs a
    /// signed-in user where it asks the private or shared `database`, or `writes` (to the public
    /// one, or keeps something for its user); without one it is answered AUTHENTICATION_REQUIRED,
    /// with `signInURL` as its `redirectURL` where an API token could carry the user.
    func user(
        for credentials: Credentials, body: [UInt8], subpath: String, database: DatabaseScope? = nil,
        writes: Bool = false, signInURL: String? = nil
    ) throws -> String {
        // A user's own database, which needs the user signed in.
        let userDatabase = database.flatMap { $0 == .public ? nil : $0 }
        if credentials.keyID != nil || credentials.signature != nil {
            try verifySignature(credentials, body: body, subpath: subpath)
            if let userDatabase {
                throw ServerError(
                    .authenticationRequired,
                    "server-to-server keys reach the public database only; the \(userDatabase.rawValue) database needs a signed-in user: ckAPIToken with ckWebAuthToken"
                )
            }
            return defaultUser
        }
        if let given = credentials.apiToken {
            guard let apiToken else {
                throw ServerError(
                    .authenticationFailed, "this server takes no API token; start it with an API token to accept one")
            }
            guard given == apiToken else { throw ServerError(.authenticationFailed, "the API token is not valid") }
            guard let webAuthToken = credentials.webAuthToken, !webAuthToken.isEmpty else {
                guard userDatabase != nil || writes else { return defaultUser }
                let what = userDatabase.map { "the \($0.rawValue) database" } ?? "writing to the public database"
                var error = ServerError(
                    .authenticationRequired,
                    "\(what) needs a signed-in user: sign in at the redirectURL and add the ckWebAuthToken it gives beside ckAPIToken"
                )
                error.redirectURL = signInURL
                throw error
            }
            return Self.userRecordName(forWebAuthToken: webAuthToken)
        }
        guard apiToken == nil, serverKey == nil else {
            throw ServerError(
                .authenticationFailed,
                "the request has neither ckAPIToken nor a server-to-server signature, which this server requires")
        }
        return defaultUser
    }

    /// Checks `X-Apple-CloudKit-Request-SignatureV1`: base64 of the DER ECDSA P-256 SHA-256
    /// signature of `date:base64(sha256(body)):subpath`.
    private func verifySignature(_ credentials: Credentials, body: [UInt8], subpath: String) throws {
        guard let serverKey else {
            throw ServerError(
                .authenticationFailed,
                "this server has no server-to-server key; start it with a server-to-server key to accept signed requests"
            )
        }
        guard credentials.keyID?.isEmpty == false, let date = credentials.date,
            let signatureText = credentials.signature
        else {
            throw ServerError(
                .authenticationFailed,
                "a server-to-server request needs the headers \(ServerToServerSignature.keyIDHeader), \(ServerToServerSignature.dateHeader) and \(ServerToServerSignature.signatureHeader)"
            )
        }
        guard date.utf8.count == 20, date.hasSuffix("Z"), let signed = Timestamp.parse(date) else {
            throw ServerError(
                .authenticationFailed,
                "the request's date '\(date)' is not an ISO 8601 date in UTC without fractions, as 2026-01-02T03:04:05Z"
            )
        }
        guard abs(signed - now()) <= Self.allowedClockSkew else {
            throw ServerError(
                .authenticationFailed,
                "the request's date \(date) is more than 10 minutes from the server's clock (\(Timestamp.formatSeconds(now()) ?? "")); sign each request with the current time"
            )
        }
        if let serverKeyID, credentials.keyID != serverKeyID {
            throw ServerError(
                .authenticationFailed, "the key ID '\(credentials.keyID ?? "")' is not the one this server takes")
        }
        let message = ServerToServerSignature.message(date: date, body: body, subpath: subpath)
        guard let der = Data(base64Encoded: signatureText),
            let serverKey = try? P256.Signing.PublicKey(x963Representation: serverKey),
            let signature = try? P256.Signing.ECDSASignature(derRepresentation: der),
            serverKey.isValidSignature(signature, for: message)
        else {
            throw ServerError(.authenticationFailed, "the request's signature does not verify with the server key")
        }
    }

    /// The user record name of a web auth token: stable for the token, shaped as CloudKit's (`_` and
    /// 32 hex digits). The sign-in page's token for a user is the user's name, so a user signs in
    /// to the same records every time.
    static func userRecordName(forWebAuthToken token: String) -> String {
        "_" + SHA256.hexDigest(of: Data(token.utf8)).prefix(32)
    }
}
