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
        let builder = RecordBuilder(plan: plan, options: options)
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
        func take(_ outcome: RecordBuilder.Outcome) throws {
            switch outcome {
            case .refused(let row, let reasons):
                if options.skipBadRows { return try reject(row, reasons) }
                for error in reasons { try errors.record(error) }
            case .record(let record):
                guard errors.errors.isEmpty else { return }
                if builder.typesLoadingAssets.contains(record.recordType) {
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
        // Rows are read and prepared (CSV and flat JSON records typed) on one thread, and named,
        // built and handed on by this one: reading is the larger half of the work.
        var rowNumbers = TypeRowCounts()
        let readingPreparation = reading.rowPreparation()
        // CSV and flat JSON records are typed where they are read, without a row, where their header allows.
        let readingBuilder = RecordBuilder(plan: plan, options: options)
        // Surveying too, those records are also surveyed column by column where they are read.
        let namingKeys = plan.naming.rules.compactMapValues { rule -> String? in
            if case .naturalKey(let key) = rule { key } else { nil }
        }
        // The natural key that names the type of the last row surveyed.
        var surveyedType = (name: "", key: String?.none)
        func namingKey(of type: String) -> String? {
            if type != surveyedType.name { surveyedType = (type, namingKeys[type]) }
            return surveyedType.key
        }
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
        try reading.inStages(
            sources, cellWay: cellWay, rowsReadAhead: rowsReadAhead,
            read: { item -> ReadForBuilding in
                switch consume item {
                case .row(var read):
                    .prepared(
                        try readingPreparation.prepare(&read.row, type: read.type, ordinal: read.ordinal),
                        source: read.source)
                case let other: .read(other)
                }
            },
            consume: { (item: consuming ReadForBuilding) in
                let (row, source): (PreparedRow, Int)
                switch consume item {
                case .prepared(let prepared, let from): (row, source) = (prepared, from)
                case .read(.unreadable(let error)):
                    return try rejected(
                        RejectedRow(
                            recordType: "", position: error.position ?? SourcePosition(file: ""), errors: [error]))
                case .read(.named(let row, let source)):
                    return try surveying?.add(row, source: source) ?? ()
                case .read(.columns(let columns, let type)):
                    return surveying?.merge(columns, type: type) ?? ()
                case .read(.builtSurveyed(var record, let name, let nameColumn, let source)):
                    name.make(&record, rowNumber: rowNumbers.count(record.recordType), naming: plan.naming)
                    surveying?.add(
                        record, key: namingKey(of: record.recordType), nameColumn: nameColumn,
                        name: name.isText ? record.recordName : nil, source: source)
                    return try take(.record(record))
                case .read(.built(var record, let name)):
                    name.make(&record, rowNumber: rowNumbers.count(record.recordType), naming: plan.naming)
                    return try take(.record(record))
                case .read(.refused(var refusal)):
                    let reasons = refusal.reasons(
                        rowNumber: rowNumbers.count(refusal.record.recordType), naming: plan.naming)
                    let row = PreparedRow(
                        recordType: refusal.record.recordType, fields: [], templateValues: [:],
                        position: refusal.record.position, ordinal: 0, children: [])
                    return try take(.refused(row, reasons))
                case .read(.row):
                    preconditionFailure("rows are prepared where they are read")
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
                    return try take(.refused(row, known))
                }
                guard let name else { return }
                builder.assetFolder = folders[source]
                try builder.build(row, name: name, take)
            })
        try errors.throwIfAny()
    }

    /// What pass two's reading hands on: an item as read (any but a row), or a row prepared where
    /// it was read.
    fileprivate enum ReadForBuilding {
        case read(SourceReading.ReadItem)
        indirect case prepared(PreparedRow, source: Int)
    }
}
