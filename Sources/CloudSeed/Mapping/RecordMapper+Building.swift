package import Foundation

/// The build stage of a run: pass two reads the sources again and builds each record by the plan
/// (``RecordBuilder``), on two threads, checking a guessed plan where there is one.
extension RecordMapper {
    /// Pass two: reads every source again and calls `body` with each record, typed and named by
    /// `plan` (``RecordBuilder``). Assets are handed to `assets` once each, with their content where
    /// it was read from a file. Errors are collected (up to ``CloudSeedError/limit``) and thrown at
    /// the end; after the first one `body` is not called again. With `--skip-bad-rows`, a row that
    /// cannot be read or built goes to `rejected`, with its child rows.
    ///
    /// The records of the types `encoders` has encoders for reach `body` with their values encoded
    /// where they were typed (``TypedRecord/encodedValues``), where their source is read cell by cell.
    ///
    /// Where `plan` was guessed from the first rows, `surveying` takes in every row as pass one
    /// would, on the thread that names them, so that one reading both writes and checks the guess.
    ///
    /// The reading thread runs at most about `rowsReadAhead` rows ahead of `body`.
    package func forEachRecord(
        _ sources: [SourceFile], plan: ImportPlan, surveying: RunSurvey? = nil,
        rowsReadAhead: Int = BackgroundProducer.defaultItemsAhead,
        assets: (AssetReference, Data?) throws -> Void,
        rejected: (RejectedRow) throws -> Void = { _ in }, encoders: [String: StoredValueEncoder] = [:],
        record body: (TypedRecord) throws -> Void
    ) throws {
        var errors = ErrorCollector()
        var assetsSeen = Set<String>()
        let folders = reading.assetFolders(sources)
        func reject(_ row: PreparedRow, _ reasons: [CloudSeedError]) throws {
            try rejected(RejectedRow(recordType: row.recordType, position: row.position, errors: reasons))
            for child in row.children {
                try reject(
                    child.row,
                    [
                        CloudSeedError(
                            reasons[0].code, "its parent row (\(row.position)) was refused", at: child.row.position)
                    ])
            }
        }
        /// Takes what building a row gave: hands a record on, with its assets, or refuses the row.
        func take(_ outcome: RecordBuilder.Outcome, loadingAssets: Set<String>) throws {
            switch outcome {
            case .refused(let row, let reasons):
                if options.skipBadRows { return try reject(row, reasons) }
                for error in reasons { try errors.record(error) }
            case .record(let record):
                guard errors.errors.isEmpty else { return }
                if loadingAssets.contains(record.recordType) {
                    for value in record.values {
                        try value?.forEachAsset { asset in
                            if assetsSeen.insert(asset.fileChecksum).inserted {
                                try assets(asset, record.assetContents[asset.fileChecksum])
                            }
                        }
                    }
                }
                try body(record)
            }
        }
        // Rows are read on one thread, prepared, named and mostly built on another, and finished and
        // handed on by this one. A CSV row, quick to read, is prepared where it is read, so that the
        // thread that names and builds rows, the busiest, has less to do; documents take longer to
        // read than to prepare. A CSV record typed where it is read is named on the next thread: the
        // reading one, which scans, types and surveys every cell, is the busier; but in two stages,
        // where the next thread also writes, a name made of a text is made where it is read. The
        // records that load asset files are built on this thread, so that the files' bytes cross no other.
        var rowNumbers = TypeRowCounts()
        let builder = RecordBuilder(plan: plan, options: options)
        let writingBuilder = RecordBuilder(plan: plan, options: options)
        let preparedWhereRead = Set(sources.indices.filter { [.csv, .tsv].contains(sources[$0].format) })
        let readingPreparation = reading.rowPreparation()
        let preparation = reading.rowPreparation()
        // CSV and flat JSON records are typed where they are read, without a row, where their header allows.
        let readingBuilder = RecordBuilder(plan: plan, options: options)
        // Surveying too, those records are also surveyed column by column where they are read.
        let namingKeys = plan.naming.rules.compactMapValues { rule -> String? in
            if case .naturalKey(let key) = rule { key } else { nil }
        }
        // The natural key that names the type of the last row surveyed.
        var surveyedType = (name: "", key: String?.none)
        let cellWay = { (header: CSVHeader, type: String, source: Int) -> SourceReading.CellWay? in
            guard
                let typed = ColumnTyping(
                    header: header, recordType: type, plan: plan, options: options, typing: readingBuilder,
                    encoder: encoders[type])
            else { return nil }
            guard let surveying, let columns = HeaderColumns(header: header, recordType: type, options: options)
            else { return .typed(typed) }
            return .typedAndSurveyed(typed, surveying.columnSurvey(of: columns, source: source))
        }
        // Surveying CSV alone, whose rows are prepared where they are read, the second thread would
        // only name and survey them: that is done on this one, between their writes. Documents keep
        // the three stages, as they run slower on two.
        let preparingHere = surveying != nil && preparedWhereRead.count == sources.count
        try reading.inStages(
            sources, cellWay: cellWay, preparingHere: preparingHere,
            rowsReadAhead: rowsReadAhead,
            read: { item -> ReadForBuilding in
                if preparingHere, case .builtSurveyed(var record, .byText, let nameColumn, let source) = item {
                    record.recordName = RecordNaming.recordName(from: record.recordName)
                    return .read(.builtSurveyed(record, name: .madeOfText, nameColumn: nameColumn, source: source))
                }
                guard case .row(let read) = item, preparedWhereRead.contains(read.source) else { return .read(item) }
                var row = read.row
                return .prepared(
                    try readingPreparation.prepare(&row, type: read.type, ordinal: read.ordinal), source: read.source)
            },
            prepare: { (item: consuming ReadForBuilding, handOn) in
                func namingKey(of type: String) -> String? {
                    if type != surveyedType.name { surveyedType = (type, namingKeys[type]) }
                    return surveyedType.key
                }
                let (row, source): (PreparedRow, Int)
                switch consume item {
                case .prepared(let prepared, let from): (row, source) = (prepared, from)
                case .read(.unreadable(let error)): return try handOn(.unreadable(error))
                case .read(.named(let row, let source)):
                    try surveying?.add(row, source: source)
                    return
                case .read(.columns(let columns, let type)):
                    surveying?.merge(columns, type: type)
                    return
                // Each record is named in place and moved on, not copied.
                case .read(.builtSurveyed(var record, let name, let nameColumn, let source)):
                    name.make(&record, rowNumber: rowNumbers.count(record.recordType), naming: plan.naming)
                    surveying?.add(
                        record, key: namingKey(of: record.recordType), nameColumn: nameColumn,
                        name: name.isText ? record.recordName : nil, source: source)
                    return try handOn(.built(record))
                case .read(.built(var record, let name)):
                    name.make(&record, rowNumber: rowNumbers.count(record.recordType), naming: plan.naming)
                    return try handOn(.built(record))
                case .read(.refused(var refusal)):
                    let reasons = refusal.reasons(
                        rowNumber: rowNumbers.count(refusal.record.recordType), naming: plan.naming)
                    let row = PreparedRow(
                        recordType: refusal.record.recordType, fields: [], templateValues: [:],
                        position: refusal.record.position, ordinal: 0, children: [])
                    return try handOn(.refused(row, reasons))
                case .read(.row(var read)):
                    (row, source) = (
                        try preparation.prepare(&read.row, type: read.type, ordinal: read.ordinal), read.source
                    )
                }
                let number = rowNumbers.count(row.recordType)
                let planned = builder.slots(of: row.recordType) != nil
                let name = planned ? plan.naming.name(of: row, rowNumber: number) : nil
                if let surveying {
                    // The name the plan's natural key gives the row, made once for the plan and the survey.
                    var keyName: (key: String, name: String)?
                    if let key = namingKey(of: row.recordType), let name,
                        row.naturalKeys.contains(where: { $0.0 == key })
                    {
                        keyName = (key, name)
                    }
                    try surveying.add(row, source: source, keyName: keyName)
                }
                if !plan.rowErrors.isEmpty, let known = plan.rowErrors[row.recordType]?[number] {
                    return try handOn(.refused(row, known))
                }
                guard let name else { return }
                if builder.loadsAssets(row) { return try handOn(.row(row, source: source, name: name)) }
                try builder.build(row, name: name) { outcome in
                    switch outcome {
                    case .record(let record): try handOn(.built(record))
                    case .refused(let row, let reasons): try handOn(.refused(row, reasons))
                    }
                }
            },
            consume: { (item: PreparedItem) in
                switch item {
                case .unreadable(let error):
                    try rejected(
                        RejectedRow(
                            recordType: "", position: error.position ?? SourcePosition(file: ""), errors: [error]))
                case .refused(let row, let reasons):
                    try take(.refused(row, reasons), loadingAssets: [])
                case .row(let row, let source, let name):
                    writingBuilder.assetFolder = folders[source]
                    try writingBuilder.build(row, name: name) {
                        try take($0, loadingAssets: writingBuilder.typesLoadingAssets)
                    }
                case .built(let record):
                    try take(.record(record), loadingAssets: [])
                }
            })
        try errors.throwIfAny()
    }

    /// What pass two's reading hands on: a prepared row, or a row the reader could not read (with `--skip-bad-rows`).
    ///
    /// The cases that carry a whole ``PreparedRow`` are `indirect`, here and in ``ReadItem`` and
    /// ``ReadForBuilding``: items are moved into batches and out again, and batches cross between the
    /// cores, so an item is as large as its largest case. Boxed, those few rows leave the common
    /// items (a typed record) less than half as large.
    fileprivate enum PreparedItem {
        /// A row whose records load asset files, built where they are written.
        indirect case row(PreparedRow, source: Int, name: String)
        /// A row whose name the plan refused (`--skip-bad-rows`), or that could not be built.
        indirect case refused(PreparedRow, [CloudSeedError])
        case unreadable(CloudSeedError)
        /// A record built where it was read or prepared.
        case built(TypedRecord)
    }

    /// What pass two's reading hands on: an item as read, or a row prepared where it was read.
    fileprivate enum ReadForBuilding {
        case read(SourceReading.ReadItem)
        indirect case prepared(PreparedRow, source: Int)
    }
}
