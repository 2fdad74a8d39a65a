import CloudKitWire
import CloudSeed
import HTTPTypes
import Hummingbird

/// Authenticates each request of the routes it is added to (``RequestAuthentication``) before
/// their handler runs, and hands the handler the user and the body in its context; for a route
/// with a `database` parameter, the private and shared databases, and the public one's
/// ``userEndpoints``, need a signed-in user.
struct CloudKitAuthentication: RouterMiddleware {
    typealias Context = CloudKitRequestContext

    let authentication: RequestAuthentication
    /// The endpoints that need a signed-in user in the public database too: writes, and what is
    /// kept for a user (subscriptions, notification tokens).
    static let userEndpoints = [
        "records/modify", "assets/upload", "subscriptions/list", "subscriptions/lookup", "subscriptions/modify",
        "tokens/create", "tokens/register",
    ]
    /// The largest request body taken: 200 records of 1 MB each.
    static let maximumBodySize = 200 * 1024 * 1024

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response)
        async throws -> Response
    {
        var request = request
        var context = context
        context.body = Array(buffer: try await request.collectBody(upTo: Self.maximumBodySize))
        let query = request.uri.queryParameters
        let credentials = RequestAuthentication.Credentials(
            apiToken: query.get("ckAPIToken").map { String($0) },
            webAuthToken: query.get("ckWebAuthToken").map { String($0) },
            keyID: request.headers[HTTPField.Name(ServerToServerSignature.keyIDHeader)!],
            date: request.headers[HTTPField.Name(ServerToServerSignature.dateHeader)!],
            signature: request.headers[HTTPField.Name(ServerToServerSignature.signatureHeader)!])
        // The subpath signed is the request's path and query exactly as sent, as CloudKit checks it
        // (CloudKit JS signs `…/users/current?ckjsBuildVersion=…`).
        let path = request.uri.path
        context.user = try authentication.user(
            for: credentials, body: context.body, subpath: request.head.path ?? path,
            database: context.parameters.get("database").flatMap { DatabaseScope(rawValue: $0) },
            writes: Self.userEndpoints.contains { path.hasSuffix("/" + $0) },
            signInURL: "http://\(request.head.authority ?? "127.0.0.1")\(SignInPage.path)")
        return try await next(request, context)
    }
}
