/// Converts between milliseconds since 1970 and ISO 8601 text, for years 0001 to 9999.
///
/// ```swift
/// Timestamp.format(0)                              // "1970-01-01T00:00:00.000Z"
/// Timestamp.formatSeconds(1_500)                    // "1970-01-01T00:00:01Z"
/// Timestamp.parse("2019-10-28")                     // 1572220800000 (no zone means UTC)
/// Timestamp.parse("2019-10-28T10:00:00+02:00")      // 1572249600000
/// ```
package enum Timestamp {
    /// The first and last millisecond that ISO 8601 text with a four-digit year can hold.
    package static let range: ClosedRange<Int64> = -62_135_596_800_000...253_402_300_799_999

    private static let millisecondsPerDay: Int64 = 86_400_000

    /// `YYYY-MM-DDTHH:MM:SS.mmmZ`, or `nil` when the time is outside ``range``.
    package static func format(_ milliseconds: Int64) -> String? {
        guard range.contains(milliseconds) else { return nil }
        return String(unsafeUninitializedCapacity: formattedLength) { buffer in
            write(milliseconds, into: buffer)
            return formattedLength
        }
    }

    /// `YYYY-MM-DDTHH:MM:SSZ`, the time to the second (as CloudKit takes a request's signing date),
    /// or `nil` when the time is outside ``range``.
    package static func formatSeconds(_ milliseconds: Int64) -> String? {
        format(milliseconds).map { $0.prefix(19) + "Z" }
    }

    /// Appends ``format(_:)``'s text to `bytes`, without making a string of it; `false` (and nothing
    /// appended) when the time is outside ``range``.
    package static func append(_ milliseconds: Int64, to bytes: inout [UInt8]) -> Bool {
        guard range.contains(milliseconds) else { return false }
        let start = bytes.count
        bytes.append(contentsOf: repeatElement(0, count: formattedLength))
        bytes.withUnsafeMutableBufferPointer {
            write(milliseconds, into: UnsafeMutableBufferPointer(rebasing: $0[start...]))
        }
        return true
    }

    /// The length of ``format(_:)``'s text.
    private static let formattedLength = 24

    /// Writes the text of a time in ``range`` into the first ``formattedLength`` bytes of `buffer`,
    /// digit by digit: every stored timestamp goes through here.
    private static func write(_ milliseconds: Int64, into buffer: UnsafeMutableBufferPointer<UInt8>) {
        let days = floorDivide(milliseconds, millisecondsPerDay)
        let inDay = milliseconds - days * millisecondsPerDay
        let (year, month, day) = civil(fromDays: days)
        let hour = inDay / 3_600_000
        let minute = inDay / 60_000 % 60
        let second = inDay / 1000 % 60
        let millis = inDay % 1000
        func put(_ value: Int64, _ width: Int, at start: Int) {
            var rest = value
            for offset in (start..<start + width).reversed() {
                buffer[offset] = UInt8(ascii: "0") + UInt8(rest % 10)
                rest /= 10
            }
        }
        put(year, 4, at: 0)
        put(month, 2, at: 5)
        put(day, 2, at: 8)
        put(hour, 2, at: 11)
        put(minute, 2, at: 14)
        put(second, 2, at: 17)
        put(millis, 3, at: 20)
        (buffer[4], buffer[7], buffer[10], buffer[13], buffer[16], buffer[19], buffer[23]) =
            (
                UInt8(ascii: "-"), UInt8(ascii: "-"), UInt8(ascii: "T"), UInt8(ascii: ":"), UInt8(ascii: ":"),
                UInt8(ascii: "."), UInt8(ascii: "Z")
            )
    }

    /// Reads an ISO 8601 / RFC 3339 date or date-time; a missing zone means UTC.
    ///
    /// Accepts `YYYY-MM-DD`, then optionally `T` or a space, `HH:MM`, `:SS`, a fraction (kept to the
    /// millisecond), and `Z` or an offset `±HH:MM` / `±HHMM`. Returns `nil` for anything else.
    package static func parse(_ text: String) -> Int64? {
        var text = text
        return text.withUTF8(parse(utf8:))
    }

    /// ``parse(_:)`` of UTF-8 bytes, such as a column's in place.
    package static func parse(utf8 bytes: UnsafeBufferPointer<UInt8>) -> Int64? {
        parseLocal(utf8: bytes).map { $0.milliseconds - ($0.offset ?? 0) }
    }

    /// ``parse(utf8:)``'s time as written, as if in UTC, and the offset of the zone the text
    /// gives in milliseconds (`nil` where it gives none).
    package static func parseLocal(utf8 bytes: UnsafeBufferPointer<UInt8>) -> (milliseconds: Int64, offset: Int64?)? {
        guard bytes.count >= 10, bytes.count <= 40 else { return nil }
        var text = DigitReader(bytes: bytes)
        guard let year = text.number(4), text.expect(45), let month = text.number(2), text.expect(45),
            let day = text.number(2),
            (1...12).contains(month), day >= 1, day <= daysIn(month: month, year: year), year >= 1
        else { return nil }
        var milliseconds = days(fromCivil: year, month, day) * millisecondsPerDay
        if text.isAtEnd { return (milliseconds, nil) }
        guard text.expect(84) || text.expect(32) else { return nil }  // "T" or " "
        guard let hour = text.number(2), hour < 24, text.expect(58), let minute = text.number(2), minute < 60 else {
            return nil
        }
        var second: Int64 = 0
        var fraction: Int64 = 0
        if text.expect(58) {
            guard let parsed = text.number(2), parsed < 60 else { return nil }
            second = parsed
            if text.expect(46) || text.expect(44) {
                var digits = 0
                while let digit = text.digit() {
                    if digits < 3 { fraction = fraction * 10 + digit }
                    digits += 1
                }
                guard digits > 0 else { return nil }
                if digits < 3 { for _ in digits..<3 { fraction *= 10 } }
            }
        }
        milliseconds += ((hour * 60 + minute) * 60 + second) * 1000 + fraction
        if text.isAtEnd { return (milliseconds, nil) }
        if text.expect(90) { return text.isAtEnd ? (milliseconds, 0) : nil }  // "Z"
        let sign: Int64
        if text.expect(43) { sign = 1 } else if text.expect(45) { sign = -1 } else { return nil }
        guard let offsetHours = text.number(2), offsetHours < 24 else { return nil }
        _ = text.expect(58)
        guard let offsetMinutes = text.number(2), offsetMinutes < 60, text.isAtEnd else { return nil }
        return (milliseconds, sign * (offsetHours * 60 + offsetMinutes) * 60_000)
    }

    /// Reads a timestamp's digits and separators from the front: a struct rather than functions
    /// nested in ``parse(utf8:)``, whose shared index was checked for overlapping access at every call.
    private struct DigitReader {
        let bytes: UnsafeBufferPointer<UInt8>
        var index = 0

        var isAtEnd: Bool { index == bytes.count }

        /// The number in the next `width` digits, or `nil` (and nothing read) if they are not all digits.
        mutating func number(_ width: Int) -> Int64? {
            guard index + width <= bytes.count else { return nil }
            var value: Int64 = 0
            for offset in index..<index + width {
                let digit = bytes[offset] &- 48
                guard digit < 10 else { return nil }
                value = value &* 10 &+ Int64(digit)  // four digits at most: no overflow
            }
            index += width
            return value
        }

        /// The next digit's value, if the next byte is a digit.
        mutating func digit() -> Int64? {
            guard index < bytes.count, bytes[index] >= 48, bytes[index] <= 57 else { return nil }
            index += 1
            return Int64(bytes[index - 1] - 48)
        }

        /// Reads `byte` if it is next.
        mutating func expect(_ byte: UInt8) -> Bool {
            guard index < bytes.count, bytes[index] == byte else { return false }
            index += 1
            return true
        }
    }

    private static func floorDivide(_ a: Int64, _ b: Int64) -> Int64 {
        a >= 0 ? a / b : -((-a + b - 1) / b)
    }

    private static func isLeap(_ year: Int64) -> Bool { year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) }

    package static func daysIn(month: Int64, year: Int64) -> Int64 {
        switch month {
        case 2: isLeap(year) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's algorithm).
    package static func days(fromCivil year: Int64, _ month: Int64, _ day: Int64) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = floorDivide(y, 400)
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    private static func civil(fromDays days: Int64) -> (Int64, Int64, Int64) {
        let z = days + 719_468
        let era = floorDivide(z, 146_097)
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}
