/// The type a value suggests, before the values of a field are merged into one field type.
///
/// Rules: integers in range → INT64; any real among them → DOUBLE; `true`/`false` → INT64; ISO
/// 8601 dates, and in CSV the dates people write (``WrittenDate``), → TIMESTAMP; plist data →
/// BYTES; arrays, and CSV cells that hold a JSON array of scalars (``JSONListText``), → LIST of the
/// element type; dictionaries with latitude and longitude → LOCATION; everything else → STRING.
/// Text that looks numeric but is not a number to a person stays STRING: `007`, `1,000`, `+1 555`, `1.2.3`.
/// A typed string that holds an integer (`<string>18</string>`, a zip code) stays STRING, unless the
/// field's other values are numbers: then it is one of them, as in a plist whose author quoted a few
/// integers. One that holds a decimal (`"900.00"`, as Django writes a DecimalField) is a DOUBLE; one
/// that holds a date as people write it (`"May 5th, 2021"`) a TIMESTAMP.
indirect enum InferredKind: Hashable {
    case boolean, integer, real, timestamp, bytes, location, string
    /// A typed string holding an integer or a real.
    case integerString, realString
    /// A list; `nil` while no element has been seen.
    case list(InferredKind?)
    /// Dates written in numbers (`11/26/2026`), in the orders they can all be read in: a
    /// TIMESTAMP where one order alone reads them all, a STRING where they do not tell.
    case numericDate(NumericDateForms)

    /// The kind of one value, or `nil` for a value that leaves the field unset (null, empty text).
    init?(of value: PlainValue) {
        switch value {
        case .null: return nil
        case .text(let text):
            if text.isEmpty { return nil }
            self = InferredKind.classify(text: text)
        case .string(var text):
            self = text.withUTF8(InferredKind.classify(typedString:))
        case .integer: self = .integer
        case .real: self = .real
        case .bool: self = .boolean
        case .date: self = .timestamp
        case .data: self = .bytes
        case .dictionary(let entries): self = LocationKeys.isLocation(entries.lazy.map(\.key)) ? .location : .string
        case .array(let items):
            var element: InferredKind?
            for item in items {
                guard let kind = InferredKind(of: item) else { continue }
                if case .list = kind {
                    self = .string
                    return
                }
                element = element.map { $0.merged(with: kind) } ?? kind
            }
            self = .list(element)
        }
    }

    /// The kind of a typed string's UTF-8 bytes (a JSON string's): a date, a number in a string, or text.
    static func classify(typedString bytes: UnsafeBufferPointer<UInt8>) -> InferredKind {
        // Numbers start with a digit or `-`, dates with a name with a month's or weekday's first
        // letters: most text is told by its first bytes.
        if let first = bytes.first, !(first >= 48 && first <= 57), first != UInt8(ascii: "-") {
            return WrittenDate.mayStartNamed(bytes) && WrittenDate.named(bytes) != nil ? .timestamp : .string
        }
        if Timestamp.parse(utf8: bytes) != nil { return .timestamp }
        if NumberText.integer(bytes) != nil { return .integerString }
        if NumberText.real(bytes) != nil { return .realString }
        return writtenDate(bytes)
    }

    /// The kind of a CSV cell's text.
    static func classify(text: String) -> InferredKind {
        var text = text
        return text.withUTF8(classify(utf8:))
    }

    /// ``classify(text:)`` of a cell's UTF-8 bytes, such as a CSV cell's where it was read.
    static func classify(utf8 bytes: UnsafeBufferPointer<UInt8>) -> InferredKind {
        // Most text can be told from its first bytes: only booleans start with a letter (t or f in
        // any case; other non-ASCII letters are left to the full test), numbers and dates with a
        // digit or `-`, and `dddd-` can only start a date.
        if let first = bytes.first, first < 0x80, !(first >= 48 && first <= 57), first != UInt8(ascii: "-"),
            first | 0x20 != UInt8(ascii: "t"), first | 0x20 != UInt8(ascii: "f")
        {
            // A JSON array of scalars, `["oil","portrait"]`, is a list, typed by its elements.
            if first == UInt8(ascii: "["), let kind = JSONListText.kind(bytes) { return kind }
            // A date with a weekday's or a month's name starts with its first three letters.
            if WrittenDate.mayStartNamed(bytes), WrittenDate.named(bytes) != nil { return .timestamp }
            return .string
        }
        if startsAsDate(bytes) {
            return Timestamp.parse(utf8: bytes) != nil ? .timestamp : .string
        }
        // A digit or `-` cannot start a boolean.
        if let first = bytes.first, first >= 48 && first <= 57 || first == UInt8(ascii: "-") {
            if NumberText.integer(bytes) != nil { return .integer }
            if NumberText.isReal(bytes) { return .real }
        } else if BooleanText.value(utf8: bytes) != nil {
            return .boolean
        }
        if Timestamp.parse(utf8: bytes) != nil { return .timestamp }
        return writtenDate(bytes)
    }

    /// The kind of a text that may be a date written otherwise than in ISO 8601 (``WrittenDate``):
    /// in numbers, `11/26/2026`, or with a month's name, `Tue, 03 Jun 2008 11:05:30 GMT`.
    private static func writtenDate(_ bytes: UnsafeBufferPointer<UInt8>) -> InferredKind {
        guard let first = bytes.first else { return .string }
        let startsWithDigit = first >= 48 && first <= 57
        if startsWithDigit, let forms = WrittenDate.numericForms(bytes) { return .numericDate(forms) }
        if startsWithDigit, WrittenDate.yearFirst(bytes) != nil { return .timestamp }
        if startsWithDigit || WrittenDate.mayStartNamed(bytes), WrittenDate.named(bytes) != nil { return .timestamp }
        return .string
    }

    /// The kinds a text's bytes tell where converting them (``ValueConverter/convert(utf8:to:)``)
    /// tells them too: one byte, kept for each cell without counting references.
    enum TextKind: UInt8 {
        case boolean, integer, real, timestamp
        /// A JSON array of texts, `["oil","portrait"]`: a list of strings.
        case stringList

        /// The kind's bit in a set of kinds.
        var bit: UInt8 { 1 << rawValue }

        var inferred: InferredKind {
            switch self {
            case .boolean: .boolean
            case .integer: .integer
            case .real: .real
            case .timestamp: .timestamp
            case .stringList: JSONListText.listOfStrings
            }
        }
    }

    /// Whether the text starts as only a date can, `dddd-`, with room for a whole date: its kind
    /// is `timestamp` where it is one and `string` otherwise.
    static func startsAsDate(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        bytes.count >= 10 && bytes.prefix(4).allSatisfy({ $0 >= 48 && $0 <= 57 }) && bytes[4] == UInt8(ascii: "-")
    }

    /// Whether the kind is `real`, told by its case alone: an indirect enum's `==` compares boxes.
    var isReal: Bool {
        if case .real = self { true } else { false }
    }

    /// Whether the kind is a decimal written in text, in a typed string or not: one whose spelling
    /// may matter (``DecimalSpellings``).
    var isDecimalText: Bool {
        switch self {
        case .real, .realString: true
        default: false
        }
    }

    /// Whether the kind is `string`, told by its case alone.
    var isString: Bool {
        if case .string = self { true } else { false }
    }

    /// The kind that holds both: booleans are integers, integers widen to reals, lists merge their
    /// elements, anything else mixed is a string.
    func merged(with other: InferredKind) -> InferredKind {
        if self == other { return self }
        switch (self, other) {
        case (.boolean, .integer), (.integer, .boolean), (.integerString, .integer), (.integer, .integerString):
            return .integer
        case (.boolean, .real), (.real, .boolean), (.integer, .real), (.real, .integer),
            (.integerString, .real), (.real, .integerString), (.realString, .real), (.real, .realString),
            (.realString, .integer), (.integer, .realString):
            return .real
        case (.integerString, .realString), (.realString, .integerString): return .realString
        case (.list(let a), .list(let b)):
            guard let a else { return .list(b) }
            guard let b else { return .list(a) }
            return .list(a.merged(with: b))
        case (.numericDate(let a), .numericDate(let b)):
            return a.merged(with: b).map(InferredKind.numericDate) ?? .string
        case (.numericDate, .timestamp): return self
        case (.timestamp, .numericDate): return other
        default: return .string
        }
    }

    /// The field type for this kind; a list with no elements seen is a list of strings.
    var fieldType: FieldType {
        switch self {
        case .boolean, .integer: .int64
        case .real, .realString: .double
        case .timestamp: .timestamp
        case .bytes: .bytes
        case .location: .location
        case .string, .integerString: .string
        case .list(let element): .list(element?.fieldType ?? .string)
        case .numericDate(let forms): forms.order == nil ? .string : .timestamp
        }
    }
}
