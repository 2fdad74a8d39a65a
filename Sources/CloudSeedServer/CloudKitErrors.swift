import CloudSeed
import Hummingbird

/// Answers every error of the routes it is added to in CloudKit's shape: a ``ServerError`` as it
/// is, a ``CloudSeedError`` with its code's CloudKit error, anything else as INTERNAL_ERROR.
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
