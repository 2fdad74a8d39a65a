extension NumberText {
    /// The double nearest to a decimal written as JSON writes numbers (`-?digits`, then a fraction,
    /// an exponent or both), or `nil` where that is infinite.
    ///
    /// Most decimals in data have at most 15 significant digits and a small exponent: their value is
    /// one IEEE multiplication or division of two doubles that hold the significand and the power
    /// of ten exactly, which rounds it correctly (Clinger's fast path), with no text made and no
    /// `strtod`. The others go through `Double(_:)`.
    package static func decimal(_ bytes: UnsafeBufferPointer<UInt8>) -> Double? {
        if let exact = exactDecimal(bytes) { return exact }
        guard let value = Double(String(decoding: bytes, as: UTF8.self)), value.isFinite else { return nil }
        return value
    }

    /// The powers of ten a double holds exactly.
    private static let exactPowersOfTen: [Double] = [
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19,
        1e20, 1e21, 1e22,
    ]

    /// The decimal's value where its significant digits (at most 15: below 2^53) and its power of
    /// ten (within ±22) are exact doubles; `nil` for the others.
    private static func exactDecimal(_ bytes: UnsafeBufferPointer<UInt8>) -> Double? {
        var index = 0
        let negative = bytes.first == UInt8(ascii: "-")
        if negative { index = 1 }
        var significand: UInt64 = 0
        var significantDigits = 0
        var fractionDigits = 0
        var inFraction = false
        while index < bytes.count {
            let digit = bytes[index] &- 48
            if digit < 10 {
                if significand != 0 || digit != 0 { significantDigits += 1 }
                guard significantDigits <= 15 else { return nil }
                // At most 15 significant digits: below 10^15, the arithmetic cannot overflow.
                significand = significand &* 10 &+ UInt64(digit)
                if inFraction { fractionDigits += 1 }
            } else if bytes[index] == UInt8(ascii: ".") {
                inFraction = true
            } else {
                break
            }
            index += 1
        }
        var exponent = -fractionDigits
        if index < bytes.count {
            // `e` or `E`, a sign, digits.
            index += 1
            let negativeExponent = index < bytes.count && bytes[index] == UInt8(ascii: "-")
            if index < bytes.count, bytes[index] == UInt8(ascii: "-") || bytes[index] == UInt8(ascii: "+") {
                index += 1
            }
            var written = 0
            while index < bytes.count {
                written = written * 10 + Int(bytes[index] - 48)
                guard written <= 1_000 else { return nil }
                index += 1
            }
            exponent += negativeExponent ? -written : written
        }
        guard exponent >= -22, exponent <= 22 else { return nil }
        var value = Double(significand)
        if exponent < 0 { value /= exactPowersOfTen[-exponent] } else { value *= exactPowersOfTen[exponent] }
        return negative ? -value : value
    }
}
