import Foundation

/// How a TIMESTAMP field's texts are read where not in the default way (ISO 8601 and dates with a
/// month's name, a time without a zone in UTC): the order of day and month in dates written in
/// numbers (`11/26/2026`), which the field's values or `--date-format` decide, and the zone of
/// times written without one (`--timezone`).
///
/// ```
/// DateReading(order: .dayFirst).milliseconds(of: "26/11/2026")      // 1795651200000
/// DateReading(zone: try TimeZoneChoice(parsing: "+01:00")).milliseconds(of: "2008-06-03 11:05:30")
///                                                                   // 1212487530000
/// ```
struct DateReading: Hashable, Sendable {
    /// Which number is the month in a date written in numbers; `nil` reads no such date.
    var order: DateOrder?
    /// What separates the numbers where the plan prints the order's pattern.
    var separator: Character = "/"
    /// The zone of dates and times written without one; `nil` is UTC.
    var zone: TimeZoneChoice?

    /// The pattern of the order, as `--date-format` takes it (`MM/dd/yyyy`).
    var pattern: String? { order?.pattern(separator: separator) }

    /// The time a text gives, in milliseconds since 1970, read the default way where `reading`
    /// is `nil`; `nil` for a text that is no date this reads.
    static func milliseconds(of bytes: UnsafeBufferPointer<UInt8>, reading: DateReading?) -> Int64? {
        guard let reading else {
            if let milliseconds = Timestamp.parse(utf8: bytes) { return milliseconds }
            return (WrittenDate.named(bytes) ?? WrittenDate.yearFirst(bytes)).map { $0.milliseconds - ($0.offset ?? 0) }
        }
        return reading.milliseconds(of: bytes)
    }

    /// ``milliseconds(of:reading:)`` of a text.
    static func milliseconds(of text: String, reading: DateReading?) -> Int64? {
        var text = text
        return text.withUTF8 { milliseconds(of: $0, reading: reading) }
    }

    func milliseconds(of bytes: UnsafeBufferPointer<UInt8>) -> Int64? {
        guard
            let local = Timestamp.parseLocal(utf8: bytes) ?? order.flatMap({ WrittenDate.numeric(bytes, order: $0) })
                ?? WrittenDate.named(bytes) ?? WrittenDate.yearFirst(bytes)
        else { return nil }
        if let offset = local.offset { return local.milliseconds - offset }
        guard let zone else { return local.milliseconds }
        return Self.utc(fromLocal: local.milliseconds, in: zone.zone)
    }

    /// The UTC time of a local time in `zone`: the local time less the zone's offset at that time.
    /// A local time skipped by a change to summer time is read with the offset before it; one
    /// repeated by the change back, as its first occurrence.
    static func utc(fromLocal milliseconds: Int64, in zone: TimeZone) -> Int64 {
        func offset(at milliseconds: Int64) -> Int64 {
            Int64(zone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(milliseconds) / 1000))) * 1000
        }
        let guess = milliseconds - offset(at: milliseconds)
        return milliseconds - offset(at: guess)
    }
}

/// `--date-format [type.]field=FORMAT`, or a `FORMAT` for every field: how a field's dates written
/// in numbers are read, where its values do not tell (`01/02/2025`) or to pin what they tell.
///
/// FORMAT is `MM/dd/yyyy` (month first) or `dd/MM/yyyy` (day first), with `/`, `.` or `-`
/// between the numbers; `M` and `d` alone read the same.
package struct DateFormatPin: Hashable, Sendable {
    package var recordType: String?
    /// The field; `nil` for every field of dates written in numbers.
    package var field: String?
    var order: DateOrder
    var separator: Character

    /// Reads `published=MM/dd/yyyy`, `Book.published=dd.MM.yyyy` or `dd/MM/yyyy`.
    package init(parsing text: String) throws {
        var format = Substring(text)
        if let equals = text.firstIndex(of: "=") {
            (recordType, field) = splitQualified(String(text[..<equals]))
            guard let field, IdentifierMapping.isValid(field), recordType.map(IdentifierMapping.isValid) ?? true else {
                throw CloudSeedError(
                    .invalidOption,
                    "\(option: .dateFormat(nil)) '\(text)': names start with a letter and hold letters, digits and '_'")
            }
            format = text[text.index(after: equals)...]
        }
        let parts = format.split(omittingEmptySubsequences: false) { "/.-".contains($0) }
        let separators = Set(format.filter { "/.-".contains($0) })
        let order: DateOrder? =
            switch parts.count == 3 ? (parts[0], parts[1]) : ("", "") {
            case ("MM", "dd"), ("M", "d"), ("MM", "d"), ("M", "dd"): .monthFirst
            case ("dd", "MM"), ("d", "M"), ("dd", "M"), ("d", "MM"): .dayFirst
            default: nil
            }
        guard let order, parts.count == 3, separators.count == 1, parts[2] == "yyyy" else {
            throw CloudSeedError(
                .invalidOption,
                "\(option: .dateFormat(nil)) '\(text)': use MM/dd/yyyy (month first) or dd/MM/yyyy (day first), with /, . or - between the numbers, for one field as [type.]field=FORMAT"
            )
        }
        self.order = order
        separator = separators.first!
    }
}

/// `--timezone`: the zone of dates and times written without one, an IANA name (`Europe/Paris`),
/// `UTC`, or an offset (`+02:00`, `-0530`).
package struct TimeZoneChoice: Hashable, Sendable {
    let zone: TimeZone

    package init(parsing text: String) throws {
        if text == "UTC" || text == "Z" {
            zone = TimeZone(secondsFromGMT: 0)!
            return
        }
        var bytes = Array(text.utf8)
        if let sign = bytes.first, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") {
            bytes.removeAll { $0 == UInt8(ascii: ":") }
            if bytes.count == 5, bytes.dropFirst().allSatisfy({ $0 >= 48 && $0 <= 57 }) {
                let digits = bytes.dropFirst().map { Int($0 - 48) }
                let hours = digits[0] * 10 + digits[1]
                let minutes = digits[2] * 10 + digits[3]
                if hours < 24, minutes < 60,
                    let zone = TimeZone(
                        secondsFromGMT: (sign == UInt8(ascii: "+") ? 1 : -1) * (hours * 60 + minutes) * 60)
                {
                    self.zone = zone
                    return
                }
            }
        } else if let zone = TimeZone(identifier: text) {
            self.zone = zone
            return
        }
        throw CloudSeedError(
            .invalidOption,
            "\(option: .timeZone(nil)) '\(text)' is not a time zone; use a name such as Europe/Paris or America/New_York, UTC, or an offset such as +02:00"
        )
    }
}
