import Foundation
import Synchronization

extension Transliteration {
    /// Whether `text`'s ASCII form can be had now without waiting for ICU to compile rules.
    ///
    /// ICU compiles a script's rules the first time it meets the script, which for Han takes a
    /// while. Text whose characters all have a known form never waits. For other text the
    /// answer is `false` until ICU has transliterated the first such text, which the first call
    /// starts on a thread of its own, so that the caller can go on with other work meanwhile.
    package static func isReady(_ text: String) -> Bool {
        if warmUp.isDone.load(ordering: .acquiring) || text.utf8.allSatisfy({ $0 < 0x80 }) { return true }
        if text.unicodeScalars.allSatisfy({ characterForm($0) != nil }) { return true }
        warmUp.start(with: text)
        return false
    }

    /// Whether ICU has transliterated the text ``isReady(_:)`` first found waiting.
    package static var isWarm: Bool { warmUp.isDone.load(ordering: .acquiring) }

    private static let warmUp = WarmUp()

    /// ICU's first transliteration of a text that needs it, run once, on a thread of its own.
    private final class WarmUp: Sendable {
        let isDone = Atomic(false)
        private let isStarted = Atomic(false)

        func start(with text: String) {
            guard isStarted.compareExchange(expected: false, desired: true, ordering: .relaxed).exchanged else {
                return
            }
            Thread { [self] in
                _ = Transliteration.ascii(text)
                isDone.store(true, ordering: .releasing)
            }.start()
        }
    }
}
