/// A CSV record's cells are texts, typed by inference: a number, a date or a boolean is told by
/// its bytes, and `""` quoted is the empty string.
extension CSVRecord: SurveyedCells {
    /// A cell's value, as ``CSVHeader/value(of:as:)`` makes it without a declared type.
    func value(_ column: Int) -> PlainValue {
        isEmpty(column) ? .string("") : .text(text(column))
    }

    func withTextBytes<Result>(_ column: Int, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result? {
        withBytes(column, body)
    }

    /// A STRING is the cell's text, as ``ValueConverter/convert(_:to:at:)`` makes it of the cell's
    /// value, without that value made first (a common case).
    func typedByBytes(_ column: Int, as type: FieldType, converter: ValueConverter) -> (
        value: RecordValue, kind: InferredKind.TextKind?
    )? {
        if type == .string { return (.string(text(column)), nil) }
        return withBytes(column) { converter.convert(utf8: $0, to: type) }
    }

    func location(latitude: Int, longitude: Int, converter: ValueConverter) -> RecordValue? {
        withBytes(latitude) { latitude in withBytes(longitude) { converter.location(latitude: latitude, longitude: $0) }
        }
    }

    func survey(_ column: Int, into survey: TypeSurvey.FieldSurvey, assetFolder: String, kind: InferredKind.TextKind?) {
        // `""` quoted is an empty string, a text without texts to keep.
        if isEmpty(column) {
            survey.add(.string, assetFolder: assetFolder) { [] }
        } else {
            withBytes(column) {
                survey.add(kind?.inferred ?? InferredKind.classify(utf8: $0), bytes: $0, assetFolder: assetFolder)
            }
        }
    }
}
