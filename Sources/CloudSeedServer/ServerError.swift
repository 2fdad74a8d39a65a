public import CloudSeed
import Foundation
import Hummingbird

/// CloudKit Web Services' error codes (`serverErrorCode`), with the HTTP status each answers.
enum ServerErrorCode: String, Sendable {
    case accessDenied = "ACCESS_DENIED"
    case atomicError = "ATOMIC_ERROR"
    case authenticationFailed = "AUTHENTICATION_FAILED"
    case authenticationRequired = "AUTHENTICATION_REQUIRED"
    case badRequest = "BAD_REQUEST"
    case conflict = "CONFLICT"
    case exists = "EXISTS"
    case internalError = "INTERNAL_ERROR"
    case notFound = "NOT_FOUND"
    case quotaExceeded = "QUOTA_EXCEEDED"
    case validatingReferenceError = "VALIDATING_REFERENCE_ERROR"
    case zoneNotFound = "ZONE_NOT_FOUND"

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
        case .validatingReferenceError: .init(code: 412)
        }
    }

    /// The code CloudKit answers for a refusal of the library.
    init(_ error: CloudSeedError) {
        switch error.code {
        case .permissionDenied: self = .accessDenied
        case .recordConflict: self = .conflict
        case .limitExceeded: self = .quotaExceeded
        case .unresolvedReference: self = .validatingReferenceError
        case .storeFailure, .fileAccess, .damagedBackup: self = .internalError
        case .malformedSource, .invalidValue, .invalidOption, .unknownRecordType, .unknownField,
            .productionSchemaRefused, .duplicateRecordName, .unsupportedQuery, .invalidSchema, .missingAsset:
            self = .badRequest
        }
    }
}

/// A request refused as a whole: answered with CloudKit's error dictionary and the code's status.
struct ServerError: Error {
    var code: ServerErrorCode
    var reason: String

    init(_ code: ServerErrorCode, _ reason: String) {
        self.code = code
        self.reason = reason
    }

    init(_ error: CloudSeedError) {
        self.init(ServerErrorCode(error), error.message)
    }

    /// `{"uuid", "serverErrorCode", "reason"}`, with `recordName` first for a record's error.
    func json(recordName: String? = nil, extra: [(String, String)] = []) -> String {
        var members = recordName.map { [("recordName", JSONText.quoted($0))] } ?? []
        members += [
            ("uuid", JSONText.quoted(UUID().uuidString.lowercased())),
            ("serverErrorCode", JSONText.quoted(code.rawValue)), ("reason", JSONText.quoted(reason)),
        ]
        return JSONText.object(members + extra)
    }
}
