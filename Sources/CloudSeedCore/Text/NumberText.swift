/// Reads numbers the way a person writes them, refusing what is not a number to a person.
package enum NumberText {
    /// `-?(0|[1-9][0-9]*)` within 64 bits: no leading zeros, no sign `+`, no separators.
    package static func integer(_ text: String) -> Int64? {
        var text = text
        return text.withUTF8(integer)
    }

    /// ``integer(_:)`` of UTF-8 bytes, read digit by digit: accumulated negatively, so that
    /// `Int64.min` fits.
    package static func integer(_ bytes: UnsafeBufferPointer<UInt8>) -> Int64? {
        let negative = bytes.first == UInt8(ascii: "-")
        let digits = UnsafeBufferPointer(rebasing: bytes[(negative ? 1 : 0)...])
        guard let first = digits.first, !(first == UInt8(ascii: "0") && digits.count > 1) else { return nil }
        var value: Int64 = 0
        for byte in digits {
            guard byte >= 48, byte <= 57 else { return nil }
            let (times10, overflowed) = value.multipliedReportingOverflow(by: 10)
            let (next, overflowedAgain) = times10.subtractingReportingOverflow(Int64(byte - 48))
            guard !overflowed, !overflowedAgain else { return nil }
            value = next
        }
        if negative { return value }
        return value == Int64.min ? nil : -value
    }

    /// Whether ``real(_:)`` takes the text, told without converting it where its value is surely
    /// finite: no exponent and at most 300 digits before the point.
    package static func isReal(_ text: String) -> Bool {
        var text = text
        return text.withUTF8(isReal)
    }

    /// ``isReal(_:)`` of UTF-8 bytes.
    package static func isReal(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard isDecimal(bytes) else { return false }
        let point = bytes.firstIndex(of: UInt8(ascii: ".")) ?? bytes.count
        let integerDigits = bytes.first == UInt8(ascii: "-") ? point - 1 : point
        if integerDigits <= 300, !bytes.contains(where: { $0 | 0x20 == UInt8(ascii: "e") }) { return true }
        return decimal(bytes) != nil
    }

    /// A decimal with a fraction, an exponent or both, `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`,
    /// finite. Plain digits are not reals: beyond 64 bits they stay text, as identifiers do.
    package static func real(_ text: String) -> Double? {
        var text = text
        return text.withUTF8(real)
    }

    /// ``real(_:)`` of UTF-8 bytes.
    package static func real(_ bytes: UnsafeBufferPointer<UInt8>) -> Double? {
        isDecimal(bytes) ? decimal(bytes) : nil
    }

    /// Whether the bytes are a decimal with a fraction, an exponent or both.
    private static func isDecimal(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var index = bytes.first == UInt8(ascii: "-") ? 1 : 0
        func digits() -> Int {
            let start = index
            while index < bytes.count, bytes[index] >= 48, bytes[index] <= 57 { index += 1 }
            return index - start
        }
        let integerStart = index
        let integerDigits = digits()
        guard integerDigits > 0, !(integerDigits > 1 && bytes[integerStart] == UInt8(ascii: "0")), index < bytes.count
        else { return false }
        if bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard digits() > 0 else { return false }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                index += 1
            }
            guard digits() > 0 else { return false }
        }
        return index == bytes.count
    }
}
