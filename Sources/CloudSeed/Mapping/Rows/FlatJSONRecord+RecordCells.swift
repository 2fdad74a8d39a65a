/// A JSON record's members are typed values: a string's bytes are read in place, a number is
/// typed from its value.
extension FlatJSONRecord: SurveyedCells {
    var count: Int { cells.count }

    /// Whether the member sets its field: a null and an empty list leave it unset, as the general
    /// way leaves them out of a row.
    func isSet(_ column: Int) -> Bool {
        guard column < cells.count else { return false }
        switch cells[column].kind {
        case .null: return false
        case .value:
            guard case .array(let items) = values[cells[column].bytes.lowerBound] else { return true }
            return !items.isEmpty
        case .text, .integer, .real, .bool: return true
        }
    }

    func position(_ column: Int) -> SourcePosition {
        origin.at(line: cells[column].line, column: cells[column].column)
    }

    func namingText(_ column: Int) -> String? {
        guard isSet(column) else { return nil }
        return value(column).namingText
    }

    func withTextBytes<Result>(_ column: Int, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result? {
        text(column).map { withBytes($0, body) }
    }

    /// A date in a string, read from its bytes; every other value is typed from itself.
    func typedByBytes(_ column: Int, as type: FieldType, converter: ValueConverter) -> (
        value: RecordValue, kind: InferredKind.TextKind?
    )? {
        guard type == .timestamp, let text = text(column) else { return nil }
        return withBytes(text) { Timestamp.parse(utf8: $0) }.map { (.timestamp($0), nil) }
    }

    /// Two numbers within range, as a location made of them converts.
    func location(latitude: Int, longitude: Int, converter: ValueConverter) -> RecordValue? {
        func number(_ cell: Cell) -> Double? {
            switch cell.kind {
            case .integer: Double(Int64(bitPattern: cell.scalar))
            case .real: Double(bitPattern: cell.scalar)
            case .text, .bool, .null, .value: nil
            }
        }
        guard let latitude = number(cells[latitude]), (-90...90).contains(latitude),
            let longitude = number(cells[longitude]), (-180...180).contains(longitude)
        else { return nil }
        return .location(Location(latitude: latitude, longitude: longitude))
    }

    /// A string read in place is classified by its bytes, which keep its text where it is kept;
    /// the survey takes any other value as a row's.
    /// A JSON string is classified as a typed string (``InferredKind/classify(typedString:)``): its
    /// typing never tells its kind.
    func survey(_ column: Int, into survey: TypeSurvey.FieldSurvey, assetFolder: String, kind: InferredKind.TextKind?) {
        guard let text = text(column) else { return survey.add(value(column), assetFolder: assetFolder) }
        // The empty string is text without texts to keep.
        guard !text.isEmpty else { return survey.add(.string, assetFolder: assetFolder) { [] } }
        withBytes(text) { survey.add(InferredKind.classify(typedString: $0), bytes: $0, assetFolder: assetFolder) }
    }
}
