/// A flat JSON record's members (a JSON Lines record's, or an element's of the array a document
/// is) as ``JSONParser/readFlatRecord(keys:into:)`` read them, in the order of the keys it
/// expected: each member's value, but a string without escapes, whose text is its bytes in the
/// input, made only where it is asked for.
///
/// A record is lent to the caller of ``JSONReader/forEachRecord(header:_:row:)`` for the time of the call.
struct FlatJSONRecord {
    /// A member: where its value starts, and its value or its text's bytes.
    struct Cell {
        /// The value; unused for a string read in place.
        var value: PlainValue
        /// A string without escapes: its UTF-8 bytes (checked) are `input[text]`.
        var text: Range<Int>?
        var line: Int
        var column: Int
    }

    let cells: [Cell]
    /// The bytes the texts' ranges point into: the parser's input.
    let input: [UInt8]
    /// The file, for the cells' positions.
    let origin: SourcePosition

    /// Lends `body` the bytes of a text read in place.
    private func withBytes<Result>(_ text: Range<Int>, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        input.withUnsafeBufferPointer { body(UnsafeBufferPointer(rebasing: $0[text])) }
    }
}

extension FlatJSONRecord: FlatCells {
    var count: Int { cells.count }

    /// Whether the member sets its field: a null and an empty list leave it unset, as the general
    /// way leaves them out of a row.
    func isSet(_ column: Int) -> Bool {
        guard column < cells.count else { return false }
        if cells[column].text != nil { return true }
        switch cells[column].value {
        case .null: return false
        case .array(let items): return !items.isEmpty
        default: return true
        }
    }

    func position(_ column: Int) -> SourcePosition {
        origin.at(line: cells[column].line, column: cells[column].column)
    }

    func value(_ column: Int) -> PlainValue {
        guard let text = cells[column].text else { return cells[column].value }
        return .string(withBytes(text) { String(decoding: $0, as: UTF8.self) })
    }

    func namingText(_ column: Int) -> String? {
        guard isSet(column) else { return nil }
        return RecordNaming.text(of: value(column))
    }

    func withTextBytes<Result>(_ column: Int, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result? {
        cells[column].text.map { withBytes($0, body) }
    }

    /// A date in a string, read from its bytes; every other value is typed from itself.
    func typedByBytes(_ column: Int, as type: FieldType, converter: ValueConverter) -> (
        value: RecordValue, kind: InferredKind.TextKind?
    )? {
        guard type == .timestamp, let text = cells[column].text else { return nil }
        return withBytes(text) { Timestamp.parse(utf8: $0) }.map { (.timestamp($0), nil) }
    }

    /// Two numbers within range, as a location made of them converts.
    func location(latitude: Int, longitude: Int, converter: ValueConverter) -> RecordValue? {
        func number(_ value: PlainValue) -> Double? {
            switch value {
            case .integer(let number): Double(number)
            case .real(let number): number
            default: nil
            }
        }
        guard cells[latitude].text == nil, cells[longitude].text == nil, let latitude = number(cells[latitude].value),
            (-90...90).contains(latitude), let longitude = number(cells[longitude].value),
            (-180...180).contains(longitude)
        else { return nil }
        return .location(Location(latitude: latitude, longitude: longitude))
    }

    /// A string read in place is classified by its bytes, which keep its text where it is kept;
    /// the survey takes any other value as a row's.
    /// A JSON string is classified as a typed string (``InferredKind/classify(typedString:)``): its
    /// typing never tells its kind.
    func survey(_ column: Int, into survey: TypeSurvey.FieldSurvey, assetFolder: String, kind: InferredKind.TextKind?) {
        guard let text = cells[column].text else { return survey.add(cells[column].value, assetFolder: assetFolder) }
        // The empty string is text without texts to keep.
        guard !text.isEmpty else { return survey.add(.string, assetFolder: assetFolder) { [] } }
        withBytes(text) { survey.add(InferredKind.classify(typedString: $0), bytes: $0, assetFolder: assetFolder) }
    }
}

extension FlatJSONRecord {
    /// The row ``JSONReader/forEachRow(_:)`` reads of the record (starting at `position`), whose
    /// keys are `header`'s columns.
    func row(of header: CSVHeader, at position: SourcePosition) -> SourceRow {
        SourceRow(
            fields: cells.indices.map {
                SourceField(key: header.columns[$0].name, value: value($0), position: self.position($0))
            }, position: position)
    }
}
