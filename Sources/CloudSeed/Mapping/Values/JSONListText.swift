/// A text that holds a JSON array of scalars, `["oil","portrait"]` or `[1, 2.5]`: how spreadsheets
/// and cloudseed's own CSV exports write a list in one cell. Read by ``JSONParser``, as a JSON
/// source's arrays are: a CSV column of such cells is a LIST, typed by its elements as a JSON
/// array's are.
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
        guard bytes.first == UInt8(ascii: "["), bytes.last == UInt8(ascii: "]") else { return nil }
        var parser = JSONParser(input: ChunkedInput(bytes: Array(bytes)), file: "")
        guard case .array(let items)? = try? parser.parsePlainDocument(),
            !items.contains(where: \.isNested)
        else { return nil }
        return items
    }

    /// The kind of the list the bytes hold (``InferredKind/init(of:)`` of its ``items(_:)``); `nil`
    /// where the bytes hold no list.
    static func kind(_ bytes: UnsafeBufferPointer<UInt8>) -> InferredKind? {
        guard let items = items(bytes), case .list(let element)? = InferredKind(of: .array(items)) else { return nil }
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
}
