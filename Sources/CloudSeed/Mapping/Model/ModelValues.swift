import Foundation

/// Values typed by the app's model rather than guessed: a Boolean from `true`, `YES` or `1`, a
/// UUID as its upper-case string, integers within their attribute's range, Binary from a file's
/// path (as assets are found) or Base64.
enum ModelValues {
    /// `true`/`false`, `YES`/`NO` (as Core Data writes defaults) or `1`/`0`, in any case.
    static func boolean(_ text: String) -> Bool? {
        switch text.lowercased() {
        case "true", "yes", "1": true
        case "false", "no", "0": false
        default: nil
        }
    }

    /// Whether values of `type` are checked here rather than typed from a CSV cell's bytes.
    static func checks(_ type: AttributeType) -> Bool {
        switch type {
        case .boolean, .integer16, .integer32, .uuid: true
        default: false
        }
    }

    /// `value` as the attribute `attribute` holds it, typed to `field` by `converter` otherwise.
    static func convert(
        _ value: PlainValue, attribute: AttributeType, field: PlannedField, converter: ValueConverter,
        at position: SourcePosition
    ) throws -> RecordValue {
        switch attribute {
        case .boolean:
            switch value {
            case .bool(let flag): return .int64(flag ? 1 : 0)
            case .integer(let number) where number == 0 || number == 1: return .int64(number)
            case .text(let text), .string(let text):
                if let flag = boolean(text) { return .int64(flag ? 1 : 0) }
            default: break
            }
            throw ValueConverter.Mismatch(
                valueType: ValueConverter.valueType(of: value), detail: "a Boolean is true or false, YES or NO, 1 or 0")
        case .integer16, .integer32:
            let converted = try converter.convert(value, to: .int64, at: position)
            let bound: Int64 = attribute == .integer16 ? Int64(Int16.max) : Int64(Int32.max)
            if case .int64(let number) = converted, number > bound || number < -bound - 1 {
                throw ValueConverter.Mismatch(
                    valueType: "INT64",
                    detail: "\(number) is out of an \(attribute.rawValue)'s range, \(-bound - 1) to \(bound)")
            }
            return converted
        case .uuid:
            switch value {
            case .text(let text), .string(let text):
                if let uuid = UUID(uuidString: text.trimmingCharacters(in: .whitespaces)) {
                    return .string(uuid.uuidString)
                }
            default: break
            }
            throw ValueConverter.Mismatch(
                valueType: ValueConverter.valueType(of: value),
                detail: "a UUID is written as 8C0D3E3A-2B6F-4E41-9D0A-3C5B1F2E7A10")
        case .binary, .transformable:
            switch value {
            case .text(let text), .string(let text):
                if !text.isEmpty, let data = try converter.readFile(text, position) { return .bytes(data) }
                guard let data = Data(base64Encoded: text) else {
                    throw ValueConverter.Mismatch(
                        valueType: "STRING", detail: "Binary values are paths to existing files, or Base64")
                }
                return .bytes(data)
            default:
                return try converter.convert(value, to: .bytes, at: position)
            }
        default:
            return try converter.convert(value, to: field.type, reading: field.dateReading, at: position)
        }
    }
}
