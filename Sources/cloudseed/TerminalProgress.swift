import CloudSeed
import Foundation

/// A progress bar on standard error, only when it is a terminal and the run lasts over a second:
/// `[#########.........]  45%  120.5 MB of 268.0 MB  31.2 MB/s  5 s left`, or a count of records
/// where their total is not known.
final class TerminalProgress: @unchecked Sendable {
    private let start = Date()
    private var lastDraw = Date.distantPast
    private var drawn = false

    /// Whether standard error is a terminal a bar can be drawn on.
    static var isAvailable: Bool { isatty(STDERR_FILENO) == 1 }

    func update(_ meter: ProgressMeter) {
        draw(done: meter.done, total: meter.total, amount: Self.megabytes)
    }

    /// Draws the bar for `done` records of `total`: `[###.....]  12%  120 of 1000  31/s  28 s left`.
    func update(records done: Int, of total: Int) {
        draw(done: done, total: total) { String($0) }
    }

    /// Draws a count where the total is not known: `120400 records  3100/s`.
    func update(records done: Int) {
        guard let elapsed = elapsedIfDue() else { return }
        show("\(done) records  \(Int(Double(done) / elapsed))/s")
    }

    private func draw(done: Int, total: Int, amount: (Int) -> String) {
        guard let elapsed = elapsedIfDue() else { return }
        let fraction = min(1, Double(done) / Double(max(total, 1)))
        let width = 24
        let filled = Int(fraction * Double(width))
        let rate = Double(done) / elapsed
        let left = rate > 0 ? Double(total - done) / rate : 0
        let bar = String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled)
        show(
            String(
                format: "[%@] %3.0f%%  %@ of %@  %@/s  %.0f s left", bar, fraction * 100, amount(done),
                amount(total), amount(Int(rate)), left))
    }

    /// The seconds since the start, where the run has lasted over a second and the last drawing
    /// is a tenth of a second old; `nil` when it is not time to draw.
    private func elapsedIfDue() -> TimeInterval? {
        let now = Date()
        let elapsed = now.timeIntervalSince(start)
        guard elapsed > 1, now.timeIntervalSince(lastDraw) > 0.1 else { return nil }
        lastDraw = now
        return elapsed
    }

    private func show(_ line: String) {
        drawn = true
        FileHandle.standardError.write(Data("\r\u{1B}[2K\(line)".utf8))
    }

    /// Clears the bar before the summary is printed.
    func finish() {
        if drawn { FileHandle.standardError.write(Data("\r\u{1B}[2K".utf8)) }
        drawn = false
    }

    private static func megabytes(_ bytes: Int) -> String {
        String(format: "%.1f MB", Double(bytes) / 1_000_000)
    }
}
