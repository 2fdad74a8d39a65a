import CloudKitWire
public import CloudSeed
import Crypto
public import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import ServiceLifecycle

/// CloudKit Web Services over a container store: records (query, lookup, modify, changes), zones,
/// users and assets under `/database/1/{container}/{environment}/{database}/`, answered in
/// CloudKit's JSON with CloudKit's errors, every request one store transaction through the same
/// library the command line uses; and a console in the browser at `/`.
///
/// ```swift
/// let server = try CloudKitServer(store: try ContainerStore("cloudseed.sqlite"))
/// try await server.run()  // http://127.0.0.1:8787
/// ```
public struct CloudKitServer: Sendable {
    public var host: String
    /// The port to listen on; 0 takes any free one (``run(onRunning:)`` tells which).
    public var port: Int
    private let worker: StoreWorker
    private let authentication: CloudKitAuthentication
    /// The users the sign-in page offers.
    private let users: [String]
    private let notifications = Notifications()
    /// The time stamped on saved records and signed requests are checked against, in milliseconds since 1970.
    private let now: @Sendable () -> Int64

    /// A server of `store` on `host`:`port`. With `apiToken`, requests must give it as `ckAPIToken`;
    /// with `serverKey` (a PEM P-256 public key), server-to-server requests signed by its private
    /// half are taken, and with `serverKeyID` only those that give that key ID. `user` is who
    /// requests act as where they name no one; `users` are those the sign-in page offers (any
    /// other name can be signed in as too).
    public init(
        store: ContainerStore, host: String = "127.0.0.1", port: Int = 8787, apiToken: String? = nil,
        serverKey: String? = nil, serverKeyID: String? = nil, user: String = RecordZoneID.defaultOwnerName,
        users: [String] = [],
        now: @escaping @Sendable () -> Int64 = { Int64(Date().timeIntervalSince1970 * 1000) }
    ) throws {
        self.host = host
        self.port = port
        self.users = users
        // A store the server creates is put in place at once (an empty write does it): until then
        // another run (an import beside the server) would wait to create it. A store the server
        // cannot write to is still served for reading.
        try? store.exclusively { try store.backend.write { _ in } }
        // The subscriptions the store keeps (none, where it cannot be read that way).
        try? notifications.load(store: store)
        worker = StoreWorker(store: store)
        let key: Data?
        do {
            key = try serverKey.map { try P256.Signing.PublicKey(pemRepresentation: $0).x963Representation }
        } catch {
            throw CloudSeedError(
                .invalidOption,
                "the server key is not a PEM P-256 public key; make one with openssl ec -in eckey.pem -pubout")
        }
        authentication = CloudKitAuthentication(
            authentication: RequestAuthentication(
                apiToken: apiToken, serverKey: key, serverKeyID: serverKeyID, defaultUser: user, now: now))
        self.now = now
    }

    /// Serves until the task is cancelled or the process gets SIGINT or SIGTERM; `onRunning` is
    /// called with the port once the server listens.
    public func run(onRunning: @escaping @Sendable (Int) async -> Void = { _ in }) async throws {
        let app = Application(
            router: router(),
            configuration: ApplicationConfiguration(address: .hostname(host, port: port), serverName: "cloudseed"),
            onServerRunning: { channel in await onRunning(channel.localAddress?.port ?? 0) })
        let services = ServiceGroup(
            configuration: ServiceGroupConfiguration(
                services: [app], gracefulShutdownSignals: [.sigterm, .sigint], logger: app.logger))
        // A cancelled task stops the server as a signal does, requests in flight answered first:
        // the services run in a task of their own, which the cancellation does not reach.
        try await withTaskCancellationHandler {
            try await Task { try await services.run() }.value
        } onCancel: {
            Task { await services.triggerGracefulShutdown() }
        }
    }

    /// A database endpoint: what it answers to a request, its store work done on the worker.
    private typealias Endpoint = @Sendable (DatabaseRequest, StoreWorker) async throws -> String

    /// An endpoint whose whole answer is made on the worker.
    private static func onStore(_ answer: @escaping @Sendable (DatabaseRequest, ContainerStore) throws -> String)
        -> Endpoint
    {
        { request, worker in try await worker.run { try answer(request, $0) } }
    }

    private func router() -> Router<CloudKitRequestContext> {
        let router = Router(context: CloudKitRequestContext.self)
        // Every answer, an unknown path's included, is CloudKit's JSON.
        router.add(middleware: CloudKitErrors())
        let now = self.now
        let notifications = self.notifications
        // The server's own address as the request reached it, for the URLs it answers with.
        let (host, port) = (self.host, self.port)
        let baseURL: @Sendable (Request) -> String = { request in
            "http://\(request.head.authority ?? "\(host):\(port)")"
        }
        let endpoints: [(String, [HTTPRequest.Method], Endpoint)] = [
            ("records/query", [.post], Self.onStore(RecordsQuery.answer)),
            ("records/lookup", [.post], Self.onStore(RecordsLookup.answer)),
            (
                "records/modify", [.post],
                { request, worker in
                    let answer = try await RecordsModify.answer(request, worker: worker, now: now())
                    try await worker.run { try notifications.scanAll(store: $0) }
                    return answer
                }
            ),
            ("zones/list", [.get, .post], Self.onStore(Zones.list)),
            ("zones/lookup", [.post], Self.onStore(Zones.lookup)),
            ("zones/modify", [.post], Self.onStore(Zones.modify)),
            ("records/changes", [.post], Self.onStore(Changes.records)),
            ("changes/zone", [.post], Self.onStore(Changes.zones)),
            ("zones/changes", [.post], Self.onStore(Changes.zones)),
            ("changes/database", [.post], Self.onStore(Changes.database)),
            ("users/current", [.get, .post], { request, _ in Users.current(request) }),
            ("users/caller", [.get, .post], { request, _ in Users.current(request) }),
            ("assets/upload", [.post], { request, _ in try Assets.tokens(request) }),
            (
                "subscriptions/list", [.get, .post],
                { request, _ in Subscriptions.list(request, notifications: notifications) }
            ),
            (
                "subscriptions/lookup", [.post],
                { request, _ in try Subscriptions.lookup(request, notifications: notifications) }
            ),
            (
                "subscriptions/modify", [.post],
                Self.onStore { try Subscriptions.modify($0, notifications: notifications, store: $1) }
            ),
            ("tokens/create", [.post], Self.onStore { try Tokens.create(TokenRequest($0), notifications, store: $1) }),
            (
                "tokens/register", [.post],
                Self.onStore { try Tokens.register(TokenRequest($0), notifications, store: $1) }
            ),
        ]
        let database = router.group("database/1/:container/:environment/:database")
            .add(middleware: authentication)
        for (path, methods, endpoint) in endpoints {
            for method in methods {
                database.on(RouterPath(path), method: method) { request, context in
                    let databaseRequest = try DatabaseRequest(
                        container: context.parameters.get("container") ?? "",
                        environment: context.parameters.get("environment") ?? "",
                        database: context.parameters.get("database") ?? "", user: context.user, body: context.body,
                        baseURL: baseURL(request))
                    return JSONAnswer(try await endpoint(databaseRequest, worker))
                }
            }
        }
        // Tokens are also made without a database segment, as Apple documents them, and under /device/1/.
        for prefix in ["database/1/:container/:environment", "device/1/:container/:environment"] {
            let group = router.group(RouterPath(prefix)).add(middleware: authentication)
            for (path, action) in [("tokens/create", Tokens.create), ("tokens/register", Tokens.register)] {
                group.post(RouterPath(path)) { request, context in
                    let tokenRequest = try TokenRequest(
                        container: context.parameters.get("container") ?? "",
                        environment: context.parameters.get("environment") ?? "", user: context.user,
                        body: context.body, baseURL: baseURL(request))
                    return JSONAnswer(
                        try await worker.run { try action(tokenRequest, notifications, $0) })
                }
            }
        }
        for method in [HTTPRequest.Method.get, .post] {
            router.on(RouterPath("\(Tokens.webcourierPath)/:token"), method: method) { request, context in
                let token = context.parameters.get("token") ?? ""
                let seconds = request.uri.queryParameters.get("timeout").flatMap { Double(String($0)) }
                return JSONAnswer(
                    try await Tokens.poll(
                        token, seconds: seconds ?? Tokens.defaultWait, notifications: notifications, worker: worker))
            }
        }
        router.get("/") { _, _ in Self.page(ConsolePage.html) }
        router.get(RouterPath(ConsoleEditor.path)) { _, _ in
            Response(
                status: .ok, headers: [.contentType: "text/javascript; charset=utf-8"],
                body: ResponseBody(byteBuffer: ByteBuffer(string: ConsoleEditor.script)))
        }
        let signIn = SignInPage.html(users: users)
        router.get(RouterPath(SignInPage.path)) { _, _ in Self.page(signIn) }
        let console = router.group("console").add(middleware: authentication)
        console.get("environments") { _, _ in
            JSONAnswer(try await worker.run { try Console.environments(store: $0) })
        }
        for (path, edit) in [("fields", ConsoleSchemaEdits.addField), ("indexes", ConsoleSchemaEdits.addIndex)] {
            console.post(RouterPath("schema/:container/:environment/\(path)")) { _, context in
                let container = context.parameters.get("container") ?? ""
                let environment = context.parameters.get("environment") ?? ""
                let body = context.body
                return JSONAnswer(
                    try await worker.run {
                        try edit(container, environment, body, $0)
                    })
            }
        }
        console.get("schema/:container/:environment") { _, context in
            let container = context.parameters.get("container") ?? ""
            let environment = context.parameters.get("environment") ?? ""
            return JSONAnswer(
                try await worker.run { try Console.schema(container: container, environment: environment, store: $0) })
        }
        router.post(RouterPath(Assets.uploadPath)) { request, _ in
            var request = request
            let bytes = Array(buffer: try await request.collectBody(upTo: Self.maximumAssetSize))
            return JSONAnswer(try await worker.run { try Assets.upload(bytes, store: $0) })
        }
        router.get("assets/:checksum") { _, context in
            let checksum = context.parameters.get("checksum") ?? ""
            let content = try await worker.run { try Assets.download(checksum, store: $0) }
            return Response(
                status: .ok, headers: [.contentType: "application/octet-stream"],
                body: ResponseBody(byteBuffer: ByteBuffer(bytes: content)))
        }
        return router
    }

    private static func page(_ html: String) -> Response {
        Response(
            status: .ok, headers: [.contentType: "text/html; charset=utf-8"],
            body: ResponseBody(byteBuffer: ByteBuffer(string: html)))
    }

    /// CloudKit's limit on an asset, 50 MB.
    private static let maximumAssetSize = 50 * 1024 * 1024
}
