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
