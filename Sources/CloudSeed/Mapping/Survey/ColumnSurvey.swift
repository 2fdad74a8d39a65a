/// What pass one learns of the fields of a source whose records come as cells (``HeaderColumns``),
/// learnt column by column where the records are read, each cell told by its bytes, so that the
/// thread that surveys the records only names them. Once the source is read, its type's survey
/// takes it in (``TypeSurvey/merge(_:mayPointToType:)``).
///
/// Each column, and the `location` its latitude and longitude make, has a
/// ``TypeSurvey/FieldSurvey`` from its first set cell on, which takes the cells' values as the
/// type's survey takes a row's fields.
struct ColumnSurvey {
    /// The columns whose cells it takes.
    let columns: HeaderColumns
    private let assetFolder: String
    /// Whether each column's values, then the location's, are kept to be tried as references.
    private let keepsValues: [Bool]
    /// Each column's survey, then the location's; `nil` until a record sets it.
    private var surveys: [TypeSurvey.FieldSurvey?]
    /// Whether each column's survey takes no more values (``TypeSurvey/FieldSurvey/takesValues``):
    /// it never does again once it does not (a STRING field keeps no texts), and its cells are
    /// passed by without asking it.
    private var doneColumns: [Bool]
    /// For each column, the kinds told by the typing (``InferredKind/TextKind``, a bit each) that its
    /// survey absorbs (``TypeSurvey/FieldSurvey/absorbs(_:)``): a cell of such a kind is passed by.
    private var absorbedKinds: [UInt8]

    /// The survey of the records of `columns`, whose asset paths start from `assetFolder`;
    /// `mayPointToType` tells whether a field's name may point to a record type.
    init(columns: HeaderColumns, assetFolder: String, mayPointToType: (String) -> Bool) {
        self.columns = columns
        self.assetFolder = assetFolder
        keepsValues = (columns.names + [LocationKeys.field]).map(mayPointToType)
        surveys = Array(repeating: nil, count: columns.names.count + 1)
        doneColumns = Array(repeating: false, count: columns.names.count)
        absorbedKinds = Array(repeating: 0, count: columns.names.count)
    }

    /// Takes in a record's cells: the same values, in the same order, as the fields of the row
    /// ``RowPreparation`` would make of them, each told by its bytes where it can be; a text is
    /// made only for a value kept or tried as an asset path.
    ///
    /// The cells of the columns in `repeated` are left out: each has the bytes of a cell of its
    /// column this survey took in before (``ColumnTyping/columnsFoundAgain``), and a value taken
    /// in again changes nothing: kinds merge as before, a kept text is kept, an asset path checked
    /// again is one again. An `artist` column was otherwise looked up twice by its bytes, by the
    /// typing and here.
    ///
    /// `kinds` are the kinds the typing told of some of the cells (``ColumnTyping/kindsTold``):
    /// those cells are not classified again.
    mutating func add<Cells: SurveyedCells>(
        _ record: Cells, except repeated: [Int] = [], kinds: TypedCellKinds = TypedCellKinds()
    ) {
        let pair = columns.pair(in: record)
        for column in 0..<min(record.count, columns.names.count) where record.isSet(column) {
            guard columns.isField[column], !doneColumns[column], column != pair?.latitude, column != pair?.longitude,
                !repeated.contains(column)
            else { continue }
            let kind = kinds.kind(of: column)
            if let kind, absorbedKinds[column] & kind.bit != 0 { continue }
            let survey = survey(of: column, at: record.position(column))
            guard survey.takesValues else {
                doneColumns[column] = true
                continue
            }
            record.survey(column, into: survey, assetFolder: assetFolder, kind: kind)
            if let kind, survey.absorbs(kind.inferred) { absorbedKinds[column] |= kind.bit }
        }
        if let pair {
            // A latitude and a longitude make a location, whatever their texts, and a location has no texts.
            survey(of: columns.names.count, at: record.position(pair.latitude)).add(.location, assetFolder: assetFolder)
            { [] }
        }
    }

    /// The surveys of the fields the records set, by field name.
    var fields: [(name: String, survey: TypeSurvey.FieldSurvey)] {
        zip(columns.names + [LocationKeys.field], surveys).compactMap { name, survey in survey.map { (name, $0) } }
    }

    /// The column's survey, made at its first set cell (at `position`, asked for then alone: a
    /// position copied for every cell was much of the survey's work).
    private mutating func survey(of column: Int, at position: @autoclosure () -> SourcePosition)
        -> TypeSurvey.FieldSurvey
    {
        if let known = surveys[column] { return known }
        let survey = TypeSurvey.FieldSurvey(firstPosition: position(), keepsValues: keepsValues[column])
        surveys[column] = survey
        return survey
    }
}
