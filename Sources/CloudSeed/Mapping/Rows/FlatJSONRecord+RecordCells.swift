/// A JSON record's members are typed values: a string's bytes are read in place, a number is
/// typed from its value.
extension FlatJSONRecord: SurveyedCells {
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
        return value(column).namingText
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
