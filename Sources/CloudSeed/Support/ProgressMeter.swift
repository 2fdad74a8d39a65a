import Foundation

/// Counts the bytes a run has read, for a progress display. A run reads its sources twice (to
/// decide types, then to write), so the whole is twice their size.
public final class ProgressMeter: @unchecked Sendable {
    /// All the bytes the run will read.
    public let total: Int
    public private(set) var done = 0
    private let report: (ProgressMeter) -> Void

    public init(total: Int, report: @escaping (ProgressMeter) -> Void) {
        self.total = max(total, 1)
        self.report = report
    }

    func advance(by bytes: Int) {
        done += bytes
        report(self)
    }

    /// Both readings of `sources`.
    public static func total(of sources: [SourceFile]) -> Int {
        2 * sources.reduce(0) { $0 + $1.size }
    }
}
