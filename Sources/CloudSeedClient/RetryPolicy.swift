import CloudKitWire
import CloudSeed

/// How often and how long a request refused for the moment is tried again: after the server's
/// `retryAfter` where it gives one, else after a delay that doubles from `initialDelay`, never
/// longer than `maximumDelay`, at most `attempts` times in all.
package struct RetryPolicy: Sendable {
    package var attempts: Int
    /// Seconds.
    package var initialDelay: Double
    /// Seconds.
    package var maximumDelay: Double

    package init(attempts: Int = 6, initialDelay: Double = 1, maximumDelay: Double = 60) {
        self.attempts = attempts
        self.initialDelay = initialDelay
        self.maximumDelay = maximumDelay
    }

    /// The CloudKit error codes that say "not now": the request may succeed when tried again.
    static let retryableCodes: Set<String> = Set(
        CloudKitErrorCode.allCases.filter { $0.isRetryable }.map { $0.rawValue })

    /// The seconds to wait before try number `attempt` (1 for the first retry).
    func delay(beforeRetry attempt: Int, retryAfter: Double?) -> Double {
        if let retryAfter { return min(max(retryAfter, 0), maximumDelay) }
        return min(initialDelay * Double(1 << min(attempt - 1, 20)), maximumDelay)
    }
}
