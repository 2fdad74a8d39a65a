import Foundation

/// A streaming reader of XML property lists with the line and column of every value.
///
/// It understands the subset of XML that property lists use: the XML declaration, a DOCTYPE,
/// comments, processing instructions, the `<plist>` wrapper, the elements `dict key array string
/// integer real true false date data` (and their empty forms), character and entity references
/// (`&lt; &gt; &amp; &apos; &quot; &#NN; &#xNN;`) and CDATA sections. As a ``DocumentCursor`` it
/// lets a reader take a huge top-level array one element at a time.
struct XMLPropertyListParser: DocumentCursor {
    static let maximumDepth = 512

    /// A start or end tag.
    struct Tag {
        var name: String
        var isEnd: Bool
        /// `<true/>`: a start tag that is also its end.
        var isEmpty: Bool
        var position: SourcePosition
    }

    private var input: ChunkedInput
    private let file: String
    /// Where the file starts: positions are made from it.
    private let origin: SourcePosition
    private var index = 0
    private var line = 1
    private var lineStart = 0
    private var depth = 0
    private var pendingTag: Tag?
    private var hasPlistWrapper = false
    private var started = false

    init(input: ChunkedInput, file: String) {
        self.input = input
        self.file = file
        origin = SourcePosition(file: file)
    }

    // MARK: Bytes

    @inline(__always)
    private mutating func byte(at offset: Int) -> UInt8? { input.byte(at: offset) }

    private var position: SourcePosition {
        origin.at(line: line, column: index - lineStart + 1)
    }

    private mutating func advance() {
        if input.buffer[index] == 0x0A {
            line += 1
            lineStart = index + 1
        }
        index += 1
    }

    private mutating func starts(with text: StaticString) -> Bool {
        for offset in 0..<text.utf8CodeUnitCount where byte(at: index + offset) != text.utf8Start[offset] {
            return false
        }
        return true
    }

    /// Skips bytes up to and including `terminator`, or fails naming what was left open.
    private mutating func skip(past terminator: StaticString, what: String, from start: SourcePosition) throws {
        while byte(at: index) != nil {
            if starts(with: terminator) {
                for _ in 0..<terminator.utf8CodeUnitCount { advance() }
                return
            }
            advance()
        }
        throw CloudSeedError(.malformedSource, "unterminated \(what); close it", at: start)
    }

    // MARK: Tags

    /// The next tag, skipping white space, comments, processing instructions and the DOCTYPE.
    private mutating func nextTag() throws -> Tag {
        if let tag = pendingTag {
            pendingTag = nil
            return tag
        }
        while true {
            guard let current = byte(at: index) else {
                throw CloudSeedError(
                    .malformedSource, "unexpected end of file; the property list is incomplete", at: position)
            }
            if current == 0x20 || current == 0x09 || current == 0x0A || current == 0x0D
                || (index == 0 && current == 0xEF)
            {
                if current == 0xEF {
                    guard byte(at: 1) == 0xBB, byte(at: 2) == 0xBF else { throw unexpected() }
                    index = 3
                    lineStart = 3
                    continue
                }
                advance()
                continue
            }
            guard current == UInt8(ascii: "<") else {
                throw CloudSeedError(
                    .malformedSource,
                    "unexpected text outside an element; values belong inside <string>, <integer> and the like",
                    at: position)
            }
            let start = position
            if starts(with: "<!--") {
                try skip(past: "-->", what: "comment", from: start)
            } else if starts(with: "<?") {
                try skip(past: "?>", what: "processing instruction", from: start)
            } else if starts(with: "<!DOCTYPE") {
                try skip(past: ">", what: "DOCTYPE", from: start)
            } else {
                return try readTag(at: start)
            }
        }
    }

    private mutating func readTag(at start: SourcePosition) throws -> Tag {
        index += 1
        var isEnd = false
        if byte(at: index) == UInt8(ascii: "/") {
            isEnd = true
            index += 1
        }
        let nameStart = index
        while let current = byte(at: index),
            (current >= 0x61 && current <= 0x7A) || (current >= 0x41 && current <= 0x5A)
        {
            index += 1
        }
        let name = String(decoding: input.buffer[nameStart..<index], as: UTF8.self)
        guard !name.isEmpty else {
            throw CloudSeedError(.malformedSource, "expected an element name after '<'", at: start)
        }
        var isEmpty = false
        while let current = byte(at: index), current != UInt8(ascii: ">") {
            if current == UInt8(ascii: "/") {
                isEmpty = true
            } else if current != 0x20 && current != 0x09 && current != 0x0A && current != 0x0D {
                isEmpty = false
            }
            advance()
        }
        guard byte(at: index) != nil else {
            throw CloudSeedError(.malformedSource, "unterminated tag <\(name); close it with '>'", at: start)
        }
        index += 1
        return Tag(name: name, isEnd: isEnd, isEmpty: isEmpty && !isEnd, position: start)
    }

    private mutating func unexpected() -> CloudSeedError {
        CloudSeedError(.malformedSource, "unexpected byte; expected '<'", at: position)
    }

    /// The character data up to the end tag `</name>`, with entities and CDATA resolved.
    private mutating func readText(closing name: String, start: SourcePosition) throws -> String {
        var bytes: [UInt8] = []
        while true {
            // A run of plain character data, taken whole.
            let runStart = index
            while let current = byte(at: index), current != UInt8(ascii: "<"), current != UInt8(ascii: "&") {
                if current == 0x0A {
                    line += 1
                    lineStart = index + 1
                }
                index += 1
            }
            if bytes.isEmpty, byte(at: index) == UInt8(ascii: "<"), byte(at: index + 1) == UInt8(ascii: "/") {
                // The common case: text without references, CDATA or comments, then the end tag.
                let text = UTF8Validation.string(input.buffer, runStart..<index)
                let tag = try readTag(at: position)
                guard tag.isEnd, tag.name == name else {
                    throw CloudSeedError(
                        .malformedSource, "expected </\(name)>, found <\(tag.isEnd ? "/" : "")\(tag.name)>",
                        at: tag.position)
                }
                guard let text else {
                    throw CloudSeedError(
                        .invalidValue, "the text is not valid UTF-8; re-save the file as UTF-8", at: start)
                }
                return text
            }
            if index > runStart { bytes.append(contentsOf: input.buffer[runStart..<index]) }
            guard let current = byte(at: index) else {
                throw CloudSeedError(.malformedSource, "unterminated <\(name)>; add </\(name)>", at: start)
            }
            if current == UInt8(ascii: "<") {
                if starts(with: "<![CDATA[") {
                    let cdataStart = position
                    index += 9
                    while !starts(with: "]]>") {
                        guard byte(at: index) != nil else {
                            throw CloudSeedError(.malformedSource, "unterminated CDATA section", at: cdataStart)
                        }
                        bytes.append(input.buffer[index])
                        advance()
                    }
                    index += 3
                    continue
                }
                if starts(with: "<!--") {
                    try skip(past: "-->", what: "comment", from: position)
                    continue
                }
                let tag = try readTag(at: position)
                guard tag.isEnd, tag.name == name else {
                    throw CloudSeedError(
                        .malformedSource, "expected </\(name)>, found <\(tag.isEnd ? "/" : "")\(tag.name)>",
                        at: tag.position)
                }
                guard let text = UTF8Validation.string(bytes, bytes.indices) else {
                    throw CloudSeedError(
                        .invalidValue, "the text is not valid UTF-8; re-save the file as UTF-8", at: start)
                }
                return text
            }
            bytes.append(contentsOf: try readEntity())
        }
    }

    private mutating func readEntity() throws -> [UInt8] {
        let start = position
        var name: [UInt8] = []
        index += 1
        while let current = byte(at: index), current != UInt8(ascii: ";") {
            guard name.count < 12 else {
                throw CloudSeedError(.malformedSource, "unterminated entity reference; write &amp; for '&'", at: start)
            }
            name.append(current)
            index += 1
        }
        index += 1
        let text = String(decoding: name, as: UTF8.self)
        switch text {
        case "lt": return [UInt8(ascii: "<")]
        case "gt": return [UInt8(ascii: ">")]
        case "amp": return [UInt8(ascii: "&")]
        case "apos": return [UInt8(ascii: "'")]
        case "quot": return [UInt8(ascii: "\"")]
        default:
            let code: UInt32? =
                if text.hasPrefix("#x") || text.hasPrefix("#X") {
                    UInt32(text.dropFirst(2), radix: 16)
                } else if text.hasPrefix("#") { UInt32(text.dropFirst()) } else { nil }
            guard let code, let scalar = UnicodeScalar(code) else {
                throw CloudSeedError(
                    .malformedSource,
                    "unknown entity &\(text);; property lists know &lt; &gt; &amp; &apos; &quot; and &#NN;", at: start)
            }
            return Array(String(Character(scalar)).utf8)
        }
    }

    // MARK: DocumentCursor

    private mutating func startIfNeeded() throws {
        guard !started else { return }
        started = true
        let tag = try nextTag()
        if tag.name == "plist", !tag.isEnd {
            hasPlistWrapper = true
        } else {
            pendingTag = tag
        }
    }

    private mutating func peekTag() throws -> Tag {
        try startIfNeeded()
        let tag = try nextTag()
        pendingTag = tag
        return tag
    }

    mutating func peekValue() throws -> ValueStart {
        let tag = try peekTag()
        guard !tag.isEnd else {
            throw CloudSeedError(.malformedSource, "expected a value, found </\(tag.name)>", at: tag.position)
        }
        switch tag.name {
        case "array": return .array
        case "dict": return .object
        default: return .scalar
        }
    }

    mutating func beginArray() throws -> SourcePosition { try begin("array") }

    mutating func beginObject() throws -> SourcePosition { try begin("dict") }

    private mutating func begin(_ name: String) throws -> SourcePosition {
        let tag = try nextTag()
        depth += 1
        guard depth <= Self.maximumDepth else {
            throw CloudSeedError(
                .limitExceeded, "nesting deeper than \(Self.maximumDepth) levels; flatten the property list",
                at: tag.position)
        }
        if tag.isEmpty { pendingTag = Tag(name: name, isEnd: true, isEmpty: false, position: tag.position) }
        return tag.position
    }

    mutating func nextElement() throws -> Bool {
        let tag = try peekTag()
        if tag.isEnd {
            guard tag.name == "array" else {
                throw CloudSeedError(.malformedSource, "expected </array>, found </\(tag.name)>", at: tag.position)
            }
            pendingTag = nil
            depth -= 1
            return false
        }
        return true
    }

    mutating func nextKey() throws -> (key: String, position: SourcePosition)? {
        let tag = try nextTag()
        if tag.isEnd, tag.name == "dict" {
            depth -= 1
            return nil
        }
        guard tag.name == "key", !tag.isEnd else {
            throw CloudSeedError(
                .malformedSource, "expected <key> or </dict>, found <\(tag.isEnd ? "/" : "")\(tag.name)>",
                at: tag.position)
        }
        let key = tag.isEmpty ? "" : try readText(closing: "key", start: tag.position)
        return (key, tag.position)
    }

    mutating func readValue() throws -> DocumentNode {
        let start = try peekTag()
        switch try peekValue() {
        case .array:
            let position = try beginArray()
            var items: [DocumentNode] = []
            while try nextElement() { items.append(try readValue()) }
            return .array(items, position)
        case .object:
            let position = try beginObject()
            var members: [(key: String, node: DocumentNode)] = []
            var keys = DistinctKeys()
            while let (key, keyPosition) = try nextKey() {
                guard keys.insert(key) else {
                    throw CloudSeedError(
                        .malformedSource, "duplicate key \"\(key)\" in one dict; keep one of them", at: keyPosition)
                }
                members.append((key, try readValue()))
            }
            return .object(members, position)
        case .scalar:
            let tag = try nextTag()
            let text = tag.isEmpty ? "" : try readText(closing: tag.name, start: tag.position)
            return .scalar(try scalar(tag.name, text, at: start.position), start.position)
        }
    }

    private func scalar(_ name: String, _ text: String, at position: SourcePosition) throws -> PlainValue {
        switch name {
        case "string": return .string(text)
        case "true": return .bool(true)
        case "false": return .bool(false)
        case "integer":
            let trimmed = Self.trimmed(text)
            guard let value = Int64(trimmed.hasPrefix("+") ? String(trimmed.dropFirst()) : trimmed) else {
                throw CloudSeedError(
                    .invalidValue, "<integer>\(trimmed)</integer> is not a 64-bit integer", at: position)
            }
            return .integer(value)
        case "real":
            let trimmed = Self.trimmed(text)
            guard let value = Double(trimmed), value.isFinite else {
                throw CloudSeedError(.invalidValue, "<real>\(trimmed)</real> is not a finite number", at: position)
            }
            return .real(value)
        case "date":
            guard let value = Timestamp.parse(Self.trimmed(text)) else {
                throw CloudSeedError(
                    .invalidValue, "<date>\(text)</date> is not an ISO 8601 date between the years 1 and 9999",
                    at: position)
            }
            return .date(value)
        case "data":
            let compact = text.filter { !$0.isWhitespace }
            guard let data = Data(base64Encoded: compact) else {
                throw CloudSeedError(.malformedSource, "<data> does not hold Base64", at: position)
            }
            return .data(data)
        default:
            throw CloudSeedError(
                .malformedSource,
                "unknown element <\(name)>; property lists use dict, array, string, integer, real, true, false, date and data",
                at: position)
        }
    }

    /// The text without white space around it; most values have none.
    private static func trimmed(_ text: String) -> String {
        guard let first = text.utf8.first, let last = text.utf8.last else { return text }
        let isSpace = { (byte: UInt8) in byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D }
        return isSpace(first) || isSpace(last) ? text.trimmingCharacters(in: .whitespacesAndNewlines) : text
    }

    mutating func finish() throws {
        if hasPlistWrapper {
            let tag = try nextTag()
            guard tag.isEnd, tag.name == "plist" else {
                throw CloudSeedError(
                    .malformedSource, "expected </plist>, found <\(tag.isEnd ? "/" : "")\(tag.name)>", at: tag.position)
            }
        }
        while let current = byte(at: index) {
            if current == 0x20 || current == 0x09 || current == 0x0A || current == 0x0D {
                advance()
            } else if starts(with: "<!--") {
                try skip(past: "-->", what: "comment", from: position)
            } else {
                throw CloudSeedError(
                    .malformedSource, "unexpected content after the end of the property list", at: position)
            }
        }
    }

    mutating func releaseConsumed() {
        guard pendingTag == nil else { return }
        let dropped = input.compact(before: index)
        index -= dropped
        lineStart -= dropped
    }
}
