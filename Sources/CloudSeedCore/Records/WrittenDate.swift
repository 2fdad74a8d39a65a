/// Reads the dates people write besides ISO 8601 (``Timestamp``): with a month's name, as RFC 2822
/// and RFC 1123 write them and as people do, and with day and month in numbers, whose order a
/// column decides (``NumericDateForms``).
///
/// ```
/// Tue, 03 Jun 2008 11:05:30 GMT    RFC 2822 / 1123 (weekday optional; GMT, UT, UTC, Z, ±hhmm, EST…PDT)
/// Jan 1 2000, January 1, 2000      month first; May 5th, 2021 with the day's ordinal
/// 1 January 2000, 1 Jan 2000       day first; 1st of January 2000
/// 11/26/2026, 26.11.2026 14:30     numbers, in the order given
/// 2026/11/26, 2026.11.26 14:30     numbers, the year first
/// ```
///
/// A time may follow the date (`HH:MM`, `:SS`, a fraction, `AM` or `PM`), then a zone; without one,
/// the time is local: UTC, or the zone the reading gives (``DateReading``).
package enum WrittenDate {
    /// A date and time as written: milliseconds since 1970 as if the time were UTC, and the zone's
    /// offset in milliseconds where the text gives one.
    package typealias Local = (milliseconds: Int64, offset: Int64?)

    /// A date written with a month's name, with its time and zone where written.
    package static func named(_ bytes: UnsafeBufferPointer<UInt8>) -> Local? {
        guard bytes.count >= 8, bytes.count <= 64 else { return nil }
        var text = WordReader(bytes: bytes)
        // A weekday first, as RFC 2822 writes it: `Tue, ` or `Tuesday `.
        if let first = bytes.first, Self.isLetter(first), let word = text.peekWord(), Weekdays.index(of: word) != nil {
            text.skipWord()
            _ = text.expect(UInt8(ascii: ","))
            guard text.skipSpaces() else { return nil }
        }
        let day: Int64
        let month: Int64
        if let word = text.peekWord() {
            guard let index = Months.index(of: word) else { return nil }
            text.skipWord()
            _ = text.expect(UInt8(ascii: "."))
            guard text.skipSpaces(), let number = text.number(maxDigits: 2) else { return nil }
            text.skipOrdinalSuffix(of: number)
            (month, day) = (index, number)
        } else {
            guard let number = text.number(maxDigits: 2) else { return nil }
            text.skipOrdinalSuffix(of: number)
            _ = text.skipSpaces()
            text.skip(word: "of")
            guard let word = text.peekWord(), let index = Months.index(of: word) else { return nil }
            text.skipWord()
            _ = text.expect(UInt8(ascii: "."))
            (month, day) = (index, number)
        }
        _ = text.expect(UInt8(ascii: ","))
        guard text.skipSpaces(), let year = text.fourDigitYear(), let date = Self.days(year, month, day) else {
            return nil
        }
        return text.time(after: date, separators: [UInt8(ascii: " ")])
    }

    /// A date written in numbers with the year first, `YYYY/M/D` or `YYYY.M.D` (as Japan and China
    /// write it; `YYYY-MM-DD` is ISO 8601's), with its time and zone where written: one order only.
    package static func yearFirst(_ bytes: UnsafeBufferPointer<UInt8>) -> Local? {
        guard bytes.count >= 8, bytes.count <= 48 else { return nil }
        var text = WordReader(bytes: bytes)
        guard let year = text.fourDigitYear(), let separator = text.next(),
            separator == UInt8(ascii: "/") || separator == UInt8(ascii: "."), let month = text.number(maxDigits: 2),
            text.expect(separator), let day = text.number(maxDigits: 2), let date = days(year, month, day)
        else { return nil }
        return text.time(after: date, separators: [UInt8(ascii: " "), UInt8(ascii: "T")])
    }

    /// A date written in numbers, `D/M/YYYY` or `M/D/YYYY` (with `/`, `.` or `-`), read in `order`,
    /// with its time and zone where written.
    package static func numeric(_ bytes: UnsafeBufferPointer<UInt8>, order: DateOrder) -> Local? {
        guard case (let first, let second, let year, _, let text)? = numericParts(bytes) else { return nil }
        let (month, day) = order == .monthFirst ? (first, second) : (second, first)
        guard let date = days(year, month, day) else { return nil }
        var rest = text
        return rest.time(after: date, separators: [UInt8(ascii: " "), UInt8(ascii: "T")])
    }

    /// The orders and separator a date written in numbers may be read in: both orders for
    /// `01/02/2025`, month first alone for `11/26/2026`; `nil` for a text that is no such date in
    /// either order.
    package static func numericForms(_ bytes: UnsafeBufferPointer<UInt8>) -> NumericDateForms? {
        guard case (let first, let second, let year, let separator, let text)? = numericParts(bytes) else { return nil }
        var forms = NumericDateForms(separator: separator)
        for order in [DateOrder.monthFirst, .dayFirst] {
            let (month, day) = order == .monthFirst ? (first, second) : (second, first)
            guard let date = days(year, month, day) else { continue }
            var rest = text
            guard rest.time(after: date, separators: [UInt8(ascii: " "), UInt8(ascii: "T")]) != nil else {
                return nil
            }
            forms.insert(order.form)
        }
        return forms.orders.isEmpty ? nil : forms
    }

    /// ``numericForms(_:)`` of a text.
    package static func numericForms(_ text: String) -> NumericDateForms? {
        var text = text
        return text.withUTF8 { numericForms($0) }
    }

    /// The two numbers, the year and the separator of `N{1,2} sep N{1,2} sep YYYY`, with a reader
    /// at what follows.
    private static func numericParts(_ bytes: UnsafeBufferPointer<UInt8>) -> (
        Int64, Int64, Int64, UInt8, WordReader
    )? {
        guard bytes.count >= 8, bytes.count <= 48 else { return nil }
        var text = WordReader(bytes: bytes)
        guard let first = text.number(maxDigits: 2), let separator = text.next(),
            separator == UInt8(ascii: "/") || separator == UInt8(ascii: ".") || separator == UInt8(ascii: "-"),
            let second = text.number(maxDigits: 2), text.expect(separator), let year = text.fourDigitYear()
        else { return nil }
        return (first, second, year, separator, text)
    }

    /// Days since 1970 of a valid date in years 1 to 9999, `nil` for an invalid one.
    private static func days(_ year: Int64, _ month: Int64, _ day: Int64) -> Int64? {
        guard year >= 1, (1...12).contains(month), day >= 1, day <= Timestamp.daysIn(month: month, year: year) else {
            return nil
        }
        return Timestamp.days(fromCivil: year, month, day)
    }

    fileprivate static func isLetter(_ byte: UInt8) -> Bool { (byte | 0x20) >= 97 && (byte | 0x20) <= 122 }

    /// Whether a text starting with a letter may be a date ``named(_:)`` reads: it starts with a
    /// weekday's or a month's first three letters. Most text is told by this alone.
    package static func mayStartNamed(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard bytes.count >= 8 else { return false }
        let key = UInt32(bytes[0] | 0x20) << 16 | UInt32(bytes[1] | 0x20) << 8 | UInt32(bytes[2] | 0x20)
        return abbreviations.contains(key)
    }

    /// The first three letters of every month and weekday (``key(_:)``), compared one by one:
    /// fewer than twenty numbers, where hashing one would cost more.
    private static let abbreviations = (Months.names + Weekdays.names).map(key)

    /// Month names, full or in three letters (`Sept` too), in any case.
    private enum Months {
        static let names = [
            "january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
            "november", "december",
        ]

        /// The month (1 to 12) a word names.
        static func index(of word: UnsafeBufferPointer<UInt8>) -> Int64? {
            guard word.count >= 3 else { return nil }
            for (offset, name) in names.enumerated()
            where WrittenDate.matches(word, name) || (offset == 8 && WrittenDate.matches(word, "sept")) {
                return Int64(offset + 1)
            }
            return nil
        }
    }

    /// Weekday names, full or in three letters, in any case.
    private enum Weekdays {
        static let names = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]

        static func index(of word: UnsafeBufferPointer<UInt8>) -> Int? {
            guard word.count >= 3 else { return nil }
            return names.firstIndex { WrittenDate.matches(word, $0) }
        }
    }

    /// A name's first three letters as one number, as ``mayStartNamed(_:)`` compares them.
    private static func key(_ name: String) -> UInt32 {
        let bytes = Array(name.utf8)
        return UInt32(bytes[0]) << 16 | UInt32(bytes[1]) << 8 | UInt32(bytes[2])
    }

    /// Whether `word` is `name` (lowercase ASCII) or its first three letters, in any case.
    private static func matches(_ word: UnsafeBufferPointer<UInt8>, _ name: String) -> Bool {
        guard word.count == 3 || word.count == name.utf8.count else { return false }
        return zip(word, name.utf8).allSatisfy { $0 | 0x20 == $1 }
    }
}

/// Which of a date's two numbers is its month.
package enum DateOrder: UInt8, Hashable, Sendable {
    /// `11/26/2026`: `MM/dd/yyyy`, as in the United States.
    case monthFirst
    /// `26/11/2026`: `dd/MM/yyyy`, as in most of the world.
    case dayFirst

    package var form: NumericDateForms { self == .monthFirst ? .monthFirst : .dayFirst }

    /// The pattern of the order, with `separator` between the numbers: `MM/dd/yyyy`.
    package func pattern(separator: Character = "/") -> String {
        self == .monthFirst ? "MM\(separator)dd\(separator)yyyy" : "dd\(separator)MM\(separator)yyyy"
    }
}

/// What a column's dates written in numbers allow: the orders they can all be read in (a day over
/// 12 rules one out), and the separators they are written with. `01/02/2025` allows both orders;
/// beside `11/26/2026`, month first alone.
package struct NumericDateForms: OptionSet, Hashable, Sendable {
    package let rawValue: UInt8

    package static let monthFirst = NumericDateForms(rawValue: 1)
    package static let dayFirst = NumericDateForms(rawValue: 2)
    package static let slash = NumericDateForms(rawValue: 4)
    package static let dot = NumericDateForms(rawValue: 8)
    package static let dash = NumericDateForms(rawValue: 16)

    package init(rawValue: UInt8) { self.rawValue = rawValue }

    package init(separator: UInt8) {
        self =
            switch separator {
            case UInt8(ascii: "."): .dot
            case UInt8(ascii: "-"): .dash
            default: .slash
            }
    }

    /// The orders alone.
    package var orders: NumericDateForms { intersection([.monthFirst, .dayFirst]) }

    /// The one order the dates allow, if only one; day first for dates written with points
    /// alone, which no one writes month first (`05.06.2021`).
    package var order: DateOrder? {
        switch orders {
        case .monthFirst: .monthFirst
        case .dayFirst: .dayFirst
        default: isWrittenWithPoints ? .dayFirst : nil
        }
    }

    /// Whether the dates are all written with points (`26.11.2026`).
    package var isWrittenWithPoints: Bool { subtracting(orders) == .dot }

    /// The separator the dates are written with, `/` where several.
    package var separator: Character {
        switch subtracting(orders) {
        case .dot: "."
        case .dash: "-"
        default: "/"
        }
    }

    /// The forms that hold the values of both: orders that read both, separators of either;
    /// `nil` where no order reads both.
    package func merged(with other: NumericDateForms) -> NumericDateForms? {
        let orders = self.orders.intersection(other.orders)
        guard !orders.isEmpty else { return nil }
        return orders.union(subtracting(self.orders)).union(other.subtracting(other.orders))
    }
}

/// Reads the words, numbers and times of a written date from the front.
private struct WordReader {
    package let bytes: UnsafeBufferPointer<UInt8>
    package var index = 0

    package var isAtEnd: Bool { index == bytes.count }

    package mutating func next() -> UInt8? {
        guard index < bytes.count else { return nil }
        index += 1
        return bytes[index - 1]
    }

    package mutating func expect(_ byte: UInt8) -> Bool {
        guard index < bytes.count, bytes[index] == byte else { return false }
        index += 1
        return true
    }

    /// Skips spaces; whether there was one.
    package mutating func skipSpaces() -> Bool {
        let start = index
        while index < bytes.count, bytes[index] == UInt8(ascii: " ") { index += 1 }
        return index > start
    }

    /// The letters from here, if a letter is next.
    package func peekWord() -> UnsafeBufferPointer<UInt8>? {
        var end = index
        while end < bytes.count, WrittenDate.isLetter(bytes[end]) { end += 1 }
        return end > index ? UnsafeBufferPointer(rebasing: bytes[index..<end]) : nil
    }

    package mutating func skipWord() {
        while index < bytes.count, WrittenDate.isLetter(bytes[index]) { index += 1 }
    }

    /// Skips `word` (lowercase ASCII, in any case) and the spaces after it, where it is next.
    package mutating func skip(word: String) {
        guard let next = peekWord(), next.count == word.utf8.count,
            zip(next, word.utf8).allSatisfy({ $0 | 0x20 == $1 })
        else { return }
        skipWord()
        _ = skipSpaces()
    }

    /// Skips the ordinal suffix a day's number may carry, where it is the right one: `1st`, `2nd`,
    /// `3rd`, `5th`, `11th`, `22nd`.
    package mutating func skipOrdinalSuffix(of day: Int64) {
        let suffix =
            switch day % 100 / 10 == 1 ? 0 : day % 10 {
            case 1: "st"
            case 2: "nd"
            case 3: "rd"
            default: "th"
            }
        guard let word = peekWord(), word.count == 2, zip(word, suffix.utf8).allSatisfy({ $0 | 0x20 == $1 }) else {
            return
        }
        skipWord()
    }

    /// A number of one to `maxDigits` digits.
    package mutating func number(maxDigits: Int) -> Int64? {
        var value: Int64 = 0
        var digits = 0
        while digits < maxDigits, index < bytes.count, bytes[index] >= 48, bytes[index] <= 57 {
            value = value * 10 + Int64(bytes[index] - 48)
            index += 1
            digits += 1
        }
        return digits > 0 ? value : nil
    }

    /// Four digits, not followed by a fifth.
    package mutating func fourDigitYear() -> Int64? {
        let start = index
        guard let year = number(maxDigits: 4), index - start == 4,
            index == bytes.count || !(bytes[index] >= 48 && bytes[index] <= 57)
        else { return nil }
        return year
    }

    /// The date (days since 1970) with the time and zone that follow it, after one of `separators`:
    /// `HH:MM`, `:SS`, a fraction kept to the millisecond, `AM` or `PM`, then a zone (`Z`, `GMT`, `UT`, `UTC`,
    /// `±HH:MM`, `±HHMM`, the North American zones of RFC 2822), alone or after a space. `nil`
    /// where anything else follows.
    package mutating func time(after days: Int64, separators: [UInt8]) -> WrittenDate.Local? {
        var milliseconds = days * 86_400_000
        if isAtEnd { return (milliseconds, nil) }
        guard let separator = next(), separators.contains(separator) else { return nil }
        if separator == UInt8(ascii: " ") { _ = skipSpaces() }
        guard var hour = number(maxDigits: 2), hour < 24, expect(UInt8(ascii: ":")), let minute = exactly(2),
            minute < 60
        else { return nil }
        var second: Int64 = 0
        var fraction: Int64 = 0
        if expect(UInt8(ascii: ":")) {
            guard let parsed = exactly(2), parsed < 60 else { return nil }
            second = parsed
            if expect(UInt8(ascii: ".")) {
                var digits = 0
                while index < bytes.count, bytes[index] >= 48, bytes[index] <= 57 {
                    if digits < 3 { fraction = fraction * 10 + Int64(bytes[index] - 48) }
                    digits += 1
                    index += 1
                }
                guard digits > 0 else { return nil }
                for _ in min(digits, 3)..<3 { fraction *= 10 }
            }
        }
        let afterTime = index
        _ = skipSpaces()
        if let word = peekWord(), word.count == 2, word[1] | 0x20 == UInt8(ascii: "m"),
            word[0] | 0x20 == UInt8(ascii: "a") || word[0] | 0x20 == UInt8(ascii: "p")
        {
            // `10:30 PM`: hours 1 to 12, 12 AM being midnight and 12 PM noon.
            guard (1...12).contains(hour) else { return nil }
            hour = hour % 12 + (word[0] | 0x20 == UInt8(ascii: "p") ? 12 : 0)
            skipWord()
        } else {
            index = afterTime
        }
        milliseconds += ((hour * 60 + minute) * 60 + second) * 1000 + fraction
        if isAtEnd { return (milliseconds, nil) }
        _ = skipSpaces()
        guard let offset = zoneOffset(), isAtEnd else { return nil }
        return (milliseconds, offset)
    }

    /// Exactly `count` digits.
    private mutating func exactly(_ count: Int) -> Int64? {
        let start = index
        guard let value = number(maxDigits: count), index - start == count else {
            index = start
            return nil
        }
        return value
    }

    /// A zone's offset from UTC in milliseconds.
    private mutating func zoneOffset() -> Int64? {
        guard index < bytes.count else { return nil }
        let sign = bytes[index]
        if sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") {
            index += 1
            guard let hours = exactly(2), hours < 24 else { return nil }
            _ = expect(UInt8(ascii: ":"))
            guard let minutes = exactly(2), minutes < 60 else { return nil }
            return (sign == UInt8(ascii: "+") ? 1 : -1) * (hours * 60 + minutes) * 60_000
        }
        guard let word = peekWord() else { return nil }
        let name = String(decoding: word, as: UTF8.self).uppercased()
        guard let hours = Self.namedZones[name] else { return nil }
        skipWord()
        return hours * 3_600_000
    }

    /// The zones RFC 2822 names, with their offsets in hours.
    private static let namedZones: [String: Int64] = [
        "Z": 0, "GMT": 0, "UT": 0, "UTC": 0, "EST": -5, "EDT": -4, "CST": -6, "CDT": -5, "MST": -7, "MDT": -6,
        "PST": -8, "PDT": -7,
    ]
}
