/// A text that holds a JSON array of scalars, `["oil","portrait"]` or `[1, 2.5]`: how spreadsheets
/// and cloudseed's own CSV exports write a list in one cell. Read without a document tree: a CSV
/// column of such cells is a LIST, typed by its elements as a JSON array's are.
///
/// Elements are strings, numbers, `true`, `false` and `null` (left out, as in a JSON array); a
/// text with a nested array or object, or that is not JSON, is no list.
enum JSONListText {
    /// The elements of the text's array; `nil` where the text is not an array of scalars.
    static func items(_ text: String) -> [PlainValue]? {
        var text = text
        return text.withUTF8(items)
    }

    /// ``items(_:)`` of UTF-8 bytes, such as a CSV cell's in place.
    static func items(_ bytes: UnsafeBufferPointer<UInt8>) -> [PlainValue]? {
        var items: [PlainValue] = []
        let isList = forEachItem(bytes) { reader in
            guard let item = reader.scalar() else { return false }
            items.append(item)
            return true
        }
        return isList ? items : nil
    }

    /// The kind of the list the bytes hold (``InferredKind/init(of:)`` of its ``items(_:)``), told
    /// without making its elements: a column of lists is surveyed cell by cell; `nil` where the
    /// bytes hold no list.
    static func kind(_ bytes: UnsafeBufferPointer<UInt8>) -> InferredKind? {
        var element: InferredKind?
        let isList = forEachItem(bytes) { reader in
            guard let kind = reader.scalarKind() else { return false }
            if let kind { element = element.map { $0.merged(with: kind) } ?? kind }
            return true
        }
        guard isList else { return nil }
        // The kinds most lists have, made once: a list's kind is boxed.
        switch element {
        case .string?: return listOfStrings
        case .integer?: return listOfIntegers
        case .real?: return listOfReals
        case nil: return emptyList
        default: return .list(element)
        }
    }

    /// `list(string)`, the kind of most lists, made once.
    static let listOfStrings = InferredKind.list(.string)
    private static let listOfIntegers = InferredKind.list(.integer)
    private static let listOfReals = InferredKind.list(.real)
    private static let emptyList = InferredKind.list(nil)

    /// Calls `read` at each element of the array the bytes hold, until it returns `false`;
    /// whether the bytes are an array whose every element `read` read.
    private static func forEachItem(_ bytes: UnsafeBufferPointer<UInt8>, _ read: (inout Reader) -> Bool) -> Bool {
        guard bytes.first == UInt8(ascii: "["), bytes.last == UInt8(ascii: "]") else { return false }
        var reader = Reader(bytes: bytes, index: 1)
        reader.skipSpace()
        if reader.take(UInt8(ascii: "]")) { return reader.isAtEnd }
        while true {
            reader.skipSpace()
            guard read(&reader) else { return false }
            reader.skipSpace()
            if reader.take(UInt8(ascii: ",")) { continue }
            return reader.take(UInt8(ascii: "]")) && reader.isAtEnd
        }
    }

    private struct Reader {
        let bytes: UnsafeBufferPointer<UInt8>
        var index: Int

        var isAtEnd: Bool { index == bytes.count }

        mutating func take(_ byte: UInt8) -> Bool {
            guard index < bytes.count, bytes[index] == byte else { return false }
            index += 1
            return true
        }

        mutating func skipSpace() {
            while index < bytes.count,
                bytes[index] == 0x20 || bytes[index] == 0x09 || bytes[index] == 0x0A || bytes[index] == 0x0D
            {
                index += 1
            }
        }

        mutating func scalar() -> PlainValue? {
            guard index < bytes.count else { return nil }
            switch bytes[index] {
            case UInt8(ascii: "\""): return string().map(PlainValue.string)
            case UInt8(ascii: "t"): return word("true") ? .bool(true) : nil
            case UInt8(ascii: "f"): return word("false") ? .bool(false) : nil
            case UInt8(ascii: "n"): return word("null") ? .null : nil
            default: return number()
            }
        }

        /// The kind of the next scalar (``InferredKind/init(of:)`` of ``scalar()``'s value), a
        /// string's told from its bytes where it has no escape; `.some(nil)` for `null`, `nil` for
        /// no scalar.
        mutating func scalarKind() -> InferredKind?? {
            guard index < bytes.count else { return nil }
            switch bytes[index] {
            case UInt8(ascii: "\""):
                let start = index + 1
                var end = start
                while end < bytes.count, bytes[end] != UInt8(ascii: "\""), bytes[end] != UInt8(ascii: "\\"),
                    bytes[end] >= 0x20
                {
                    end += 1
                }
                if end < bytes.count, bytes[end] == UInt8(ascii: "\"") {
                    index = end + 1
                    return .some(InferredKind.classify(typedString: UnsafeBufferPointer(rebasing: bytes[start..<end])))
                }
                guard var text = string() else { return nil }
                return .some(text.withUTF8(InferredKind.classify(typedString:)))
            case UInt8(ascii: "t"): return word("true") ? .some(.boolean) : nil
            case UInt8(ascii: "f"): return word("false") ? .some(.boolean) : nil
            case UInt8(ascii: "n"): return word("null") ? .some(nil) : nil
            default:
                guard let number = number() else { return nil }
                if case .integer = number { return .some(.integer) }
                return .some(.real)
            }
        }

        private mutating func word(_ word: StaticString) -> Bool {
            let count = word.utf8CodeUnitCount
            guard index + count <= bytes.count else { return false }
            for offset in 0..<count where bytes[index + offset] != word.utf8Start[offset] { return false }
            index += count
            return true
        }

        /// A JSON number: an integer within 64 bits, else a finite real.
        private mutating func number() -> PlainValue? {
            let start = index
            while index < bytes.count {
                switch bytes[index] {
                case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "+"), UInt8(ascii: "."),
                    UInt8(ascii: "e"), UInt8(ascii: "E"):
                    index += 1
                default:
                    let digits = UnsafeBufferPointer(rebasing: bytes[start..<index])
                    return Self.number(digits)
                }
            }
            return nil
        }

        private static func number(_ digits: UnsafeBufferPointer<UInt8>) -> PlainValue? {
            if let integer = NumberText.integer(digits) { return .integer(integer) }
            return NumberText.real(digits).map(PlainValue.real)
        }

        /// A JSON string, its escapes read; `nil` for one with a control character, a bad escape or
        /// a lone surrogate.
        mutating func string() -> String? {
            index += 1
            let start = index
            // Most strings have no escape: their bytes are the text.
            while index < bytes.count, bytes[index] != UInt8(ascii: "\""), bytes[index] != UInt8(ascii: "\\") {
                guard bytes[index] >= 0x20 else { return nil }
                index += 1
            }
            guard index < bytes.count else { return nil }
            if bytes[index] == UInt8(ascii: "\"") {
                index += 1
                return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index - 1]), as: UTF8.self)
            }
            var text = Array(bytes[start..<index])
            while index < bytes.count {
                let byte = bytes[index]
                index += 1
                switch byte {
                case UInt8(ascii: "\""): return String(decoding: text, as: UTF8.self)
                case UInt8(ascii: "\\"):
                    guard index < bytes.count else { return nil }
                    let escaped = bytes[index]
                    index += 1
                    switch escaped {
                    case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): text.append(escaped)
                    case UInt8(ascii: "b"): text.append(0x08)
                    case UInt8(ascii: "f"): text.append(0x0C)
                    case UInt8(ascii: "n"): text.append(0x0A)
                    case UInt8(ascii: "r"): text.append(0x0D)
                    case UInt8(ascii: "t"): text.append(0x09)
                    case UInt8(ascii: "u"):
                        guard let scalar = unicodeEscape() else { return nil }
                        text.append(contentsOf: String(Character(scalar)).utf8)
                    default: return nil
                    }
                case 0..<0x20: return nil
                default: text.append(byte)
                }
            }
            return nil
        }

        /// The scalar of a `\uXXXX` escape (the `\u` read), or of a surrogate pair.
        private mutating func unicodeEscape() -> Unicode.Scalar? {
            guard let high = hex4() else { return nil }
            if (0xD800..<0xDC00).contains(high) {
                guard take(UInt8(ascii: "\\")), take(UInt8(ascii: "u")), let low = hex4(),
                    (0xDC00..<0xE000).contains(low)
                else { return nil }
                return Unicode.Scalar(0x10000 + (high - 0xD800) << 10 + (low - 0xDC00))
            }
            return Unicode.Scalar(high)
        }

        private mutating func hex4() -> UInt32? {
            guard index + 4 <= bytes.count else { return nil }
            var value: UInt32 = 0
            for _ in 0..<4 {
                let byte = bytes[index]
                let digit: UInt32
                switch byte {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - 48)
                case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - 87)
                case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - 55)
                default: return nil
                }
                value = value << 4 | digit
                index += 1
            }
            return value
        }
    }
}
