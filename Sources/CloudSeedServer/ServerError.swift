import CloudKitWire
import CloudSeed
import Foundation
import Hummingbird

extension CloudKitErrorCode {
    /// The HTTP status CloudKit answers the code with.
    var status: HTTPResponse.Status {
        switch self {
        case .accessDenied: .forbidden
        case .atomicError, .badRequest: .badRequest
        case .authenticationFailed: .unauthorized
        case .authenticationRequired: .init(code: 421)
        case .conflict, .exists: .conflict
        case .internalError: .internalServerError
        case .notFound, .zoneNotFound: .notFound
        case .quotaExceeded: .init(code: 413)
        case .throttled: .tooManyRequests
        case .tryAgainLater, .zoneBusy: .serviceUnavailable
        case .validatingReferenceError: .init(code: 412)
        }
    }
}

/// A request refused as a whole: answered with CloudKit's error dictionary and the code's status.
struct ServerError: HTTPResponseError {
    var code: CloudKitErrorCode
    var reason: String
    /// Where a user signs in, for AUTHENTICATION_REQUIRED.
    var redirectURL: String?

    init(_ code: CloudKitErrorCode, _ reason: String) {
        self.code = code
        self.reason = reason
    }

    init(_ error: CloudSeedError) {
        self.init(CloudKitErrorCode(error), error.message)
    }

    var status: HTTPResponse.Status { code.status }

    func response(from request: Request, context: some RequestContext) throws -> Response {
        JSONAnswer.response(
            json(extra: redirectURL.map { [("redirectURL", JSONText.quoted($0))] } ?? []), status: status)
    }

    /// `{"uuid", "serverErrorCode", "reason"}`, with `recordName` first for a record's error.
    func json(recordName: String? = nil, extra: [(String, String)] = []) -> String {
        json(first: recordName.map { ("recordName", $0) }, extra: extra)
    }

    /// `{"uuid", "serverErrorCode", "reason"}`, with the member `first` (a string) first: the
    /// record's or subscription's name an error is about.
    func json(first: (key: String, value: String)?, extra: [(String, String)] = []) -> String {
        var members = first.map { [($0.key, JSONText.quoted($0.value))] } ?? []
        members += [
            ("uuid", JSONText.quoted(UUID().uuidString.lowercased())),
            ("serverErrorCode", JSONText.quoted(code.rawValue)), ("reason", JSONText.quoted(reason)),
        ]
        return JSONText.object(members + extra)
    }
}
