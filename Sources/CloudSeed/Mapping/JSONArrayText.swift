/// A JSON array written in a text cell (`["oil","portrait"]`), as spreadsheets and cloudseed's own
/// CSV exports carry lists: a column whose every set cell is one becomes a LIST.
enum JSONArrayText {
    /// The items of the array `bytes` spell, or `nil` where they spell no JSON array.
    static func items(_ bytes: UnsafeBufferPointer<UInt8>) -> [PlainValue]? {
        guard bytes.first == UInt8(ascii: "["), bytes.last == UInt8(ascii: "]") else { return nil }
        var parser = JSONParser(input: ChunkedInput(bytes: Array(bytes)), file: "")
        guard case .array(let items)? = try? parser.parseDocument().plainValue else { return nil }
        return items
    }

    /// ``items(_:)`` of a text.
    static func items(_ text: String) -> [PlainValue]? {
        var text = text
        return text.withUTF8(items)
    }
}
