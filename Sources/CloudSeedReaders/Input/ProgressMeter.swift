import CloudSeedCore
import Foundation

/// Counts the bytes a run has read, for a progress display. A run reads its sources twice (to
/// decide types, then to write), so the whole is twice their size; once where the plan guessed
/// from the first rows holds (``startOver(readingOnce:)``).
package final class ProgressMeter: @unchecked Sendable {
    /// All the bytes the run will read.
    package private(set) var total: Int
    package private(set) var done = 0
    /// The bytes of both readings, as given.
    private let twoReadings: Int
    private let report: (ProgressMeter) -> Void

    package init(total: Int, report: @escaping (ProgressMeter) -> Void) {
        self.total = max(total, 1)
        twoReadings = self.total
        self.report = report
    }

    /// Counts from nothing again, towards one reading of the sources or both.
    package func startOver(readingOnce: Bool) {
        done = 0
        total = readingOnce ? max(twoReadings / 2, 1) : twoReadings
    }

    package func advance(by bytes: Int) {
        done += bytes
        report(self)
    }

    /// Both readings of `sources`.
    package static func total(of sources: [SourceFile]) -> Int {
        2 * sources.reduce(0) { $0 + $1.size }
    }
}
