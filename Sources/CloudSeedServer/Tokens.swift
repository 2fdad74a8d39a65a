import CloudKitWire
import CloudSeed
import Crypto
import Foundation
import ServiceLifecycle

/// `tokens/create` and `tokens/register`, and the webcourier URL a token's notifications are
/// long-polled from, one notification per answer.
enum Tokens {
    /// Where the server answers a token's polls: `/webcourier/{apnsToken}`.
    static let webcourierPath = "webcourier"
    /// How long a poll waits for a notification when it does not say (`?timeout=SECONDS`), and the most it may.
    static let defaultWait = 30.0
    static let longestWait = 120.0

    /// `{apnsEnvironment}` → `{apnsEnvironment, apnsToken, webcourierURL}`: a new token of the request's user.
    static func create(_ request: TokenRequest, _ notifications: Notifications, store: ContainerStore) throws -> String
    {
        let token = SHA256.hexDigest(of: Data(UUID().uuidString.utf8))
        try notifications.register(token, for: request.subscriber, store: store)
        return answer(request, token: token)
    }

    /// `{apnsEnvironment, apnsToken}`: the token given, registered for the request's user.
    static func register(_ request: TokenRequest, _ notifications: Notifications, store: ContainerStore) throws
        -> String
    {
        guard let token = try request.json()["apnsToken"]?.string, !token.isEmpty else {
            throw ServerError(.badRequest, "the request needs apnsToken, as tokens/create answers it")
        }
        try notifications.register(token, for: request.subscriber, store: store)
        return answer(request, token: token)
    }

    private static func answer(_ request: TokenRequest, token: String) -> String {
        JSONText.object([
            ("apnsEnvironment", JSONText.quoted((try? request.json()["apnsEnvironment"]?.string) ?? "development")),
            ("apnsToken", JSONText.quoted(token)),
            ("webcourierURL", JSONText.quoted("\(request.baseURL)/\(webcourierPath)/\(token)")),
        ])
    }

    /// The next notification of `token`, waiting for one for at most `seconds`; `{}` when none came.
    static func poll(_ token: String, seconds: Double, notifications: Notifications, worker: StoreWorker)
        async throws -> String
    {
        guard notifications.knows(token) else {
            throw ServerError(.notFound, "no device has the token '\(token)'; make one with tokens/create")
        }
        let deadline = Date().addingTimeInterval(min(max(seconds, 0), longestWait))
        while true {
            if let next = try await worker.run({ try notifications.next(for: token, store: $0) }) { return next }
            // A server asked to stop answers its polls at once rather than keep them to the end.
            guard Date() < deadline, !Task.isShuttingDownGracefully else { return "{}" }
            try await Task.sleep(nanoseconds: 200_000_000)
        }
    }
}

/// A `tokens/…` request: the container environment and user it registers a device for.
struct TokenRequest: Sendable {
    var subscriber: Notifications.Subscriber
    var body: [UInt8]
    var baseURL: String

    /// The request under `/database/1/{container}/{environment}/{database}/tokens/…`.
    init(_ request: DatabaseRequest) {
        subscriber = Subscriptions.subscriber(request)
        body = request.body
        baseURL = request.baseURL
    }

    /// The request under `/database/1/{container}/{environment}/tokens/…` or `/device/1/…`.
    init(container: String, environment: String, user: String, body: [UInt8], baseURL: String) throws {
        guard let environment = ContainerEnvironment(rawValue: environment) else {
            throw ServerError(.badRequest, "unknown environment '\(environment)'; use development or production")
        }
        subscriber = Notifications.Subscriber(container: container, environment: environment, user: user)
        self.body = body
        self.baseURL = baseURL
    }

    func json() throws -> WebServicesJSON {
        do {
            return try WebServicesJSON(parsing: body)
        } catch let error as CloudSeedError {
            throw ServerError(.badRequest, error.description)
        }
    }
}
