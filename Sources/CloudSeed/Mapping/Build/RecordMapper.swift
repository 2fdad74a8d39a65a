import Foundation

/// Turns the rows of every source of a run into typed, named records: the plan stage here, the
/// build stage in RecordMapper+Building.swift, both reading through ``SourceReading``.
///
/// It reads the sources a record at a time, twice, or once where the plan guessed from the first
/// rows is checked while it writes (``RunSurvey``). ``survey(_:store:scope:firstRows:)`` decides each field's
/// type over all values of the run (the store's schema wins, then `--field` and `--reference`, then
/// the type the source declares, then inference), each type's naming rule, each record's name, and
/// which fields are references or assets. ``forEachRecord(_:plan:surveying:rowsReadAhead:assets:rejected:encoders:record:)`` then builds every
/// row. Memory holds one row at a time plus the names and keys that references resolve against.
package struct RecordMapper {
    package var options: MappingOptions
    /// The run's read stage.
    var reading: SourceReading { SourceReading(options: options) }
    /// The schema already in the store for the target container environment.
    package var schema: Schema
    /// Drawn once per mapper: with `--uuid`, every plan it decides names a row alike, so that a
    /// plan guessed from the first rows can be checked against the plan of all of them.
    let randomSeed = UInt64.random(in: .min ... .max)

    package init(options: MappingOptions, schema: Schema) {
        self.options = options
        self.schema = schema
    }

    /// Pass one: reads every source and decides the plan. Records already in `store` (in `scope`)
    /// are reference targets too. With `firstRows`, only that many records of each source are
    /// surveyed: the plan is a guess, which the pass that writes checks (``RunSurvey``).
    ///
    /// What is kept stays flat in the number of rows: per field its
    /// kind, per naming rule still possible the fingerprints of the names it would give, and the
    /// values of the fields whose names may point to a record type. The rows of the types that
    /// references point to are read again afterwards, to index them by name and natural key.
    package func survey(
        _ sources: [SourceFile], store: (any StoredRecords)? = nil, scope: StoreScope = StoreScope(),
        firstRows: Int? = nil
    ) throws -> ImportPlan {
        try survey(sources, store: store, scope: scope, firstRows: firstRows.map(SourceReading.FirstRows.init))
    }

    /// ``survey(_:store:scope:firstRows:)``, telling through `firstRows` whether every record was surveyed.
    func survey(
        _ sources: [SourceFile], store: (any StoredRecords)?, scope: StoreScope, firstRows: SourceReading.FirstRows?
    ) throws
        -> ImportPlan
    {
        let run = runSurvey(of: sources)
        // Rows are read and prepared on one thread and surveyed on this one. What crosses between
        // them is rows and numbers: no object both would count references to. A CSV source's
        // fields are surveyed column by column where its records are read, by their bytes; rows
        // that only name its records cross, then the columns' survey once the source is read.
        let preparation = reading.rowPreparation()
        let cellWay = { (header: CSVHeader, type: String, source: Int) in
            HeaderColumns(header: header, recordType: type, options: options).map {
                SourceReading.CellWay.surveyed(run.columnSurvey(of: $0, source: source))
            }
        }
        try reading.inStages(
            sources, firstRows: firstRows, cellWay: cellWay,
            read: { (item: consuming SourceReading.ReadItem) -> SurveyItem? in
                switch consume item {
                case .row(var read):
                    .row(
                        try preparation.prepare(&read.row, type: read.type, ordinal: read.ordinal), source: read.source)
                case .named(let row, let source): .row(row, source: source)
                case .columns(let survey, let type): .columns(survey, type: type)
                case .unreadable, .built, .builtSurveyed, .refused: nil
                }
            },
            consume: { (item: consuming SurveyItem?) in
                switch consume item {
                case .row(let row, let source): try run.add(row, source: source)
                case .columns(let columns, let type): run.merge(columns, type: type)
                case nil: return
                }
            })
        return try decide(run, sources: sources, store: store, scope: scope)
    }

    /// A survey of the rows of `sources`, empty.
    func runSurvey(of sources: [SourceFile]) -> RunSurvey {
        RunSurvey(
            options: options, schema: schema, sourceTypes: sources.map { reading.recordType(of: $0) },
            folders: reading.assetFolders(sources))
    }

    /// Decides the plan from what `run` learnt of every row of `sources`: naming rules, the rows
    /// that cannot be named, the index references resolve through (reading the rows of the types
    /// they point to again, and the records `store` holds of them) and each field's type.
    func decide(_ run: RunSurvey, sources: [SourceFile], store: (any StoredRecords)?, scope: StoreScope) throws
        -> ImportPlan
    {
        var decisions = PlanDecisions(
            options: options, schema: schema, surveys: run.takeSurveys(), randomSeed: randomSeed)
        // Read while ICU may still be compiling what the naming rules need; its error waits its turn.
        let stored = Result { try store.map { try decisions.storedRecordKeys($0, scope: scope) } }
        let typeSources = decisions.surveys.mapValues(\.naming.sources)
        decisions.chooseNamingRules()
        let lookedAt = typeSources.filter { decisions.needsLook(at: $0.key) }.values.reduce(into: Set<Int>()) {
            $0.formUnion($1)
        }
        if !lookedAt.isEmpty {
            var rowNumbers = TypeRowCounts()
            func look(at row: PreparedRow, isChild: Bool) {
                decisions.look(at: row, rowNumber: isChild ? nil : rowNumbers.count(row.recordType))
                for child in row.children { look(at: child.row, isChild: true) }
            }
            try reading.forEachPreparedRow(sources, only: lookedAt) { row, _ in look(at: row, isChild: false) }
        }
        try decisions.reportNamingProblems()
        if let stored = try stored.get() { decisions.indexStoredRecords(stored) }
        let plan = try decisions.plan()
        FreedMemory.release()
        return plan
    }

    /// What pass one's reading hands to the survey.
    private enum SurveyItem {
        case row(PreparedRow, source: Int)
        /// The fields of a source of `type` read as cells, whose records came as rows that only name them.
        case columns(ColumnSurvey, type: String)
    }
}
