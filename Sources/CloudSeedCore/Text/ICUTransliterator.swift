import Foundation

#if canImport(_FoundationICU)
    import _FoundationICU
#endif

/// One ICU transform, opened once and kept for the run.
///
/// Foundation's `applyingTransform` opens the transform anew for every text, and for Han or kana
/// that means parsing ICU's rules for them again, which a run naming records after titles in many
/// scripts pays hundreds of times. Kept open, a text is quick. Where ICU's
/// own interface is not available (Foundation on Apple platforms), texts go through Foundation.
package final class ICUTransliterator: @unchecked Sendable {
    private let transform: StringTransform
    private let lock = NSLock()
    #if canImport(_FoundationICU)
        private let opened: UnsafeMutablePointer<UTransliterator?>?
    #endif

    /// `identifier` is an ICU transform ID, such as `Any-Latin; Latin-ASCII`.
    package init(_ identifier: String) {
        transform = StringTransform(identifier)
        #if canImport(_FoundationICU)
            var status = U_ZERO_ERROR
            let id = Array(identifier.utf16)
            let handle = swift_utrans_openU(id, Int32(id.count), UTRANS_FORWARD, nil, 0, nil, &status)
            opened = status.rawValue > U_ZERO_ERROR.rawValue ? nil : handle
        #endif
    }

    deinit {
        #if canImport(_FoundationICU)
            if let opened { swift_utrans_close(opened) }
        #endif
    }

    /// `text` transformed, as `text.applyingTransform(_:reverse: false)` would make it.
    package func apply(_ text: String) -> String {
        #if canImport(_FoundationICU)
            if let opened, let result = lock.withLock({ Self.apply(opened, to: text) }) { return result }
        #endif
        return text.applyingTransform(transform, reverse: false) ?? text
    }

    #if canImport(_FoundationICU)
        /// The transform of `text` in a buffer made larger until it fits; `nil` if ICU fails.
        private static func apply(_ transliterator: UnsafeMutablePointer<UTransliterator?>, to text: String) -> String?
        {
            let units = Array(text.utf16)
            var capacity = units.count * 4 + 64
            while true {
                var buffer = units + Array(repeating: 0, count: capacity - units.count)
                var length = Int32(units.count)
                var limit = length
                var status = U_ZERO_ERROR
                swift_utrans_transUChars(transliterator, &buffer, &length, Int32(capacity), 0, &limit, &status)
                if status == U_BUFFER_OVERFLOW_ERROR {
                    capacity = max(capacity * 2, Int(length) + 64)
                    continue
                }
                guard status.rawValue <= U_ZERO_ERROR.rawValue else { return nil }
                return String(decoding: buffer[0..<Int(length)], as: UTF16.self)
            }
        }
    #endif
}
