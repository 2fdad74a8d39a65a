import AsyncHTTPClient
package import CloudKitWire
import CloudSeed
package import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL

/// Sends requests to a CloudKit database's Web Services: JSON bodies signed or tokened as
/// CloudKit requires, tried again after `THROTTLED`, `TRY_AGAIN_LATER`, `ZONE_BUSY`, HTTP 429
/// and 503 or a lost connection, as ``RetryPolicy`` says. Errors never hold a key, a token or a
/// URL that carries one.
package final class WebServicesClient: @unchecked Sendable {
    package let database: CloudKitDatabase
    private let credentials: CloudKitCredentials
    package let retry: RetryPolicy
    /// How many requests were sent, tries again included.
    package var requests: Int { lock.withLock { sent } }
    /// How many requests were tried again.
    package var retries: Int { lock.withLock { triedAgain } }
    /// Requests go out from several tasks at once.
    private let lock = NSLock()
    private var sent = 0
    private var triedAgain = 0

    package init(database: CloudKitDatabase, credentials: CloudKitCredentials, retry: RetryPolicy = RetryPolicy()) {
        self.database = database
        self.credentials = credentials
        self.retry = retry
    }

    /// The longest an answer may be: an asset's bytes, at most.
    private static let maximumAnswerBytes = 1 << 40
    /// How long a request may wait for its answer: a large asset may take that long.
    private static let timeout = TimeAmount.seconds(300)

    /// POSTs `body` to `operation` (`zones/list`) and returns the answer's JSON.
    package func post(_ operation: String, _ body: String) async throws -> WebServicesJSON {
        try await post(operation, body: Data(body.utf8))
    }

    /// POSTs the JSON `bytes` to `operation` (`zones/modify`) and returns the answer's JSON.
    package func post(_ operation: String, body bytes: Data) async throws -> WebServicesJSON {
        try await post(operation, body: bytes, reading: WebServicesJSON.init(parsing:))
    }

    /// POSTs the JSON `bytes` to `operation` (`records/modify`) and returns what it answered, read
    /// with `read`.
    package func post<Answer>(_ operation: String, body bytes: Data, reading read: ([UInt8]) throws -> Answer)
        async throws -> Answer
    {
        try answer(try await send(operation, body: bytes), database.subpath(operation), reading: read)
    }

    /// POSTs the JSON `bytes` to `operation`; returns the answer's bytes.
    private func send(_ operation: String, body bytes: Data) async throws -> [UInt8] {
        let subpath = database.subpath(operation)
        return try await sending(subpath) {
            var components = URLComponents(
                url: self.database.endpoint.appendingPathComponent(String(subpath.dropFirst())),
                resolvingAgainstBaseURL: false)!
            let items = self.credentials.queryItems
            if !items.isEmpty { components.queryItems = items }
            var request = HTTPClientRequest(url: components.url!.absoluteString)
            request.method = .POST
            request.body = .bytes(ByteBuffer(bytes: bytes))
            request.headers.add(name: "Content-Type", value: "application/json")
            for (name, value) in try self.credentials.headers(body: bytes, subpath: subpath, date: Date()) {
                request.headers.replaceOrAdd(name: name, value: value)
            }
            return request
        }
    }

    /// POSTs an asset's bytes to the URL `assets/upload` gave; returns the answer's JSON.
    package func upload(_ content: Data, to url: URL) async throws -> WebServicesJSON {
        let data = try await sending("the asset upload URL") {
            var request = HTTPClientRequest(url: url.absoluteString)
            request.method = .POST
            request.body = .bytes(ByteBuffer(bytes: content))
            request.headers.add(name: "Content-Type", value: "application/octet-stream")
            return request
        }
        return try answer(data, "the asset upload URL", reading: WebServicesJSON.init(parsing:))
    }

    /// GETs an asset's bytes from its `downloadURL`.
    package func download(_ url: URL) async throws -> Data {
        Data(try await sending("an asset's download URL") { HTTPClientRequest(url: url.absoluteString) })
    }

    /// Sends the request `make` builds until it is answered with 200, trying again what CloudKit
    /// says may be tried again; `what` names the request in errors.
    private func sending(_ what: String, _ make: () throws -> HTTPClientRequest) async throws -> [UInt8] {
        var attempt = 0
        while true {
            let request = try make()
            lock.withLock { sent += 1 }
            let refusal: Refusal
            do {
                let client = HTTPClient.forURL(URL(string: request.url)!)
                let response = try await client.execute(request, timeout: Self.timeout)
                let data = Array(try await response.body.collect(upTo: Self.maximumAnswerBytes).readableBytesView)
                if response.status == .ok { return data }
                refusal = Refusal(status: Int(response.status.code), body: data, redacting: redacted)
            } catch let error as ClientError {
                throw error
            } catch {
                refusal = Refusal(connectionError: error)
            }
            attempt += 1
            guard refusal.isRetryable, attempt < retry.attempts else {
                throw refusal.error(what, attempts: attempt)
            }
            lock.withLock { triedAgain += 1 }
            let delay = retry.delay(beforeRetry: attempt, retryAfter: refusal.retryAfter)
            try await Task.sleep(nanoseconds: UInt64(delay * 1_000_000_000))
        }
    }

    private func answer<Answer>(
        _ data: [UInt8], _ what: String, reading read: ([UInt8]) throws -> Answer
    ) throws -> Answer {
        do {
            return try read(data)
        } catch {
            throw ClientError(.notJSON, "\(what) answered with something that is not JSON")
        }
    }

    /// A server's `message` without the credentials' secrets, should it echo one.
    private func redacted(_ message: String) -> String {
        var message = message
        switch credentials {
        case .apiToken(let token, let webAuthToken):
            for secret in [token, webAuthToken].compactMap({ $0 }) where !secret.isEmpty {
                message = Self.redacting(secret, in: message)
            }
        case .serverKey: break
        }
        return message
    }

    /// `message` with `secret` replaced by `***` wherever it stands as a word of its own, not
    /// inside a longer one: a short token (`--api-token t`) leaves the server's words whole.
    package static func redacting(_ secret: String, in message: String) -> String {
        func isWordCharacter(_ character: Character?) -> Bool {
            character.map { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" } ?? false
        }
        var result = ""
        var rest = message[...]
        while let found = rest.range(of: secret) {
            let before = found.lowerBound > message.startIndex ? message[message.index(before: found.lowerBound)] : nil
            let after = found.upperBound < message.endIndex ? message[found.upperBound] : nil
            result += rest[..<found.lowerBound]
            result += isWordCharacter(before) || isWordCharacter(after) ? secret : "***"
            rest = message[found.upperBound...]
        }
        return result + rest
    }

    /// Why a request was not answered with 200.
    private struct Refusal {
        var status: Int?
        var code: String?
        var reason: String?
        var retryAfter: Double?
        var connectionFailure: String?

        init(status: Int, body: [UInt8], redacting redacted: (String) -> String) {
            self.status = status
            let json = try? WebServicesJSON(parsing: body)
            code = json?["serverErrorCode"]?.string.map(redacted)
            reason = json?["reason"]?.string.map(redacted)
            retryAfter = json?["retryAfter"]?.number
        }

        init(connectionError error: any Error) {
            if let connection = error as? NIOConnectionError,
                let unknown = (connection.dnsAError ?? connection.dnsAAAAError) as? SocketAddressError.UnknownHost,
                unknown.errorCode == Int(EAI_NONAME)
            {
                connectionFailure = "the host name \(unknown.host) is not known (\(unknown.errorDescription))"
                cannotSucceed = true
            } else if let tls = error as? NIOSSLError, case .handshakeFailed(let reason) = tls {
                // BoringSSL's reason ("CERTIFICATE_VERIFY_FAILED"), without where in its sources it arose.
                let names = "\(reason)".matches(of: /OPENSSL_internal:([A-Z0-9_]+)/).map { String($0.output.1) }
                connectionFailure =
                    "the TLS handshake failed (\(names.isEmpty ? "\(reason)" : names.joined(separator: ", ")))"
                cannotSucceed = true
            } else {
                // The system's words for a socket's error ("Connection refused"), else the client's.
                let reason = (error as? IOError).map { String(cString: strerror($0.errnoCode)) } ?? "\(error)"
                connectionFailure = "the connection failed (\(reason))"
            }
        }

        /// Whether the connection failed in a way trying again cannot mend: a host name no
        /// server knows, or a server whose certificate is not trusted; a name server that does
        /// not answer for the moment is tried again.
        private var cannotSucceed = false

        var isRetryable: Bool {
            (connectionFailure != nil && !cannotSucceed) || status == 429 || status == 503
                || code.map(RetryPolicy.retryableCodes.contains) == true
        }

        func error(_ what: String, attempts: Int) -> ClientError {
            let tries = attempts > 1 ? " after \(attempts) tries" : ""
            if let connectionFailure { return ClientError(.unreachable, "\(what): \(connectionFailure)\(tries)") }
            let answer = [code, reason].compactMap { $0 }.joined(separator: ": ")
            let isAuthentication = code == CloudKitErrorCode.authenticationFailed.rawValue || status == 401
            return ClientError(
                isAuthentication ? .notAuthenticated : .refused,
                "\(what) answered HTTP \(status ?? 0)\(answer.isEmpty ? "" : " \(answer)")\(tries)")
        }
    }
}
