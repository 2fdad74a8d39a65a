import CloudSeed
import Hummingbird

/// Answers every error of the routes it is added to in CloudKit's shape: a ``ServerError`` as it
/// is, a ``CloudSeedError`` with its code's CloudKit error, Hummingbird's own (an unknown path, a
/// body too large) with the CloudKit error of their status, anything else as INTERNAL_ERROR.
struct CloudKitErrors<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response)
        async throws -> Response
    {
        do {
            return try await next(request, context)
        } catch let error as ServerError {
            throw error
        } catch let error as CloudSeedError {
            throw ServerError(error)
        } catch let error as HTTPError {
            throw ServerError(error, request: request)
        } catch {
            throw ServerError(.internalError, "\(error)")
        }
    }
}

/// A CloudKit JSON answer, as `200 OK`.
struct JSONAnswer: ResponseGenerator {
    var text: String

    init(_ text: String) {
        self.text = text
    }

    func response(from request: Request, context: some RequestContext) throws -> Response {
        Self.response(text, status: .ok)
    }

    static func response(_ text: String, status: HTTPResponse.Status) -> Response {
        Response(
            status: status, headers: [.contentType: "application/json; charset=utf-8"],
            body: ResponseBody(byteBuffer: ByteBuffer(string: text)))
    }
}

extension ServerError {
    /// Hummingbird's error for `request` as CloudKit's.
    init(_ error: HTTPError, request: Request) {
        let target = "\(request.method) \(request.uri.path)"
        switch error.status.code {
        case 404:
            self.init(
                .notFound,
                "no endpoint answers \(target); CloudKit Web Services are under /database/1/CONTAINER/ENVIRONMENT/DATABASE/"
            )
        case 405: self.init(.badRequest, "\(target) is not taken with this method")
        case 413: self.init(.quotaExceeded, "the request body of \(target) is too large")
        case 400..<500: self.init(.badRequest, error.body ?? "\(target) was refused: \(error.status.reasonPhrase)")
        default: self.init(.internalError, error.body ?? error.status.reasonPhrase)
        }
    }
}
