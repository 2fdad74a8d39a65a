/// Builds JSON text by hand, so that key order and number forms are exactly as CloudKit writes them.
struct JSONText {
    private(set) var text = ""

    /// A JSON string literal for `value`, escaping what RFC 8259 requires.
    static func quoted(_ value: String) -> String {
        var result = "\""
        result.reserveCapacity(value.utf8.count + 2)
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case let control where control.value < 0x20:
                let hex = String(control.value, radix: 16)
                result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }

    /// A JSON number for a finite double that reads back as a double: `1.0`, `-0.5`, `1e-300`.
    static func number(_ value: Double) -> String {
        let text = "\(value)"
        if text.contains(".") || text.contains("e") { return text }
        return text + ".0"
    }

    /// `{"key": value, ...}` from already-encoded members, in the order given.
    static func object(_ members: [(String, String)]) -> String {
        "{" + members.map { "\(quoted($0.0)):\($0.1)" }.joined(separator: ",") + "}"
    }

    /// `[a, b, ...]` from already-encoded elements.
    static func array(_ elements: [String]) -> String {
        "[" + elements.joined(separator: ",") + "]"
    }
}
