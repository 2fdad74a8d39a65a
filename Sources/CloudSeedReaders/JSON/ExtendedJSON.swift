import CloudSeedCore
import Foundation

/// MongoDB Extended JSON, as `mongoexport` writes it in its canonical and relaxed forms: an object
/// of one `$`-key stands for the value it wraps (`{"$oid": "63c5…"}` → the id's text,
/// `{"$date": {"$numberLong": "1673872424560"}}` → a date, `{"$numberDecimal": "9.99"}` → a number,
/// `{"$binary": {"base64": …, "subType": "00"}}` → data).
package enum ExtendedJSON {
    /// The value the members of an object stand for, where they are one Extended JSON wrapper;
    /// `nil` for any other object.
    package static func value(of entries: [PlainEntry]) -> PlainValue? {
        guard let first = entries.first, first.key.utf8.first == UInt8(ascii: "$"), entries.count <= 2 else {
            return nil
        }
        if entries.count == 2 {
            // The legacy binary form: {"$binary": "…", "$type": "00"}.
            guard first.key == "$binary", entries[1].key == "$type", case .string(let text) = first.value else {
                return nil
            }
            return Data(base64Encoded: text).map(PlainValue.data)
        }
        switch (first.key, first.value) {
        case ("$oid", .string(let hex)), ("$symbol", .string(let hex)): return .string(hex)
        case ("$numberLong", .string(let text)), ("$numberInt", .string(let text)):
            return Int64(text).map(PlainValue.integer)
        case ("$numberDouble", .string(let text)), ("$numberDecimal", .string(let text)):
            return Double(text).map(PlainValue.real)
        case ("$date", .string(let text)): return Timestamp.parse(text).map(PlainValue.date)
        case ("$date", .integer(let milliseconds)): return .date(milliseconds)
        case ("$date", .dictionary(let inner)):
            guard case .integer(let milliseconds)? = value(of: inner) else { return nil }
            return .date(milliseconds)
        case ("$binary", .dictionary(let inner)):
            guard case .string(let text)? = inner.first(where: { $0.key == "base64" })?.value else { return nil }
            return Data(base64Encoded: text).map(PlainValue.data)
        default: return nil
        }
    }
}
