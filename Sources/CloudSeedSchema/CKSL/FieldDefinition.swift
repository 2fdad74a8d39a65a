import CloudSeedCore

/// A field of a ``RecordTypeDefinition``: its name, data type, encryption and index options.
///
/// ```swift
/// FieldDefinition(name: "title", type: .string, options: [.queryable, .searchable])
///     .declaration                                      // "STRING QUERYABLE SEARCHABLE"
/// FieldDefinition(name: "secret", type: .string, isEncrypted: true).declaration   // "ENCRYPTED STRING"
/// ```
package struct FieldDefinition: Hashable, Sendable {
    /// An index CloudKit maintains on a field, in the order cktool exports them.
    package enum Option: String, CaseIterable, Hashable, Sendable, CustomStringConvertible {
        /// An index for equality lookups.
        case queryable = "QUERYABLE"
        /// A text search index; only for `STRING` and `LIST<STRING>` fields.
        case searchable = "SEARCHABLE"
        /// An index for range searches and sorting.
        case sortable = "SORTABLE"

        /// The CKSL keyword: `QUERYABLE`.
        package var description: String { rawValue }
    }

    /// The field name: an identifier such as `title`, or a system field such as `___recordID`.
    package var name: String
    /// The data type, without `ENCRYPTED`.
    package var type: FieldDataType
    /// Whether the field is declared `ENCRYPTED`.
    package var isEncrypted: Bool
    /// The index options.
    package var options: Set<Option>

    /// Creates a field.
    package init(name: String, type: FieldDataType, isEncrypted: Bool = false, options: Set<Option> = []) {
        self.name = name
        self.type = type
        self.isEncrypted = isEncrypted
        self.options = options
    }

    /// The six fields every record type has implicitly, without options, in byte order.
    package static let systemFields: [FieldDefinition] = [
        FieldDefinition(name: "___createTime", type: .timestamp),
        FieldDefinition(name: "___createdBy", type: .reference),
        FieldDefinition(name: "___etag", type: .string),
        FieldDefinition(name: "___modTime", type: .timestamp),
        FieldDefinition(name: "___modifiedBy", type: .reference),
        FieldDefinition(name: "___recordID", type: .reference),
    ]

    /// The system field called `name`, without options, or `nil` when `name` is not one.
    package static func systemField(named name: String) -> FieldDefinition? {
        systemFields.first { $0.name == name }
    }

    /// Whether this is one of the six ``systemFields``.
    package var isSystemField: Bool {
        Self.systemField(named: name) != nil
    }

    /// The options in the order cktool prints them: `QUERYABLE`, `SEARCHABLE`, `SORTABLE`.
    package var sortedOptions: [Option] {
        Option.allCases.filter(options.contains)
    }

    /// The type as CKSL writes it, with `ENCRYPTED` when the field is encrypted: `ENCRYPTED STRING`.
    package var typeDeclaration: String {
        isEncrypted ? "ENCRYPTED \(type)" : type.description
    }

    /// Everything CKSL writes after the field name: `STRING QUERYABLE SEARCHABLE SORTABLE`.
    package var declaration: String {
        ([typeDeclaration] + sortedOptions.map(\.rawValue)).joined(separator: " ")
    }
}
