/// The text of a change tag: a store's counter in base 36 (`7pt`), as `String(_:radix:)` writes it,
/// but without its generic digit loop, which showed in an import's writing thread.
package enum ChangeTag {
    package static func text(of counter: Int64) -> String {
        guard counter > 0 else { return String(counter, radix: 36) }
        // Int64's largest value has 13 digits in base 36.
        var digits: (UInt64, UInt64) = (0, 0)
        return withUnsafeMutableBytes(of: &digits) { buffer in
            var value = UInt64(counter)
            var start = buffer.count
            while value > 0 {
                start -= 1
                let digit = UInt8(value % 36)
                buffer[start] = digit < 10 ? UInt8(ascii: "0") + digit : UInt8(ascii: "a") + digit - 10
                value /= 36
            }
            return String(decoding: UnsafeRawBufferPointer(rebasing: buffer[start...]), as: UTF8.self)
        }
    }
}

/// The change tags a write transaction gives: the store's counter, read once, counted in memory,
/// and written back when the transaction commits.
package struct ChangeTagCounter {
    private var last: Int64?

    package init() {}

    /// The next change tag; `stored` reads the store's counter the first time.
    package mutating func next(stored: () throws -> Int64) rethrows -> String {
        let counter = try (last ?? stored()) + 1
        last = counter
        return ChangeTag.text(of: counter)
    }

    /// The counter to write back, if a tag was given since the last time; forgets it.
    package mutating func take() -> Int64? {
        defer { last = nil }
        return last
    }
}
