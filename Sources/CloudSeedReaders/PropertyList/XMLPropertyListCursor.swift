package import CloudSeedCore
import Foundation

/// Walks an XML property list as libxml2 parses it (``XMLPropertyListEvents``), with the line and
/// column of every value: the `<plist>` wrapper (or a bare root), `dict`, `array`, and the value
/// elements `key string integer real true false date data`. As a ``DocumentCursor`` it lets a
/// reader take a huge top-level array one element at a time.
package struct XMLPropertyListCursor: DocumentCursor {
    private let events: XMLPropertyListEvents
    private var hasPlistWrapper = false
    private var started = false

    package init(input: ChunkedInput, file: String) {
        events = XMLPropertyListEvents(input: input, file: file)
    }

    /// The next event, not taken; an error where the file cannot be read or has ended.
    private mutating func peek() throws -> PropertyListEvent {
        if !started {
            started = true
            if case .start(.plist, _)? = events.peek() {
                hasPlistWrapper = true
                events.take()
            }
        }
        switch events.peek() {
        case .failure(let error)?: throw error
        case let event?: return event
        case nil:
            throw CloudSeedError(.malformedSource, "unexpected end of file; the property list is incomplete")
        }
    }

    private mutating func next() throws -> PropertyListEvent {
        let event = try peek()
        events.take()
        return event
    }

    package mutating func peekValue() throws -> ValueStart {
        switch try peek() {
        case .start(.array, _): .array
        case .start(.dict, _): .object
        case .end(let element, let position):
            throw CloudSeedError(.malformedSource, "expected a value, found </\(element.rawValue)>", at: position)
        default: .scalar
        }
    }

    package mutating func beginArray() throws -> SourcePosition { try begin() }

    package mutating func beginObject() throws -> SourcePosition { try begin() }

    private mutating func begin() throws -> SourcePosition {
        guard case .start(_, let position) = try next() else {
            throw CloudSeedError(.malformedSource, "internal: no container at this point of the property list")
        }
        return position
    }

    package mutating func nextElement() throws -> Bool {
        guard case .end = try peek() else { return true }
        events.take()
        return false
    }

    package mutating func nextKey() throws -> (key: String, position: SourcePosition)? {
        switch try next() {
        case .end(.dict, _): return nil
        case .leaf(.key, let key, let position): return (key, position)
        case .leaf(let element, _, let position), .start(let element, let position):
            throw CloudSeedError(
                .malformedSource, "expected <key> or </dict>, found <\(element.rawValue)>", at: position)
        case .end(let element, let position):
            throw CloudSeedError(
                .malformedSource, "expected <key> or </dict>, found </\(element.rawValue)>", at: position)
        case .failure(let error): throw error
        }
    }

    package mutating func readValue() throws -> DocumentNode {
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
            guard case .leaf(let element, let text, let position) = try next() else {
                throw CloudSeedError(.malformedSource, "internal: no value at this point of the property list")
            }
            return .scalar(try Self.scalar(element, text, at: position), position)
        }
    }

    private static func scalar(_ element: PropertyListElement, _ text: String, at position: SourcePosition) throws
        -> PlainValue
    {
        switch element {
        case .string: return .string(text)
        case .true: return .bool(true)
        case .false: return .bool(false)
        case .integer:
            let trimmed = Self.trimmed(text)
            guard let value = Int64(trimmed.hasPrefix("+") ? String(trimmed.dropFirst()) : trimmed) else {
                throw CloudSeedError(
                    .invalidValue, "<integer>\(trimmed)</integer> is not a 64-bit integer", at: position)
            }
            return .integer(value)
        case .real:
            let trimmed = Self.trimmed(text)
            guard let value = Double(trimmed), value.isFinite else {
                throw CloudSeedError(.invalidValue, "<real>\(trimmed)</real> is not a finite number", at: position)
            }
            return .real(value)
        case .date:
            guard let value = Timestamp.parse(Self.trimmed(text)) else {
                throw CloudSeedError(
                    .invalidValue, "<date>\(text)</date> is not an ISO 8601 date between the years 1 and 9999",
                    at: position)
            }
            return .date(value)
        case .data:
            let compact = text.filter { !$0.isWhitespace }
            guard let data = Data(base64Encoded: compact) else {
                throw CloudSeedError(.malformedSource, "<data> does not hold Base64", at: position)
            }
            return .data(data)
        case .key, .plist, .dict, .array:
            throw CloudSeedError(
                .malformedSource, "expected a value, found <\(element.rawValue)>; a <key> belongs inside a <dict>",
                at: position)
        }
    }

    /// The text without white space around it; most values have none.
    private static func trimmed(_ text: String) -> String {
        guard let first = text.utf8.first, let last = text.utf8.last else { return text }
        let isSpace = { (byte: UInt8) in byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D }
        return isSpace(first) || isSpace(last) ? text.trimmingCharacters(in: .whitespacesAndNewlines) : text
    }

    package mutating func finish() throws {
        if hasPlistWrapper {
            switch try next() {
            case .end(.plist, _): break
            case .start(let element, let position), .leaf(let element, _, let position):
                throw CloudSeedError(
                    .malformedSource, "expected </plist>, found <\(element.rawValue)>; a plist holds one value",
                    at: position)
            case .end(let element, let position):
                throw CloudSeedError(
                    .malformedSource, "expected </plist>, found </\(element.rawValue)>", at: position)
            case .failure(let error): throw error
            }
        }
        if case .failure(let error)? = events.peek() { throw error }
    }

    package mutating func releaseConsumed() {}
}
