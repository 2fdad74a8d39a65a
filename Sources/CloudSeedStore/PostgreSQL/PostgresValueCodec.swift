package import CloudSeedCore
package import Foundation

/// How a field value is kept in a PostgreSQL column, in the type a person reading the table expects:
///
/// | field type | column | example |
/// | --- | --- | --- |
/// | STRING, INT64, DOUBLE, BYTES | text, bigint, double precision, bytea | `Get apples`, `0`, `1250.5` |
/// | TIMESTAMP | timestamptz (milliseconds, exact) | `2019-10-28 00:00:00+00` |
/// | LOCATION | double precision[]: latitude, longitude, then what else it has (``locationElements``) | `{39.3,-123.8}` |
/// | REFERENCE | text, the record name; JSON when the action is not NONE | `Mei Chen` |
/// | ASSET | text, the SHA-256 of the file in `cloudseed.assets` | `9f86d0…` |
/// | LIST<T> | jsonb, an array of the SQLite store's element forms | `["coast", "oil"]` |
///
/// Values travel in PostgreSQL's text format as statement parameters, and in `COPY`'s binary
/// format when rows are saved (``PostgresBinaryRow``).
package enum PostgresValueCodec {
    /// The SQL type of a field type's column, as PostgreSQL's `format_type` names it.
    package static func sqlType(for type: FieldType) -> String {
        switch type {
        case .string, .reference, .asset: "text"
        case .int64: "bigint"
        case .double: "double precision"
        case .bytes: "bytea"
        case .timestamp: "timestamp with time zone"
        case .location: "double precision[]"
        case .list: "jsonb"
        }
    }

    /// The column definition for a field type: text sorts by bytes (`COLLATE "C"`), as on SQLite.
    package static func columnType(for type: FieldType) -> String {
        let sql = sqlType(for: type)
        return sql == "text" ? "text COLLATE \"C\"" : sql
    }

    /// What a SELECT reads for a column of `type`: timestamps as milliseconds since 1970, the rest as stored.
    package static func selected(_ column: String, as type: FieldType) -> String {
        let quoted = SQLIdentifier.quoted(column)
        return type == .timestamp ? "(extract(epoch FROM \(quoted)) * 1000)::bigint" : quoted
    }

    /// The text form of a value: a statement's parameter, or the text inside a binary `COPY` field
    /// (a `jsonb` value's, a reference's).
    package static func encode(_ value: RecordValue) throws -> String {
        guard !holdsNUL(value) else { throw nulError }
        switch value {
        case .string(let text): return text
        case .int64(let number): return String(number)
        case .double(let number): return "\(number)"
        case .bytes(let data):
            let digits = Array("0123456789abcdef".utf8)
            var text: [UInt8] = [UInt8(ascii: "\\"), UInt8(ascii: "x")]
            text.reserveCapacity(2 + data.count * 2)
            for byte in data { text += [digits[Int(byte >> 4)], digits[Int(byte & 15)]] }
            return String(decoding: text, as: UTF8.self)
        case .timestamp(let milliseconds):
            guard let text = Timestamp.format(milliseconds) else { throw outOfRange(milliseconds) }
            return text
        case .reference(let reference) where reference.isKeptAsName:
            return reference.recordName
        case .asset(let asset): return asset.fileChecksum
        case .location(let location):
            return "{" + locationElements(location).map { $0.map { "\($0)" } ?? "NULL" }.joined(separator: ",") + "}"
        case .reference, .list: return SQLiteValueCodec.jsonElement(value)
        }
    }

    /// The refusal of a text holding U+0000, which neither `text` nor `jsonb` can keep.
    package static var nulError: CloudSeedError {
        CloudSeedError(
            .invalidValue,
            "PostgreSQL text cannot hold the character U+0000; remove it from the value, or use a SQLite store")
    }

    /// The refusal of a timestamp outside the years a store keeps.
    package static func outOfRange(_ milliseconds: Int64) -> CloudSeedError {
        CloudSeedError(
            .invalidValue, "the timestamp \(milliseconds) ms is outside the years 0001 to 9999 a store keeps")
    }

    /// Whether a value's text, or a list's, holds U+0000, which neither text nor jsonb can keep.
    package static func holdsNUL(_ value: RecordValue) -> Bool {
        switch value {
        case .string(let text): text.utf8.contains(0)
        case .reference(let reference): reference.recordName.utf8.contains(0)
        case .list(_, let items): items.contains(where: holdsNUL)
        default: false
        }
    }

    /// Reads a column (as ``selected(_:as:)`` gives it) back as a value of `type`; `nil` for NULL.
    package static func decode(_ text: String?, as type: FieldType, assetSizes: (String) throws -> Int64) throws
        -> RecordValue?
    {
        guard let text else { return nil }
        switch type {
        case .string: return .string(text)
        case .int64: if let number = Int64(text) { return .int64(number) }
        case .double: if let number = Double(text) { return .double(number) }
        case .timestamp: if let milliseconds = Int64(text) { return .timestamp(milliseconds) }
        case .bytes: if let data = bytes(hex: text) { return .bytes(data) }
        case .location: if let location = location(arrayText: text) { return .location(location) }
        case .reference, .asset, .list:
            return try SQLiteValueCodec.decode(.text(text), as: type, assetSizes: assetSizes)
        }
        throw CloudSeedError(.storeFailure, "the store holds a value that is not a \(type.schemaName): \(text)")
    }

    /// A location's column elements: latitude, longitude, altitude, horizontal accuracy, vertical
    /// accuracy, course, speed and timestamp (milliseconds since 1970, exact as a double up to
    /// 2^53), up to the last it has; `nil` for one it lacks before that.
    ///
    /// A location was `jsonb` before: PostgreSQL parsed its JSON for every row, much of its work
    /// in a big `COPY`, where an array is quicker to take in.
    package static func locationElements(_ location: Location) -> [Double?] {
        var elements: [Double?] = [
            location.latitude, location.longitude, location.altitude, location.horizontalAccuracy,
            location.verticalAccuracy, location.course, location.speed, location.timestamp.map(Double.init),
        ]
        while elements.count > 2, elements.last! == nil { elements.removeLast() }
        return elements
    }

    /// A location from its column's text, as PostgreSQL writes an array: `{39.3,-123.8}`, `NULL` for an element it lacks.
    package static func location(arrayText text: String) -> Location? {
        guard text.hasPrefix("{"), text.hasSuffix("}") else { return nil }
        var elements: [Double?] = []
        for part in text.dropFirst().dropLast().split(separator: ",", omittingEmptySubsequences: false) {
            if part == "NULL" {
                elements.append(nil)
            } else {
                guard let number = Double(part) else { return nil }
                elements.append(number)
            }
        }
        guard elements.count >= 2, elements.count <= 8, let latitude = elements[0], let longitude = elements[1] else {
            return nil
        }
        func element(_ index: Int) -> Double? { index < elements.count ? elements[index] : nil }
        var timestamp: Int64?
        if let milliseconds = element(7) {
            guard let exact = Int64(exactly: milliseconds) else { return nil }
            timestamp = exact
        }
        return Location(
            latitude: latitude, longitude: longitude, altitude: element(2), horizontalAccuracy: element(3),
            verticalAccuracy: element(4), course: element(5), speed: element(6), timestamp: timestamp)
    }

    /// The bytes of bytea's hex output, `\x0aff`.
    package static func bytes(hex text: String) -> Data? {
        let digits = Array(text.utf8)
        guard digits.count % 2 == 0, digits.starts(with: [UInt8(ascii: "\\"), UInt8(ascii: "x")]) else { return nil }
        var data = Data(capacity: digits.count / 2 - 1)
        var index = 2
        while index < digits.count {
            guard let high = nibble(digits[index]), let low = nibble(digits[index + 1]) else { return nil }
            data.append(high << 4 | low)
            index += 2
        }
        return data
    }

    private static func nibble(_ digit: UInt8) -> UInt8? {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): digit - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
