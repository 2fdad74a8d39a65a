package import CloudSeedCore
package import Foundation

/// A plain value as a source file holds it, before it is typed for a record.
package enum PlainValue: Hashable, Sendable {
    /// Text from a typed format (JSON, property lists): a string, or a date if it reads as ISO 8601.
    case string(String)
    /// Text from an untyped format (a CSV cell): typed by inference (number, boolean, date, text).
    case text(String)
    case integer(Int64)
    case real(Double)
    case bool(Bool)
    /// Milliseconds since 1970.
    case date(Int64)
    case data(Data)
    case array([PlainValue])
    case dictionary([PlainEntry])
    case null
}

extension PlainValue {
    /// Whether the value is an array or a dictionary.
    package var isNested: Bool {
        switch self {
        case .array, .dictionary: true
        default: false
        }
    }
}

/// One key and value of a dictionary, in source order.
package struct PlainEntry: Hashable, Sendable {
    package var key: String
    package var value: PlainValue

    package init(_ key: String, _ value: PlainValue) {
        self.key = key
        self.value = value
    }
}

/// A field of a source row: its key as written, its value and where the value is.
package struct SourceField: Hashable, Sendable {
    package var key: String
    package var value: PlainValue
    package var position: SourcePosition
    /// The type the source itself declares (CloudKit record dictionaries carry one).
    package var declaredType: FieldType?
    /// Whether ``declaredType`` is the one CloudKit gives the value's shape, the source giving none.
    package var isTypedByShape = false

    package init(
        key: String, value: PlainValue, position: SourcePosition, declaredType: FieldType? = nil,
        isTypedByShape: Bool = false
    ) {
        self.key = key
        self.value = value
        self.position = position
        self.declaredType = declaredType
        self.isTypedByShape = isTypedByShape
    }
}

/// One row of a source: the fields of one record to be, with where it came from.
package struct SourceRow: Hashable, Sendable {
    /// The record type the source names (a key of the document, a CloudKit `recordType`), if any.
    package var recordType: String?
    /// The record name the source gives (a dictionary key, a CloudKit `recordName`), if any.
    package var recordName: String?
    package var fields: [SourceField]
    package var position: SourcePosition
    /// The change tag the source gives (CloudKit's `recordChangeTag`), for `--mode update-if-unchanged`.
    package var changeTag: String?

    package init(
        recordType: String? = nil, recordName: String? = nil, fields: [SourceField], position: SourcePosition,
        changeTag: String? = nil
    ) {
        self.recordType = recordType
        self.recordName = recordName
        self.fields = fields
        self.position = position
        self.changeTag = changeTag
    }
}

/// A reader: yields the rows of one source, in order.
package protocol SourceReader {
    /// Calls `body` with each row; stops at the first error, which names its position.
    func forEachRow(_ body: (SourceRow) throws -> Void) throws
}

extension PlainValue {
    /// The value as a text that names something (a record, a row's key): a text or a scalar
    /// written out; `nil` for an empty text and for any other value.
    package var namingText: String? {
        switch self {
        case .text(let text), .string(let text): text.isEmpty ? nil : text
        case .integer(let number): String(number)
        case .real(let number): JSONText.number(number)
        case .bool(let flag): flag ? "true" : "false"
        case .date(let milliseconds): Timestamp.format(milliseconds)
        default: nil
        }
    }
}
