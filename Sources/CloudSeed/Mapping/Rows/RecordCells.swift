/// A record's cells as its reader lends them, a column at a time: what both passes take without a
/// row of fields (``HeaderColumns``, ``ColumnSurvey``, ``ColumnTyping``). A CSV record's cells
/// are texts; a JSON record's members are typed values, a string's bytes read in place.
///
/// Each cell gives what the general way (a ``SourceRow``'s field, prepared) would make of it: its
/// value, its naming text, the kind the survey learns of it. Where a cell's bytes tell more
/// cheaply, it says so (``typedByBytes(_:as:converter:)``, ``withTextBytes(_:_:)``).
protocol RecordCells: NamingTexts {
    /// Whether the record has the column and its cell sets the field.
    func isSet(_ column: Int) -> Bool
    /// Where the cell starts.
    func position(_ column: Int) -> SourcePosition
    /// The set cell's value, as the general way reads it.
    func value(_ column: Int) -> PlainValue
    /// Lends `body` the bytes of a set cell whose value is a text told by its bytes alone (what
    /// resolved references are found again by); `nil` for any other cell.
    func withTextBytes<Result>(_ column: Int, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result?
    /// The set cell's value as `type`, straight from its bytes where they tell it alone; `nil`
    /// where it is typed from ``value(_:)``. With it, the kind the survey learns of the cell,
    /// where reading the bytes told it too (``ValueConverter/convert(utf8:to:)``).
    func typedByBytes(_ column: Int, as type: FieldType, converter: ValueConverter) -> (
        value: RecordValue, kind: InferredKind.TextKind?
    )?
    /// The LOCATION two set cells make, straight from their bytes where both are numbers within
    /// range; `nil` where it is typed from their values.
    func location(latitude: Int, longitude: Int, converter: ValueConverter) -> RecordValue?
}

/// A reader's record whose cells a source's survey takes column by column (``ColumnSurvey``).
protocol SurveyedCells: RecordCells {
    /// Has `survey` take in the set cell's value, as a type's survey takes a row's field; its
    /// kind is `kind` where typing the cell told it (``typedByBytes(_:as:converter:)``).
    func survey(_ column: Int, into survey: TypeSurvey.FieldSurvey, assetFolder: String, kind: InferredKind.TextKind?)
}
