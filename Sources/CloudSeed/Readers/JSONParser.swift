import Foundation

/// A JSON (RFC 8259) parser over bytes that keeps the line and column of every value.
///
/// Integers that fit 64 bits stay integers; numbers with a fraction or exponent are doubles. Nesting
/// deeper than ``maximumDepth`` is refused rather than overflowing the stack.
struct JSONParser {
    static let maximumDepth = 512

    private let bytes: [UInt8]
    private let file: String
    private var index = 0
    private var line = 1
    private var lineStart = 0
    private var depth = 0

    init(bytes: [UInt8], file: String, startLine: Int = 1) {
        self.bytes = bytes
        self.file = file
        self.line = startLine
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) {
            index = 3
            lineStart = 3
        }
    }

    /// Parses one whole document: a single value followed only by white space.
    mutating func parseDocument() throws -> DocumentNode {
        skipWhitespace()
        guard index < bytes.count else { throw error("the document is empty; expected a JSON value") }
        let node = try parseValue()
        skipWhitespace()
        guard index == bytes.count else {
            throw error("unexpected \(describeCurrent()) after the end of the JSON value")
        }
        return node
    }

    private var position: SourcePosition {
        SourcePosition(file: file, line: line, column: index - lineStart + 1)
    }

    private func error(_ message: String) -> CloudSeedError {
        CloudSeedError(message, at: position)
    }

    private func describeCurrent() -> String {
        guard index < bytes.count else { return "end of file" }
        let byte = bytes[index]
        if byte >= 0x20 && byte < 0x7F { return "'\(Character(UnicodeScalar(byte)))'" }
        return "byte 0x\(String(byte, radix: 16, uppercase: true))"
    }

    private mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0D: index += 1
            case 0x0A:
                index += 1
                line += 1
                lineStart = index
            default: return
            }
        }
    }

    private mutating func parseValue() throws -> DocumentNode {
        skipWhitespace()
        let start = position
        guard index < bytes.count else { throw error("unexpected end of file; expected a JSON value") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try parseObject(start)
        case UInt8(ascii: "["): return try parseArray(start)
        case UInt8(ascii: "\""): return .scalar(.string(try parseString()), start)
        case UInt8(ascii: "t"): try expectWord("true"); return .scalar(.bool(true), start)
        case UInt8(ascii: "f"): try expectWord("false"); return .scalar(.bool(false), start)
        case UInt8(ascii: "n"): try expectWord("null"); return .scalar(.null, start)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .scalar(try parseNumber(), start)
        default: throw error("unexpected \(describeCurrent()); expected a JSON value")
        }
    }

    private mutating func enter() throws {
        depth += 1
        if depth > JSONParser.maximumDepth {
            throw error("nesting deeper than \(JSONParser.maximumDepth) levels; flatten the document")
        }
    }

    private mutating func parseObject(_ start: SourcePosition) throws -> DocumentNode {
        try enter()
        index += 1
        var members: [(key: String, node: DocumentNode)] = []
        var keys = Set<String>()
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
            index += 1
            depth -= 1
            return .object(members, start)
        }
        while true {
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
                throw error("unexpected \(describeCurrent()); expected a key in double quotes")
            }
            let keyPosition = position
            let key = try parseString()
            guard keys.insert(key).inserted else {
                throw CloudSeedError("duplicate key \"\(key)\" in one object; keep one of them", at: keyPosition)
            }
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else {
                throw error("unexpected \(describeCurrent()); expected ':' after the key")
            }
            index += 1
            members.append((key, try parseValue()))
            skipWhitespace()
            guard index < bytes.count else { throw error("unexpected end of file; expected ',' or '}'") }
            if bytes[index] == UInt8(ascii: ",") {
                index += 1
                continue
            }
            guard bytes[index] == UInt8(ascii: "}") else {
                throw error("unexpected \(describeCurrent()); expected ',' or '}'")
            }
            index += 1
            depth -= 1
            return .object(members, start)
        }
    }

    private mutating func parseArray(_ start: SourcePosition) throws -> DocumentNode {
        try enter()
        index += 1
        var items: [DocumentNode] = []
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
            index += 1
            depth -= 1
            return .array(items, start)
        }
        while true {
            items.append(try parseValue())
            skipWhitespace()
            guard index < bytes.count else { throw error("unexpected end of file; expected ',' or ']'") }
            if bytes[index] == UInt8(ascii: ",") {
                index += 1
                continue
            }
            guard bytes[index] == UInt8(ascii: "]") else {
                throw error("unexpected \(describeCurrent()); expected ',' or ']'")
            }
            index += 1
            depth -= 1
            return .array(items, start)
        }
    }

    private mutating func expectWord(_ word: String) throws {
        let utf8 = Array(word.utf8)
        guard index + utf8.count <= bytes.count, Array(bytes[index..<index + utf8.count]) == utf8 else {
            throw error("unexpected \(describeCurrent()); expected a JSON value")
        }
        index += utf8.count
    }

    private mutating func parseNumber() throws -> PlainValue {
        let start = index
        let startPosition = position
        var isInteger = true
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        func digits() -> Int {
            let first = index
            while index < bytes.count, bytes[index] >= 0x30, bytes[index] <= 0x39 { index += 1 }
            return index - first
        }
        let integerStart = index
        let integerDigits = digits()
        guard integerDigits > 0 else { throw error("unexpected \(describeCurrent()); expected a digit") }
        if integerDigits > 1, bytes[integerStart] == UInt8(ascii: "0") {
            throw CloudSeedError("a JSON number cannot start with 0; quote it to keep it as text", at: startPosition)
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            isInteger = false
            index += 1
            guard digits() > 0 else { throw error("unexpected \(describeCurrent()); expected a digit after '.'") }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            isInteger = false
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard digits() > 0 else { throw error("unexpected \(describeCurrent()); expected a digit in the exponent") }
        }
        let literal = String(decoding: bytes[start..<index], as: UTF8.self)
        if isInteger {
            guard let value = Int64(literal) else {
                throw CloudSeedError(
                    "the integer \(literal) is outside the 64-bit range; quote it to keep it as text",
                    at: startPosition)
            }
            return .integer(value)
        }
        guard let value = Double(literal), value.isFinite else {
            throw CloudSeedError(
                "the number \(literal) is outside the range of a 64-bit double; quote it to keep it as text",
                at: startPosition)
        }
        return .real(value)
    }

    private mutating func parseString() throws -> String {
        let startPosition = position
        index += 1
        var buffer: [UInt8] = []
        var runStart = index
        while true {
            guard index < bytes.count else {
                throw CloudSeedError("unterminated string; add the closing '\"'", at: startPosition)
            }
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                buffer.append(contentsOf: bytes[runStart..<index])
                index += 1
                break
            }
            if byte == UInt8(ascii: "\\") {
                buffer.append(contentsOf: bytes[runStart..<index])
                try parseEscape(into: &buffer)
                runStart = index
                continue
            }
            if byte < 0x20 {
                throw error("control character 0x\(String(byte, radix: 16, uppercase: true)) inside a string; escape it (\\n, \\t, \\u00XX)")
            }
            index += 1
        }
        guard let text = String(validating: buffer, as: UTF8.self) else {
            throw CloudSeedError("the string is not valid UTF-8; re-save the file as UTF-8", at: startPosition)
        }
        return text
    }

    private mutating func parseEscape(into buffer: inout [UInt8]) throws {
        index += 1
        guard index < bytes.count else { throw error("unterminated escape at end of file") }
        let escape = bytes[index]
        index += 1
        switch escape {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): buffer.append(escape)
        case UInt8(ascii: "b"): buffer.append(0x08)
        case UInt8(ascii: "f"): buffer.append(0x0C)
        case UInt8(ascii: "n"): buffer.append(0x0A)
        case UInt8(ascii: "r"): buffer.append(0x0D)
        case UInt8(ascii: "t"): buffer.append(0x09)
        case UInt8(ascii: "u"):
            var scalar = try hexQuad()
            if (0xD800...0xDBFF).contains(scalar) {
                guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else {
                    throw error("a lone UTF-16 surrogate \\u\(String(scalar, radix: 16)); pair it with its low surrogate")
                }
                index += 2
                let low = try hexQuad()
                guard (0xDC00...0xDFFF).contains(low) else { throw error("invalid UTF-16 surrogate pair") }
                scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
            } else if (0xDC00...0xDFFF).contains(scalar) {
                throw error("a lone UTF-16 surrogate \\u\(String(scalar, radix: 16))")
            }
            buffer.append(contentsOf: Array(String(Character(UnicodeScalar(scalar)!)).utf8))
        default:
            index -= 1
            throw error("invalid escape \\\(Character(UnicodeScalar(escape))); use \\\", \\\\, \\/, \\b, \\f, \\n, \\r, \\t or \\uXXXX")
        }
    }

    private mutating func hexQuad() throws -> UInt32 {
        guard index + 4 <= bytes.count,
            let value = UInt32(String(decoding: bytes[index..<index + 4], as: UTF8.self), radix: 16)
        else { throw error("expected four hexadecimal digits after \\u") }
        index += 4
        return value
    }
}
