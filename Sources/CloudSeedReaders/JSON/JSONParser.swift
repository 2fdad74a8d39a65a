package import CloudSeedCore
import Foundation

/// A streaming JSON (RFC 8259) parser that keeps the line and column of every value.
///
/// It reads its input a chunk at a time and, as a ``DocumentCursor``, lets a reader take a huge
/// top-level array one element at a time. Integers that fit 64 bits stay integers; numbers with a
/// fraction or exponent are doubles. Nesting deeper than ``maximumDepth`` is refused rather than
/// overflowing the stack.
package struct JSONParser: DocumentCursor {
    package static let maximumDepth = 512

    private var input: ChunkedInput
    private let file: String
    /// Where the file starts: positions are made from it.
    private let origin: SourcePosition
    private var index = 0
    private var line = 1
    private var lineStart = 0
    private var depth = 0
    /// For each open container of the cursor: whether its first element or member is still to come.
    private var expectingFirst: [Bool] = []
    /// The keys of the last record ``readRecord()`` read, in order (``RecordKeys``).
    private var lastRecordKeys = RecordKeys()

    package init(input: ChunkedInput, file: String, startLine: Int = 1) {
        self.input = input
        self.file = file
        origin = SourcePosition(file: file)
        self.line = startLine
        if current() == 0xEF, peek(1) == 0xBB, peek(2) == 0xBF {
            index = 3
            lineStart = 3
        }
    }

    // MARK: Reading bytes

    /// The byte at the read position, reading more input when needed; `nil` at the end.
    @inline(__always)
    private mutating func current() -> UInt8? { input.byte(at: index) }

    private mutating func peek(_ offset: Int) -> UInt8? { input.byte(at: index + offset) }

    private var position: SourcePosition {
        origin.at(line: line, column: index - lineStart + 1)
    }

    private func error(_ message: String) -> CloudSeedError {
        CloudSeedError(.malformedSource, message, at: position)
    }

    private mutating func describeCurrent() -> String {
        guard let byte = current() else { return "end of file" }
        if byte >= 0x20 && byte < 0x7F { return "'\(Character(UnicodeScalar(byte)))'" }
        return "byte 0x\(String(byte, radix: 16, uppercase: true))"
    }

    private mutating func skipWhitespace() {
        while let byte = current() {
            switch byte {
            case 0x20, 0x09, 0x0D: index += 1
            case 0x0A:
                index += 1
                line += 1
                lineStart = index
            default: return
            }
        }
    }

    // MARK: DocumentCursor

    package mutating func peekValue() throws -> ValueStart {
        skipWhitespace()
        switch current() {
        case UInt8(ascii: "[")?: return .array
        case UInt8(ascii: "{")?: return .object
        case nil:
            throw error(
                depth == 0
                    ? "the document is empty; expected a JSON value" : "unexpected end of file; expected a JSON value")
        default: return .scalar
        }
    }

    package mutating func beginArray() throws -> SourcePosition {
        skipWhitespace()
        let start = position
        try enter()
        index += 1
        expectingFirst.append(true)
        return start
    }

    package mutating func nextElement() throws -> Bool {
        try nextItem(close: UInt8(ascii: "]"), what: "']'")
    }

    package mutating func beginObject() throws -> SourcePosition {
        skipWhitespace()
        let start = position
        try enter()
        index += 1
        expectingFirst.append(true)
        return start
    }

    package mutating func nextKey() throws -> (key: String, position: SourcePosition)? {
        guard try nextItem(close: UInt8(ascii: "}"), what: "'}'") else { return nil }
        return try readKey()
    }

    package mutating func readValue() throws -> DocumentNode { try parseValue() }

    /// Reads past one whole value, checked as ``readValue()`` checks it (keys aside), without
    /// making a node of it.
    package mutating func skipValue() throws {
        switch try peekValue() {
        case .object:
            _ = try beginObject()
            while try nextItem(close: UInt8(ascii: "}"), what: "'}'") {
                skipWhitespace()
                guard current() == UInt8(ascii: "\"") else {
                    throw error("unexpected \(describeCurrent()); expected a key in double quotes")
                }
                try skipString()
                skipWhitespace()
                guard current() == UInt8(ascii: ":") else {
                    throw error("unexpected \(describeCurrent()); expected ':' after the key")
                }
                index += 1
                try skipValue()
            }
        case .array:
            _ = try beginArray()
            while try nextElement() { try skipValue() }
        case .scalar:
            if current() == UInt8(ascii: "\"") { return try skipString() }
            _ = try parseScalar(current()!)
        }
    }

    /// Reads past the string at the read position, checked as ``parseString()`` checks it; a
    /// string without escapes is not made.
    private mutating func skipString() throws {
        if plainString() == nil { _ = try parseString() }
    }

    package mutating func readRecord() throws -> RecordRead {
        guard try peekValue() == .object else { return .node(try parseValue()) }
        let start = try beginObject()
        var keys = DistinctKeys()
        var fields: [SourceField] = []
        // Room for the last record's fields and one more (a record's latitude and longitude become
        // one location later): the array is not grown, copied and freed as it fills.
        fields.reserveCapacity(lastRecordKeys.count + 1)
        // While the keys are the last record's, in order, they are distinct without a check.
        var matching = true
        while let key = try nextRecordMember(&keys, matching: &matching, offset: fields.count) {
            if key == "fields" || key == "record" {
                if matching {
                    lastRecordKeys.insertFirst(fields.count, into: &keys)
                    _ = keys.insert(key)
                }
                lastRecordKeys.removeAll()
                // Maybe a CloudKit record or a Django entry: the rest as nodes, for DocumentShape.
                var members = fields.map { (key: $0.key, node: DocumentNode(plain: $0.value, at: $0.position)) }
                members.append((key, try parseValue()))
                while let key = try nextMember(&keys) { members.append((key, try parseValue())) }
                return .node(.object(members, start))
            }
            skipWhitespace()
            let valuePosition = position
            fields.append(SourceField(key: key, value: try parsePlainValue(), position: valuePosition))
        }
        if !matching || fields.count != lastRecordKeys.count { lastRecordKeys.replace(with: fields) }
        return .fields(fields, at: start)
    }

    /// The next key of a record, refused if it repeats one; `nil` at the record's end. While
    /// `matching`, the keys so far are the last record's first `offset`, so not in `keys` yet: a
    /// key the last record had next is recognised by its bytes, not parsed (``RecordKeys``).
    private mutating func nextRecordMember(_ keys: inout DistinctKeys, matching: inout Bool, offset: Int) throws
        -> String?
    {
        guard matching else { return try nextMember(&keys) }
        guard try nextItem(close: UInt8(ascii: "}"), what: "'}'") else { return nil }
        if offset < lastRecordKeys.count {
            skipWhitespace()
            if let key = lastRecordKeys.reuse(at: offset, from: &input, index: &index) {
                skipWhitespace()
                guard current() == UInt8(ascii: ":") else {
                    throw error("unexpected \(describeCurrent()); expected ':' after the key")
                }
                index += 1
                return key
            }
        }
        let (key, keyPosition) = try readKey()
        if offset < lastRecordKeys.count, key == lastRecordKeys.key(at: offset) { return key }
        matching = false
        lastRecordKeys.insertFirst(offset, into: &keys)
        try claim(key, at: keyPosition, in: &keys)
        return key
    }

    /// Reads the next value as a flat record of `keys` into `cells`, where it is one: an object
    /// of those keys in that order, each written as its bytes, whose values are strings, numbers,
    /// booleans, nulls or arrays of those; a string with escapes or an array goes to `values`.
    /// Returns where the object starts; `nil`, with nothing read, for any other value, and for
    /// input whose errors ``readRecord()`` words.
    package mutating func readRecordCells(
        keys: [[UInt8]], into cells: inout [FlatJSONRecord.Cell], values: inout [PlainValue]
    ) -> SourcePosition? {
        skipWhitespace()
        guard current() == UInt8(ascii: "{") else { return nil }
        let start = position
        let resumed = (index: index, line: line, lineStart: lineStart, depth: depth, open: expectingFirst.count)
        cells.removeAll(keepingCapacity: true)
        values.removeAll(keepingCapacity: true)
        if readFlatMembers(keys, into: &cells, values: &values) { return start }
        (index, line, lineStart, depth) = (resumed.index, resumed.line, resumed.lineStart, resumed.depth)
        expectingFirst.removeLast(expectingFirst.count - resumed.open)
        return nil
    }

    /// ``readRecordCells(keys:into:values:)`` past the object's opening brace; `false` where the
    /// object is not a flat record of `keys`, the read position then anywhere in it.
    private mutating func readFlatMembers(
        _ keys: [[UInt8]], into cells: inout [FlatJSONRecord.Cell], values: inout [PlainValue]
    ) -> Bool {
        index += 1
        for (offset, key) in keys.enumerated() {
            skipWhitespace()
            if offset > 0 {
                guard current() == UInt8(ascii: ",") else { return false }
                index += 1
                skipWhitespace()
            }
            guard skipKey(key) else { return false }
            skipWhitespace()
            guard current() == UInt8(ascii: ":") else { return false }
            index += 1
            skipWhitespace()
            var cell = FlatJSONRecord.Cell(
                kind: .null, bytes: 0..<0, scalar: 0, line: line, column: index - lineStart + 1)
            func held(_ value: PlainValue) {
                cell.kind = .value
                cell.bytes = values.count..<values.count
                values.append(value)
            }
            switch current() {
            case UInt8(ascii: "\"")?:
                if let text = plainString() {
                    (cell.kind, cell.bytes) = (.text, text)
                } else {
                    guard let string = try? parseString() else { return false }
                    held(.string(string))
                }
            case UInt8(ascii: "[")?:
                guard let value = try? parsePlainValue(), case .array(let items) = value,
                    !items.contains(where: \.isNested)
                else { return false }
                held(value)
            case UInt8(ascii: "{")?, nil:
                return false
            case let byte?:
                switch try? parseScalar(byte) {
                case .integer(let number)?: (cell.kind, cell.scalar) = (.integer, UInt64(bitPattern: number))
                case .real(let number)?: (cell.kind, cell.scalar) = (.real, number.bitPattern)
                case .bool(let truth)?: (cell.kind, cell.scalar) = (.bool, truth ? 1 : 0)
                case .null?: cell.kind = .null
                case let other?: held(other)
                case nil: return false
                }
            }
            cells.append(cell)
        }
        skipWhitespace()
        guard current() == UInt8(ascii: "}") else { return false }
        index += 1
        return true
    }

    /// Moves past `key` in double quotes, written as its bytes, where the input has it at the read position.
    private mutating func skipKey(_ key: [UInt8]) -> Bool {
        guard key.withUnsafeBufferPointer({ input.holdsQuoted($0, at: index) }) else { return false }
        index += key.count + 2
        return true
    }

    /// The bytes of the string at the read position (at its opening quote) where it holds no
    /// escape and is valid UTF-8, the read position moved past its closing quote; `nil`, unmoved,
    /// for any other string.
    private mutating func plainString() -> Range<Int>? {
        let start = index + 1
        var end = start
        var isASCII = true
        while true {
            end = input.buffer.withUnsafeBufferPointer { JSONStringRun.end(in: $0, from: end, isASCII: &isASCII) }
            guard let byte = input.byte(at: end) else { return nil }
            if byte == UInt8(ascii: "\"") { break }
            if byte == UInt8(ascii: "\\") || byte < 0x20 { return nil }
            if byte >= 0x80 { isASCII = false }
            end += 1
        }
        guard
            isASCII
                || input.buffer.withUnsafeBufferPointer({
                    UTF8Validation.isValid(UnsafeBufferPointer(rebasing: $0[start..<end]))
                })
        else { return nil }
        index = end + 1
        return start..<end
    }

    /// Reads records until the input ends: JSON Lines' values, or with `inArray` the elements of
    /// the array the document is. Each is read as a flat record of the keys `keys` gives (asked
    /// before each record), lent to `flat` with where it starts, where it is one
    /// (``readRecordCells(keys:into:values:)``); every other as ``readRecord()`` reads it, to `other`.
    package mutating func forEachRecord(
        inArray: Bool, keys: () -> [[UInt8]]?, flat: (FlatJSONRecord, SourcePosition) throws -> Void,
        other: (RecordRead) throws -> Void
    ) throws {
        // One array of cells, and one of values, serves every record.
        var cells: [FlatJSONRecord.Cell] = []
        var values: [PlainValue] = []
        func read(_ parser: inout JSONParser) throws {
            if let keys = keys(), let start = parser.readRecordCells(keys: keys, into: &cells, values: &values) {
                try flat(
                    FlatJSONRecord(cells: cells, values: values, input: parser.input.buffer, origin: parser.origin),
                    start)
            } else {
                try other(try parser.readRecord())
            }
        }
        guard inArray else { return try forEachLine(read, { _ in }) }
        _ = try beginArray()
        while try nextElement() {
            try read(&self)
            releaseConsumed()
        }
        try finish()
    }

    package mutating func finish() throws {
        skipWhitespace()
        guard current() == nil else { throw error("unexpected \(describeCurrent()) after the end of the JSON value") }
    }

    package mutating func releaseConsumed() {
        let dropped = input.compact(before: index)
        index -= dropped
        lineStart -= dropped
    }

    /// Parses one whole document: a single value followed only by white space.
    package mutating func parseDocument() throws -> DocumentNode {
        _ = try peekValue()
        let node = try parseValue()
        try finish()
        return node
    }

    /// Parses one whole document as a plain value, without the positions of what is in it: a CSV
    /// cell's JSON.
    package mutating func parsePlainDocument() throws -> PlainValue {
        let value = try parsePlainValue()
        try finish()
        return value
    }

    /// Reads JSON values one after another until the input ends (JSON Lines).
    package mutating func forEachValue(_ body: (DocumentNode) throws -> Void) throws {
        try forEachLine({ try $0.parseValue() }, body)
    }

    /// Reads JSON values one after another until the input ends (JSON Lines), each as a record.
    package mutating func forEachRecord(_ body: (RecordRead) throws -> Void) throws {
        try forEachLine({ try $0.readRecord() }, body)
    }

    /// Reads values with `read` one after another until the input ends.
    private mutating func forEachLine<Value>(_ read: (inout JSONParser) throws -> Value, _ body: (Value) throws -> Void)
        throws
    {
        while true {
            skipWhitespace()
            guard current() != nil else { return }
            try body(try read(&self))
            releaseConsumed()
        }
    }

    /// Inside the innermost open container: consumes a separator and says whether an item follows.
    private mutating func nextItem(close: UInt8, what: String) throws -> Bool {
        skipWhitespace()
        guard let isFirst = expectingFirst.last else { return false }
        guard let byte = current() else { throw error("unexpected end of file; expected ',' or \(what)") }
        if byte == close {
            index += 1
            expectingFirst.removeLast()
            depth -= 1
            return false
        }
        if !isFirst {
            guard byte == UInt8(ascii: ",") else {
                throw error("unexpected \(describeCurrent()); expected ',' or \(what)")
            }
            index += 1
            skipWhitespace()
        }
        expectingFirst[expectingFirst.count - 1] = false
        return true
    }

    private mutating func readKey() throws -> (key: String, position: SourcePosition) {
        skipWhitespace()
        guard current() == UInt8(ascii: "\"") else {
            throw error("unexpected \(describeCurrent()); expected a key in double quotes")
        }
        let keyPosition = position
        let key = try parseString()
        skipWhitespace()
        guard current() == UInt8(ascii: ":") else {
            throw error("unexpected \(describeCurrent()); expected ':' after the key")
        }
        index += 1
        return (key, keyPosition)
    }

    // MARK: Values

    private mutating func parseValue() throws -> DocumentNode {
        skipWhitespace()
        let start = position
        guard let byte = current() else { throw error("unexpected end of file; expected a JSON value") }
        switch byte {
        case UInt8(ascii: "{"): return try parseObject(start)
        case UInt8(ascii: "["): return try parseArray(start)
        default: return .scalar(try parseScalar(byte), start)
        }
    }

    /// A value without the positions of what is in it.
    private mutating func parsePlainValue() throws -> PlainValue {
        skipWhitespace()
        guard let byte = current() else { throw error("unexpected end of file; expected a JSON value") }
        switch byte {
        case UInt8(ascii: "{"):
            _ = try beginObject()
            var keys = DistinctKeys()
            var entries: [PlainEntry] = []
            while let key = try nextMember(&keys) { entries.append(PlainEntry(key, try parsePlainValue())) }
            return ExtendedJSON.value(of: entries) ?? .dictionary(entries)
        case UInt8(ascii: "["):
            _ = try beginArray()
            var items: [PlainValue] = []
            while try nextElement() { items.append(try parsePlainValue()) }
            return .array(items)
        default:
            return try parseScalar(byte)
        }
    }

    /// A string, number, boolean or null starting with `byte`.
    private mutating func parseScalar(_ byte: UInt8) throws -> PlainValue {
        switch byte {
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"):
            try expectWord("true")
            return .bool(true)
        case UInt8(ascii: "f"):
            try expectWord("false")
            return .bool(false)
        case UInt8(ascii: "n"):
            try expectWord("null")
            return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try parseNumber()
        default: throw error("unexpected \(describeCurrent()); expected a JSON value")
        }
    }

    /// The next key of the innermost open object, refused if `keys` has it already; `nil` at its end.
    package mutating func nextMember(_ keys: inout DistinctKeys) throws -> String? {
        guard let (key, keyPosition) = try nextKey() else { return nil }
        try claim(key, at: keyPosition, in: &keys)
        return key
    }

    /// ``nextMember(_:)`` for an object whose keys the reader mostly knows: a key of `expected`
    /// comes back as `expected` holds it, recognised by its bytes where it is written without
    /// escapes.
    package mutating func nextMember(_ keys: inout DistinctKeys, expected: ExpectedKeys) throws -> String? {
        guard try nextItem(close: UInt8(ascii: "}"), what: "'}'") else { return nil }
        skipWhitespace()
        let (keyLine, keyColumn) = (line, index - lineStart + 1)
        let key: String
        let offset: Int?
        if let matched = expected.match(in: &input, at: index) {
            offset = matched
            key = expected.names[matched]
            index += key.utf8.count + 2
            skipWhitespace()
            guard current() == UInt8(ascii: ":") else {
                throw error("unexpected \(describeCurrent()); expected ':' after the key")
            }
            index += 1
        } else {
            key = try readKey().key
            offset = expected.names.firstIndex(of: key)
        }
        guard offset.map({ keys.insert(expected: $0) }) ?? keys.insert(key) else {
            throw Self.duplicate(key, at: origin.at(line: keyLine, column: keyColumn))
        }
        return key
    }

    /// Adds `key` (at `position`) to an object's `keys`, refusing it if they have it already.
    private func claim(_ key: String, at position: SourcePosition, in keys: inout DistinctKeys) throws {
        guard keys.insert(key) else { throw Self.duplicate(key, at: position) }
    }

    private static func duplicate(_ key: String, at position: SourcePosition) -> CloudSeedError {
        CloudSeedError(.malformedSource, "duplicate key \"\(key)\" in one object; keep one of them", at: position)
    }

    private mutating func enter() throws {
        depth += 1
        if depth > JSONParser.maximumDepth {
            throw CloudSeedError(
                .limitExceeded, "nesting deeper than \(JSONParser.maximumDepth) levels; flatten the document",
                at: position)
        }
    }

    /// A whole object, read with the cursor's own steps so that separators are checked in one place.
    private mutating func parseObject(_ start: SourcePosition) throws -> DocumentNode {
        _ = try beginObject()
        var members: [(key: String, node: DocumentNode)] = []
        var keys = DistinctKeys()
        while let key = try nextMember(&keys) { members.append((key, try parseValue())) }
        if members.count <= 2, members.first?.key.utf8.first == UInt8(ascii: "$"),
            let value = ExtendedJSON.value(of: members.map { PlainEntry($0.key, $0.node.plainValue) })
        {
            return .scalar(value, start)
        }
        return .object(members, start)
    }

    private mutating func parseArray(_ start: SourcePosition) throws -> DocumentNode {
        _ = try beginArray()
        var items: [DocumentNode] = []
        while try nextElement() { items.append(try parseValue()) }
        return .array(items, start)
    }

    private mutating func expectWord(_ word: StaticString) throws {
        let start = index
        for offset in 0..<word.utf8CodeUnitCount {
            guard peek(offset) == word.utf8Start[offset] else {
                index = start
                throw error("unexpected \(describeCurrent()); expected a JSON value")
            }
        }
        index += word.utf8CodeUnitCount
    }

    private mutating func parseNumber() throws -> PlainValue {
        let start = index
        // Where the number starts, made a position only for an error: a number holds no line break.
        let startColumn = index - lineStart + 1
        var startPosition: SourcePosition { origin.at(line: line, column: startColumn) }
        var isInteger = true
        if current() == UInt8(ascii: "-") { index += 1 }
        func digits(_ parser: inout JSONParser) -> Int {
            var count = 0
            while let byte = parser.current(), byte >= 0x30, byte <= 0x39 {
                parser.index += 1
                count += 1
            }
            return count
        }
        let integerStart = index
        let integerDigits = digits(&self)
        guard integerDigits > 0 else { throw error("unexpected \(describeCurrent()); expected a digit") }
        if integerDigits > 1, input.buffer[integerStart] == UInt8(ascii: "0") {
            throw CloudSeedError(
                .malformedSource, "a JSON number cannot start with 0; quote it to keep it as text", at: startPosition)
        }
        if current() == UInt8(ascii: ".") {
            isInteger = false
            index += 1
            guard digits(&self) > 0 else { throw error("unexpected \(describeCurrent()); expected a digit after '.'") }
        }
        if current() == UInt8(ascii: "e") || current() == UInt8(ascii: "E") {
            isInteger = false
            index += 1
            if current() == UInt8(ascii: "+") || current() == UInt8(ascii: "-") { index += 1 }
            guard digits(&self) > 0 else {
                throw error("unexpected \(describeCurrent()); expected a digit in the exponent")
            }
        }
        // Read from the bytes: the text is made only for an error.
        let end = index
        let value: PlainValue? = input.buffer.withUnsafeBufferPointer { buffer in
            let bytes = UnsafeBufferPointer(rebasing: buffer[start..<end])
            return isInteger
                ? NumberText.integer(bytes).map(PlainValue.integer) : NumberText.decimal(bytes).map(PlainValue.real)
        }
        if let value { return value }
        let literal = String(decoding: input.buffer[start..<index], as: UTF8.self)
        if isInteger {
            throw CloudSeedError(
                .invalidValue, "the integer \(literal) is outside the 64-bit range; quote it to keep it as text",
                at: startPosition)
        }
        throw CloudSeedError(
            .invalidValue, "the number \(literal) is outside the range of a 64-bit double; quote it to keep it as text",
            at: startPosition)
    }

    private mutating func parseString() throws -> String {
        // Where the string starts, made a position only for an error: a string holds no line break.
        let startColumn = index - lineStart + 1
        var startPosition: SourcePosition { origin.at(line: line, column: startColumn) }
        index += 1
        var buffer: [UInt8] = []
        var runStart = index
        var isASCII = true
        while true {
            index = input.buffer.withUnsafeBufferPointer { JSONStringRun.end(in: $0, from: index, isASCII: &isASCII) }
            guard let byte = current() else {
                throw CloudSeedError(.malformedSource, "unterminated string; add the closing '\"'", at: startPosition)
            }
            if byte == UInt8(ascii: "\"") {
                let text: String?
                if buffer.isEmpty {
                    text =
                        isASCII
                        ? String(decoding: input.buffer[runStart..<index], as: UTF8.self)
                        : UTF8Validation.string(input.buffer, runStart..<index)
                } else {
                    buffer.append(contentsOf: input.buffer[runStart..<index])
                    text = UTF8Validation.string(buffer, buffer.indices)
                }
                index += 1
                guard let text else {
                    throw CloudSeedError(
                        .invalidValue, "the string is not valid UTF-8; re-save the file as UTF-8", at: startPosition)
                }
                return text
            }
            if byte == UInt8(ascii: "\\") {
                buffer.append(contentsOf: input.buffer[runStart..<index])
                try parseEscape(into: &buffer)
                runStart = index
                continue
            }
            if byte < 0x20 {
                throw error(
                    "control character 0x\(String(byte, radix: 16, uppercase: true)) inside a string; escape it (\\n, \\t, \\u00XX)"
                )
            }
            if byte >= 0x80 { isASCII = false }
            index += 1
        }
    }

    private mutating func parseEscape(into buffer: inout [UInt8]) throws {
        index += 1
        guard let escape = current() else { throw error("unterminated escape at end of file") }
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
                guard current() == UInt8(ascii: "\\"), peek(1) == UInt8(ascii: "u") else {
                    throw error(
                        "a lone UTF-16 surrogate \\u\(String(scalar, radix: 16)); pair it with its low surrogate")
                }
                index += 2
                let low = try hexQuad()
                guard (0xDC00...0xDFFF).contains(low) else { throw error("invalid UTF-16 surrogate pair") }
                scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
            } else if (0xDC00...0xDFFF).contains(scalar) {
                throw error("a lone UTF-16 surrogate \\u\(String(scalar, radix: 16))")
            }
            guard let unicode = UnicodeScalar(scalar) else {
                throw error("invalid escape \\u\(String(scalar, radix: 16))")
            }
            buffer.append(contentsOf: Array(String(Character(unicode)).utf8))
        default:
            index -= 1
            throw error(
                "invalid escape \\\(Character(UnicodeScalar(escape))); use \\\", \\\\, \\/, \\b, \\f, \\n, \\r, \\t or \\uXXXX"
            )
        }
    }

    private mutating func hexQuad() throws -> UInt32 {
        var value: UInt32 = 0
        for offset in 0..<4 {
            guard let byte = peek(offset), let digit = Character(UnicodeScalar(byte)).hexDigitValue else {
                throw error("expected four hexadecimal digits after \\u")
            }
            value = value << 4 | UInt32(digit)
        }
        index += 4
        return value
    }
}
