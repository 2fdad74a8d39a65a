package import CloudSeedCore

/// CloudKit Web Services' error codes (`serverErrorCode`): the one list the server answers with
/// and the client reads.
package enum CloudKitErrorCode: String, Sendable, CaseIterable {
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
    case throttled = "THROTTLED"
    case tryAgainLater = "TRY_AGAIN_LATER"
    case validatingReferenceError = "VALIDATING_REFERENCE_ERROR"
    /// A zone busy with other writes, as CloudKit's own clients know it (`CKError.zoneBusy`).
    case zoneBusy = "ZONE_BUSY"
    case zoneNotFound = "ZONE_NOT_FOUND"

    /// Whether the code says "not now": the request may succeed when tried again.
    package var isRetryable: Bool {
        switch self {
        case .throttled, .tryAgainLater, .zoneBusy: true
        default: false
        }
    }

    /// The code CloudKit answers for a refusal of the library.
    package init(_ error: CloudSeedError) {
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
