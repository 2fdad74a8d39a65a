import CloudSeedCore
import Foundation

/// Reads an OpenStep (old-style ASCII) property list, as Xcode's `project.pbxproj` files are:
/// `{ key = value; }` dictionaries, `( a, b )` arrays, quoted or bare strings, `<0fbd 7791>` data,
/// and `//` and `/* */` comments. OpenStep has no numbers, dates or booleans: every scalar is a string.
package struct OpenStepPropertyListParser {
    package static let maximumDepth = 512

    private let bytes: [UInt8]
    private let file: String
    /// Where the file starts: positions are made from it.
    private let origin: SourcePosition
    private var index = 0
    private var line = 1
    private var lineStart = 0
    private var depth = 0

    package init(bytes: [UInt8], file: String) {
        self.bytes = bytes
        self.file = file
        origin = SourcePosition(file: file)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) {
            index = 3
            lineStart = 3
        }
    }

    private var position: SourcePosition { origin.at(line: line, column: index - lineStart + 1) }

    private func error(_ message: String) -> CloudSeedError { CloudSeedError(.malformedSource, message, at: position) }

    package mutating func parse() throws -> DocumentNode {
        let root = try value()
        try skipTrivia()
        guard index == bytes.count else { throw error("unexpected content after the end of the property list") }
        return root
    }

    private mutating func advance() {
        if bytes[index] == 0x0A {
            line += 1
            lineStart = index + 1
        }
        index += 1
    }

    private mutating func skipTrivia() throws {
        while index < bytes.count {
            let byte = bytes[index]
            if byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D {
                advance()
            } else if byte == UInt8(ascii: "/"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "/") {
                while index < bytes.count, bytes[index] != 0x0A { index += 1 }
            } else if byte == UInt8(ascii: "/"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "*") {
                let start = position
                index += 2
                while index + 1 < bytes.count,
                    !(bytes[index] == UInt8(ascii: "*") && bytes[index + 1] == UInt8(ascii: "/"))
                { advance() }
                guard index + 1 < bytes.count else {
                    throw CloudSeedError(.malformedSource, "unterminated /* comment", at: start)
                }
                index += 2
            } else {
                return
            }
        }
    }

    private mutating func value() throws -> DocumentNode {
        try skipTrivia()
        let start = position
        guard index < bytes.count else { throw error("unexpected end of file; expected a value") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try dictionary(start)
        case UInt8(ascii: "("): return try array(start)
        case UInt8(ascii: "<"): return .scalar(.data(Data(try data())), start)
        case UInt8(ascii: "\""), UInt8(ascii: "'"): return .scalar(.string(try quoted()), start)
        default:
            let text = bareString()
            guard !text.isEmpty else {
                throw error("unexpected '\(Character(UnicodeScalar(bytes[index])))'; expected a value")
            }
            return .scalar(.string(text), start)
        }
    }

    private mutating func enter() throws {
        depth += 1
        guard depth <= Self.maximumDepth else {
            throw CloudSeedError(.limitExceeded, "nesting deeper than \(Self.maximumDepth) levels", at: position)
        }
    }

    private mutating func dictionary(_ start: SourcePosition) throws -> DocumentNode {
        try enter()
        index += 1
        var members: [(key: String, node: DocumentNode)] = []
        var keys = Set<String>()
        while true {
            try skipTrivia()
            guard index < bytes.count else {
                throw CloudSeedError(.malformedSource, "unterminated dictionary; add '}'", at: start)
            }
            if bytes[index] == UInt8(ascii: "}") {
                index += 1
                depth -= 1
                return .object(members, start)
            }
            let keyPosition = position
            guard case .scalar(.string(let key), _) = try value() else {
                throw CloudSeedError(.malformedSource, "a dictionary key must be a string", at: keyPosition)
            }
            guard keys.insert(key).inserted else {
                throw CloudSeedError(.malformedSource, "duplicate key \"\(key)\"; keep one of them", at: keyPosition)
            }
            try skipTrivia()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "=") else {
                throw error("expected '=' after the key")
            }
            index += 1
            members.append((key, try value()))
            try skipTrivia()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ";") else {
                throw error("expected ';' after the value")
            }
            index += 1
        }
    }

    private mutating func array(_ start: SourcePosition) throws -> DocumentNode {
        try enter()
        index += 1
        var items: [DocumentNode] = []
        while true {
            try skipTrivia()
            guard index < bytes.count else {
                throw CloudSeedError(.malformedSource, "unterminated array; add ')'", at: start)
            }
            if bytes[index] == UInt8(ascii: ")") {
                index += 1
                depth -= 1
                return .array(items, start)
            }
            items.append(try value())
            try skipTrivia()
            guard index < bytes.count else {
                throw CloudSeedError(.malformedSource, "unterminated array; add ')'", at: start)
            }
            if bytes[index] == UInt8(ascii: ",") {
                index += 1
            } else if bytes[index] != UInt8(ascii: ")") {
                throw error("expected ',' or ')'")
            }
        }
    }

    private mutating func bareString() -> String {
        let start = index
        while index < bytes.count {
            let byte = bytes[index]
            let isBare =
                (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                || [
                    UInt8(ascii: "_"), UInt8(ascii: "$"), UInt8(ascii: "+"), UInt8(ascii: "/"), UInt8(ascii: ":"),
                    UInt8(ascii: "."), UInt8(ascii: "-"),
                ].contains(byte)
            guard isBare else { break }
            index += 1
        }
        return String(decoding: bytes[start..<index], as: UTF8.self)
    }

    private mutating func quoted() throws -> String {
        let start = position
        let quote = bytes[index]
        index += 1
        var result: [UInt8] = []
        while true {
            guard index < bytes.count else {
                throw CloudSeedError(.malformedSource, "unterminated string; add the closing quote", at: start)
            }
            let byte = bytes[index]
            if byte == quote {
                index += 1
                guard let text = String(validating: result, as: UTF8.self) else {
                    throw CloudSeedError(.invalidValue, "the string is not valid UTF-8", at: start)
                }
                return text
            }
            if byte == UInt8(ascii: "\\"), index + 1 < bytes.count {
                index += 1
                let escape = bytes[index]
                index += 1
                switch escape {
                case UInt8(ascii: "n"): result.append(0x0A)
                case UInt8(ascii: "t"): result.append(0x09)
                case UInt8(ascii: "r"): result.append(0x0D)
                case UInt8(ascii: "U"), UInt8(ascii: "u"):
                    guard index + 4 <= bytes.count,
                        let code = UInt32(String(decoding: bytes[index..<index + 4], as: UTF8.self), radix: 16),
                        let scalar = UnicodeScalar(code)
                    else { throw error("expected four hexadecimal digits after \\U") }
                    index += 4
                    result.append(contentsOf: Array(String(Character(scalar)).utf8))
                default: result.append(escape)
                }
                continue
            }
            result.append(byte)
            advance()
        }
    }

    private mutating func data() throws -> [UInt8] {
        let start = position
        index += 1
        var result: [UInt8] = []
        var high: UInt8?
        while true {
            guard index < bytes.count else {
                throw CloudSeedError(.malformedSource, "unterminated data; add '>'", at: start)
            }
            let byte = bytes[index]
            index += 1
            if byte == UInt8(ascii: ">") {
                guard high == nil else {
                    throw CloudSeedError(.malformedSource, "data holds an odd number of hexadecimal digits", at: start)
                }
                return result
            }
            if byte == 0x20 || byte == 0x0A || byte == 0x09 || byte == 0x0D { continue }
            guard let digit = Character(UnicodeScalar(byte)).hexDigitValue else {
                throw error("data holds a character that is not hexadecimal")
            }
            if let first = high {
                result.append(first << 4 | UInt8(digit))
                high = nil
            } else {
                high = UInt8(digit)
            }
        }
    }
}
