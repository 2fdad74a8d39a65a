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
    /// The time stamped on saved records, in milliseconds since 1970.
    private let now: @Sendable () -> Int64

    /// A server of `store` on `host`:`port`. With `apiToken`, requests must give it as `ckAPIToken`;
    /// with `serverKey` (a PEM P-256 public key), server-to-server requests signed by its private
    /// half are taken, and with `serverKeyID` only those that give that key ID. `user` is who
    /// requests act as where they name no one.
    public init(
        store: ContainerStore, host: String = "127.0.0.1", port: Int = 8787, apiToken: String? = nil,
        serverKey: String? = nil, serverKeyID: String? = nil, user: String = RecordZoneID.defaultOwnerName,
        now: @escaping @Sendable () -> Int64 = { Int64(Date().timeIntervalSince1970 * 1000) }
    ) throws {
        self.host = host
        self.port = port
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
                apiToken: apiToken, serverKey: key, serverKeyID: serverKeyID, defaultUser: user))
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
        let endpoints: [(String, [HTTPRequest.Method], Endpoint)] = [
            ("records/query", [.post], Self.onStore(RecordsQuery.answer)),
            ("records/lookup", [.post], Self.onStore(RecordsLookup.answer)),
            ("records/modify", [.post], { try await RecordsModify.answer($0, worker: $1, now: now()) }),
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
                        baseURL: "http://\(request.head.authority ?? "\(host):\(port)")")
                    return JSONAnswer(try await endpoint(databaseRequest, worker))
                }
            }
        }
        router.get("/") { _, _ in
            Response(
                status: .ok, headers: [.contentType: "text/html; charset=utf-8"],
                body: ResponseBody(byteBuffer: ByteBuffer(string: ConsolePage.html)))
        }
        let console = router.group("console").add(middleware: authentication)
        console.get("environments") { _, _ in
            JSONAnswer(try await worker.run { try Console.environments(store: $0) })
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

    /// CloudKit's limit on an asset, 50 MB.
    private static let maximumAssetSize = 50 * 1024 * 1024
}
