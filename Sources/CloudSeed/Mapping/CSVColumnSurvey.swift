/// What pass one learns of the fields of a CSV source whose records come as cells (``CSVColumns``),
/// learnt column by column on the thread that prepares the records, so that the thread that
/// surveys them only names them. Once the source is read, its type's survey takes it in
/// (``TypeSurvey/merge(_:mayPointToType:)``).
///
/// Each column, and the `location` its latitude and longitude make, has a
/// ``TypeSurvey/FieldSurvey`` from its first set cell on, which takes the cells' values as the
/// type's survey takes a row's fields.
struct CSVColumnSurvey {
    private let columns: CSVColumns
    private let assetFolder: String
    /// Whether each column's values, then the location's, are kept to be tried as references.
    private let keepsValues: [Bool]
    /// Each column's survey, then the location's; `nil` until a record sets it.
    private var surveys: [TypeSurvey.FieldSurvey?]

    /// The survey of the records of `columns`, whose asset paths start from `assetFolder`;
    /// `mayPointToType` tells whether a field's name may point to a record type.
    init(columns: CSVColumns, assetFolder: String, mayPointToType: (String) -> Bool) {
        self.columns = columns
        self.assetFolder = assetFolder
        keepsValues = (columns.names + [LocationKeys.field]).map(mayPointToType)
        surveys = Array(repeating: nil, count: columns.names.count + 1)
    }

    /// Takes in a record's cells: the same values, in the same order, as the fields of the row
    /// ``RowPreparation`` would make of them.
    mutating func add(_ cells: [CSVCell]) {
        let pair = columns.pair(in: cells)
        for column in 0..<min(cells.count, columns.names.count) where CSVHeader.isSet(cells[column]) {
            guard column != pair?.latitude, column != pair?.longitude else { continue }
            survey(of: column, at: cells[column].position).add(CSVColumns.value(of: cells[column]), assetFolder: assetFolder)
        }
        if let pair {
            survey(of: columns.names.count, at: cells[pair.latitude].position).add(CSVColumns.location(of: cells, pair), assetFolder: assetFolder)
        }
    }

    /// The surveys of the fields the records set, by field name.
    var fields: [(name: String, survey: TypeSurvey.FieldSurvey)] {
        zip(columns.names + [LocationKeys.field], surveys).compactMap { name, survey in survey.map { (name, $0) } }
    }

    private mutating func survey(of column: Int, at position: SourcePosition) -> TypeSurvey.FieldSurvey {
        if let known = surveys[column] { return known }
        let survey = TypeSurvey.FieldSurvey(firstPosition: position, keepsValues: keepsValues[column])
        surveys[column] = survey
        return survey
    }
}
