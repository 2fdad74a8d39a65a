import CloudSeedCore

/// A primitive type of the CloudKit Schema Language.
package enum PrimitiveType: String, CaseIterable, Hashable, Sendable, CustomStringConvertible {
    case asset = "ASSET"
    case bytes = "BYTES"
    case double = "DOUBLE"
    case int64 = "INT64"
    case location = "LOCATION"
    case reference = "REFERENCE"
    case string = "STRING"
    case timestamp = "TIMESTAMP"

    /// The types `ENCRYPTED` may precede: all but `ASSET` (always encrypted) and `REFERENCE`
    /// (kept readable for the server).
    package static let encryptable: [PrimitiveType] = [.bytes, .double, .int64, .location, .string, .timestamp]

    /// The CKSL keyword: `STRING`, `INT64`.
    package var description: String { rawValue }
}

/// The type a `NUMBER` field is read as, given with `PREFERRED AS`.
package enum PreferredNumberType: String, CaseIterable, Hashable, Sendable, CustomStringConvertible {
    case int64 = "INT64"
    case double = "DOUBLE"

    /// The CKSL keyword: `STRING`, `INT64`.
    package var description: String { rawValue }
}

/// The data type of a field, without `ENCRYPTED` (see ``FieldDefinition/isEncrypted``).
///
/// ```swift
/// FieldDataType.list(.string).description               // "LIST<STRING>"
/// FieldDataType.number(preferred: .int64).description   // "NUMBER PREFERRED AS INT64"
/// ```
package enum FieldDataType: Hashable, Sendable, CustomStringConvertible {
    /// A primitive type: `STRING`, `INT64`, `ASSET`...
    case primitive(PrimitiveType)
    /// `NUMBER`, the type of a number field CloudKit created just in time, optionally with the type
    /// it is read as (`NUMBER PREFERRED AS DOUBLE`).
    case number(preferred: PreferredNumberType?)
    /// A list of a primitive type: `LIST<STRING>`. Lists do not nest.
    case list(PrimitiveType)

    /// `.primitive(.asset)`; these shorthands make `.string` mean `.primitive(.string)`.
    package static let asset = FieldDataType.primitive(.asset)
    /// `.primitive(.bytes)`.
    package static let bytes = FieldDataType.primitive(.bytes)
    /// `.primitive(.double)`.
    package static let double = FieldDataType.primitive(.double)
    /// `.primitive(.int64)`.
    package static let int64 = FieldDataType.primitive(.int64)
    /// `.primitive(.location)`.
    package static let location = FieldDataType.primitive(.location)
    /// `.primitive(.reference)`.
    package static let reference = FieldDataType.primitive(.reference)
    /// `.primitive(.string)`.
    package static let string = FieldDataType.primitive(.string)
    /// `.primitive(.timestamp)`.
    package static let timestamp = FieldDataType.primitive(.timestamp)

    /// The type as CKSL writes it: `STRING`, `NUMBER PREFERRED AS INT64`, `LIST<STRING>`.
    package var description: String {
        switch self {
        case .primitive(let primitive): primitive.rawValue
        case .number(let preferred?): "NUMBER PREFERRED AS \(preferred)"
        case .number(nil): "NUMBER"
        case .list(let element): "LIST<\(element)>"
        }
    }
}
