/// A field type of the CloudKit Schema Language (CKSL): a primitive type or a homogeneous list of one.
///
/// ```swift
/// FieldType.list(.string).schemaName   // "LIST<STRING>"
/// FieldType.list(.string).wireName     // "STRING_LIST"
/// ```
public indirect enum FieldType: Hashable, Sendable, CustomStringConvertible {
    case string, int64, double, bytes, timestamp, location, reference, asset
    case list(FieldType)

    /// The primitive types, in the order CKSL documents them.
    public static let primitives: [FieldType] = [
        .string, .int64, .double, .bytes, .timestamp, .location, .reference, .asset,
    ]

    /// The name in the CloudKit Schema Language: `STRING`, `LIST<INT64>`.
    public var schemaName: String {
        switch self {
        case .string: "STRING"
        case .int64: "INT64"
        case .double: "DOUBLE"
        case .bytes: "BYTES"
        case .timestamp: "TIMESTAMP"
        case .location: "LOCATION"
        case .reference: "REFERENCE"
        case .asset: "ASSET"
        case .list(let element): "LIST<\(element.schemaName)>"
        }
    }

    /// The `type` string of a CloudKit Web Services field dictionary: `STRING`, `ASSETID`, `INT64_LIST`.
    public var wireName: String {
        switch self {
        case .asset: "ASSETID"
        case .list(let element): "\(element.wireName)_LIST"
        default: schemaName
        }
    }

    public var description: String { schemaName }

    /// Whether values of the type are assets (ASSET or a list of them).
    public var holdsAssets: Bool { self == .asset || self == .list(.asset) }

    /// The element type of a list, or `nil` for a primitive type.
    public var listElement: FieldType? {
        if case .list(let element) = self { return element }
        return nil
    }

    /// Reads a CKSL name (`LIST<STRING>`) or a Web Services type string (`STRING_LIST`, `ASSETID`).
    ///
    /// Returns `nil` for an unknown name, and for the untyped `LIST` of the wire format.
    public init?(name: String) {
        // Names as the wire writes them are told without making an uppercased copy.
        if let primitive = Self.primitive(name) {
            self = primitive
            return
        }
        let upper = name.uppercased()
        if upper.hasPrefix("LIST<"), upper.hasSuffix(">") {
            guard let element = FieldType(name: String(upper.dropFirst(5).dropLast())),
                element.listElement == nil
            else { return nil }
            self = .list(element)
            return
        }
        if upper.hasSuffix("_LIST") {
            guard let element = FieldType(name: String(upper.dropLast(5))), element.listElement == nil
            else { return nil }
            self = .list(element)
            return
        }
        guard let primitive = Self.primitive(upper) else { return nil }
        self = primitive
    }

    /// The primitive type an uppercase name names.
    private static func primitive(_ upper: String) -> FieldType? {
        switch upper {
        case "STRING": .string
        case "INT64": .int64
        case "DOUBLE": .double
        case "BYTES": .bytes
        case "TIMESTAMP": .timestamp
        case "LOCATION": .location
        case "REFERENCE": .reference
        case "ASSET", "ASSETID": .asset
        default: nil
        }
    }
}
