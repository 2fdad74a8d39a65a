package import Foundation

/// Turns the rows of every source of a run into typed, named records.
///
/// It reads the sources a record at a time, twice, or once where the plan guessed from the first
/// rows is checked while it writes (``RunSurvey``). ``survey(_:store:scope:firstRows:)`` decides each field's
/// type over all values of the run (the store's schema wins, then `--field` and `--reference`, then
/// the type the source declares, then inference), each type's naming rule, each record's name, and
/// which fields are references or assets. ``forEachRecord(_:plan:assets:_:)`` then converts every
/// row. Memory holds one row at a time plus the names and keys that references resolve against.
package struct RecordMapper {
    package var options: MappingOptions
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
        _ sources: [SourceFile], store: (any StoreBackend)? = nil, scope: StoreScope = StoreScope(),
        firstRows: Int? = nil
    ) throws -> ImportPlan {
        try survey(sources, store: store, scope: scope, firstRows: firstRows.map(FirstRows.init))
    }

    /// How many records of each source a survey takes, and whether a source had more.
    final class FirstRows: @unchecked Sendable {
        let limit: Int
        /// Set (on the reading thread, read once the survey is done) where a source had more than `limit` records.
        var leftRowsUnread = false

        init(_ limit: Int) { self.limit = limit }
    }

    /// ``survey(_:store:scope:firstRows:)``, telling through `firstRows` whether every record was surveyed.
    func survey(_ sources: [SourceFile], store: (any StoreBackend)?, scope: StoreScope, firstRows: FirstRows?) throws
        -> ImportPlan
    {
        let run = runSurvey(of: sources)
        // Rows are read, prepared and surveyed on three threads. What crosses between them is
        // rows and numbers: no object several would count references to. A CSV source's fields
        // are surveyed column by column where its records are read, by their bytes; rows that
        // only name its records cross, then the columns' survey once the source is read.
        let preparation = rowPreparation()
        let cellWay = { (header: CSVHeader, type: String, source: Int) in
            CellColumns(header: header, recordType: type, options: options).map {
                CellWay.surveyed(run.columnSurvey(of: $0, source: source))
            }
        }
        try readInStages(
            sources, firstRows: firstRows, cellWay: options.takesCellByCell ? cellWay : nil, read: { $0 },
            prepare: { (item: consuming ReadItem, emit) in
                switch consume item {
                case .row(var read):
                    try emit(
                        .row(
                            try preparation.prepare(&read.row, type: read.type, ordinal: read.ordinal),
                            source: read.source))
                case .named(let row, let source):
                    try emit(.row(row, source: source))
                case .columns(let survey, let type):
                    try emit(.columns(survey, type: type))
                case .unreadable, .flat, .flatNamed, .flatSurveyed:
                    return
                }
            },
            consume: { (item: consuming SurveyItem) in
                switch consume item {
                case .row(let row, let source): try run.add(row, source: source)
                case .columns(let columns, let type): run.merge(columns, type: type)
                }
            })
        return try decide(run, sources: sources, store: store, scope: scope)
    }

    /// A survey of the rows of `sources`, empty.
    func runSurvey(of sources: [SourceFile]) -> RunSurvey {
        RunSurvey(
            options: options, schema: schema, sourceTypes: sources.map { defaultRecordType(of: $0) },
            folders: assetFolders(sources))
    }

    /// Decides the plan from what `run` learnt of every row of `sources`: naming rules, the rows
    /// that cannot be named, the index references resolve through (reading the rows of the types
    /// they point to again, and the records `store` holds of them) and each field's type.
    func decide(_ run: RunSurvey, sources: [SourceFile], store: (any StoreBackend)?, scope: StoreScope) throws
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
            try forEachPreparedRow(sources, only: lookedAt) { row, _ in look(at: row, isChild: false) }
        }
        try decisions.reportNamingProblems()
        if let stored = try stored.get() { decisions.indexStoredRecords(stored) }
        let plan = try decisions.plan()
        FreedMemory.release()
        return plan
    }

    /// Pass two: reads every source again and calls `body` with each record, typed and named by
    /// `plan`. Assets are handed to `assets` once each, with their content where it was read from a
    /// file. Errors are collected (up to ``CloudSeedError/limit``) and thrown at the end; after the first
    /// one `body` is not called again.
    ///
    /// The rows of `flatTypes` without child records go to `flatRecord` instead, typed before
    /// they reach this thread (``FlatRowTyping``): for types whose records are all new, which need
    /// no ``CloudRecord``. Those of the types `encoders` has encoders for reach it with their values
    /// encoded where they were typed (``FlatRecord/encodedValues``), where their source is read cell by cell.
    ///
    /// Where `plan` was guessed from the first rows, `surveying` takes in every row as pass one
    /// would, on the thread that names them, so that one reading both writes and checks the guess.
    ///
    /// The reading thread runs at most about `rowsReadAhead` rows ahead of `body` and `flatRecord`.
    package func forEachRecord(
        _ sources: [SourceFile], plan: ImportPlan, surveying: RunSurvey? = nil,
        rowsReadAhead: Int = BackgroundProducer.defaultItemsAhead,
        assets: (AssetReference, Data?) throws -> Void,
        rejected: (RejectedRow) throws -> Void = { _ in }, flatTypes: Set<String> = [],
        encoders: [String: NewRecordEncoder] = [:],
        flatRecord: (FlatRecord) throws -> Void = { _ in }, _ body: (CloudRecord, SourcePosition) throws -> Void
    ) throws {
        var errors = ErrorCollector()
        var assetsSeen = Set<String>()
        var loadedContents: [String: Data] = [:]
        var folder = ""
        let converter = ValueConverter(
            loadAsset: { path, position in
                try AssetLoader.load(
                    path, at: position, folder: folder, allowOutside: options.allowOutsideAssets, into: &loadedContents)
            },
            recordName: RecordNaming.recordName(from:))
        let types = Dictionary(uniqueKeysWithValues: plan.recordTypes.map { ($0.name, $0) })
        let folders = assetFolders(sources)
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
        func typedValue(_ field: SourceField, _ plannedField: PlannedField) throws -> RecordValue {
            let value = try ReferenceResolution.resolve(field.value, field: plannedField, in: plan, options: options)
            return try converter.convert(value, to: plannedField, at: field.position)
        }
        /// A row's fields with their plans, one per field (`nil` for a field the plan leaves out),
        /// typed on the reading core except what waits for the writing core: fields that load
        /// asset files. `nil` for rows with children, which are typed as they are written.
        func typedAhead(_ row: PreparedRow, planned: PlannedRecordType) -> [PlannedValue?]? {
            guard row.children.isEmpty else { return nil }
            return row.fields.map { field in
                guard let plannedField = planned.fields[field.key] else { return nil }
                guard !plannedField.type.holdsAssets else { return PlannedValue(planned: plannedField, typed: nil) }
                return PlannedValue(planned: plannedField, typed: Result { try typedValue(field, plannedField) })
            }
        }
        func emit(_ row: PreparedRow, name: String, ahead: [PlannedValue?]? = nil) throws {
            let planned = ahead == nil ? types[row.recordType] : nil
            guard ahead != nil || planned != nil else { return }
            var values: [String: RecordValue] = [:]
            values.reserveCapacity(row.fields.count)
            var size = 0
            var rowErrors: [CloudSeedError] = []
            for (offset, field) in row.fields.enumerated() {
                guard let plannedField = ahead.map({ $0[offset]?.planned }) ?? planned?.fields[field.key] else {
                    continue
                }
                do {
                    var value = try ahead?[offset]?.typed?.get() ?? typedValue(field, plannedField)
                    if plannedField.action != .none { value = value.withReferenceAction(plannedField.action) }
                    size += value.encodedSize
                    values[field.key] = value
                } catch let mismatch as ValueConverter.Mismatch {
                    rowErrors.append(
                        FieldErrors.typeError(
                            mismatch, field: field.key, recordType: row.recordType, planned: plannedField,
                            at: field.position))
                } catch let failure as ReferenceResolution.Failure {
                    rowErrors.append(CloudSeedError(failure.code, failure.message, at: field.position))
                } catch let error as CloudSeedError {
                    rowErrors.append(error)
                }
            }
            if size > RecordLimits.maximumRecordSize {
                rowErrors.append(
                    CloudSeedError(
                        .limitExceeded,
                        "record '\(name)' of type \(row.recordType) is \(size) bytes, over CloudKit's limit of \(RecordLimits.maximumRecordSize) bytes; move large values into an ASSET field",
                        at: row.position))
            }
            if !rowErrors.isEmpty {
                loadedContents.removeAll(keepingCapacity: true)
                if options.skipBadRows { return try reject(row, rowErrors) }
                for error in rowErrors { try errors.record(error) }
            }
            if errors.errors.isEmpty {
                for value in values.values {
                    try value.forEachAsset { asset in
                        if assetsSeen.insert(asset.fileChecksum).inserted {
                            try assets(asset, loadedContents[asset.fileChecksum])
                        }
                    }
                }
                loadedContents.removeAll(keepingCapacity: true)
                var record = CloudRecord(
                    recordType: row.recordType, recordID: RecordID(recordName: name), fields: values)
                record.system.changeTag = row.changeTag ?? ""
                try body(record, row.position)
            }
            for child in row.children {
                var childRow = child.row
                if let index = childRow.fields.firstIndex(where: { $0.key == child.parentField }) {
                    childRow.fields[index].value = .string(name)
                }
                try emit(childRow, name: RecordNaming.recordName(from: "\(name)-\(child.key)-\(child.index)"))
            }
        }
        // Rows are read on one thread, prepared, named and mostly typed on another, and finished and
        // handed on by this one. A CSV row, quick to read, is prepared where it is read, so that the
        // thread that names and types rows, the busiest, has less to do; documents take longer to
        // read than to prepare. A CSV record typed where it is read is named on the next thread: the
        // reading one, which scans, types and surveys every cell, is the busier.
        var rowNumbers = TypeRowCounts()
        let flatTyping =
            flatTypes.isEmpty
            ? nil : FlatRowTyping(plan: plan, options: options, converter: converter, types: flatTypes)
        let preparedWhereRead = Set(sources.indices.filter { [.csv, .tsv].contains(sources[$0].format) })
        let readingPreparation = rowPreparation()
        let preparation = rowPreparation()
        // CSV and flat JSON records of those types are typed where they are read, without a row, where their header allows.
        let readingFlatTyping =
            flatTypes.isEmpty
            ? nil : FlatRowTyping(plan: plan, options: options, converter: converter, types: flatTypes)
        // Surveying too, those records are also surveyed column by column where they are read.
        let namingKeys = plan.naming.rules.compactMapValues { rule -> String? in
            if case .naturalKey(let key) = rule { key } else { nil }
        }
        // The natural key that names the type of the last row surveyed.
        var surveyedType = (name: "", key: String?.none)
        let cellWay = readingFlatTyping.map { typing in
            { (header: CSVHeader, type: String, source: Int) -> CellWay? in
                guard
                    let typed = FlatCellTyping(
                        header: header, recordType: type, plan: plan, options: options, typing: typing,
                        encoder: encoders[type])
                else { return nil }
                guard let surveying, let columns = CellColumns(header: header, recordType: type, options: options)
                else { return .typed(typed) }
                // Without a name column or a template, what the survey learns of a record's naming is the name its plan gives it.
                let namedByKeyAlone = !columns.facts.contains { $0.nameColumnRank != nil } && columns.template == nil
                return .typedAndSurveyed(
                    typed, surveying.columnSurvey(of: columns, source: source), namedByKeyAlone: namedByKeyAlone)
            }
        }
        // Surveying CSV alone, whose rows are prepared where they are read, the second thread would
        // only name and survey them: that is done on this one, between their writes. Documents keep
        // the three stages, as they run slower on two.
        let preparingHere = surveying != nil && preparedWhereRead.count == sources.count
        try readInStages(
            sources, cellWay: options.takesCellByCell ? cellWay : nil, preparingHere: preparingHere,
            rowsReadAhead: rowsReadAhead,
            read: { item -> ReadOrPrepared in
                guard case .row(let read) = item, preparedWhereRead.contains(read.source) else { return .read(item) }
                var row = read.row
                return .prepared(
                    try readingPreparation.prepare(&row, type: read.type, ordinal: read.ordinal), source: read.source,
                    surveyed: read.surveyed)
            },
            prepare: { (item: consuming ReadOrPrepared, handOn) in
                func namingKey(of type: String) -> String? {
                    if type != surveyedType.name { surveyedType = (type, namingKeys[type]) }
                    return surveyedType.key
                }
                let (row, source): (PreparedRow, Int)
                let surveyed: Bool
                switch consume item {
                case .prepared(let prepared, let from, let before): (row, source, surveyed) = (prepared, from, before)
                case .read(.unreadable(let error)): return try handOn(.unreadable(error))
                case .read(.named(let row, let source)):
                    try surveying?.add(row, source: source)
                    return
                case .read(.columns(let columns, let type)):
                    surveying?.merge(columns, type: type)
                    return
                // Each record is named in place and moved on, not copied.
                case .read(.flatNamed(var record, let name, let naming, let source)):
                    name.make(&record, rowNumber: rowNumbers.count(record.recordType), naming: plan.naming)
                    try surveying?.add(naming, source: source)
                    return try handOn(.flat(record))
                case .read(.flatSurveyed(var record, let name, let source)):
                    name.make(&record, rowNumber: rowNumbers.count(record.recordType), naming: plan.naming)
                    surveying?.add(
                        record, key: namingKey(of: record.recordType), name: name == .byText ? record.recordName : nil,
                        source: source)
                    return try handOn(.flat(record))
                case .read(.flat(var record, let name)):
                    name.make(&record, rowNumber: rowNumbers.count(record.recordType), naming: plan.naming)
                    return try handOn(.flat(record))
                case .read(.row(var read)):
                    (row, source, surveyed) = (
                        try preparation.prepare(&read.row, type: read.type, ordinal: read.ordinal), read.source,
                        read.surveyed
                    )
                }
                let number = rowNumbers.count(row.recordType)
                let planned = types[row.recordType]
                let name = planned == nil ? nil : plan.naming.name(of: row, rowNumber: number)
                if !surveyed, let surveying {
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
                guard let planned, let name else { return }
                if let record = flatTyping?.record(of: row, name: name) { return try handOn(.flat(record)) }
                try handOn(.row(row, source: source, name: name, ahead: typedAhead(row, planned: planned)))
            },
            consume: { (item: PreparedItem) in
                switch item {
                case .unreadable(let error):
                    try rejected(
                        RejectedRow(
                            recordType: "", position: error.position ?? SourcePosition(file: ""), errors: [error]))
                case .refused(let row, let errors):
                    try reject(row, errors)
                case .row(let row, let source, let name, let ahead):
                    folder = folders[source]
                    try emit(row, name: name, ahead: ahead)
                case .flat(let record):
                    if errors.errors.isEmpty { try flatRecord(record) }
                }
            })
        try errors.throwIfAny()
    }

    /// What pass one's preparing hands to the survey.
    private enum SurveyItem {
        case row(PreparedRow, source: Int)
        /// The fields of a source of `type` read as cells, whose records came as rows that only name them.
        case columns(CellColumnSurvey, type: String)
    }

    /// A field's plan, and its value typed on the reading core where it could be.
    private struct PlannedValue {
        var planned: PlannedField
        var typed: Result<RecordValue, any Error>?
    }

    /// What pass two's reading hands on: a prepared row, or a row the reader could not read (with `--skip-bad-rows`).
    ///
    /// The cases that carry a whole ``PreparedRow`` are `indirect`, here and in ``ReadItem`` and
    /// ``ReadOrPrepared``: items are moved into batches and out again, and batches cross between the
    /// cores, so an item is as large as its largest case. Boxed, those few rows leave the common
    /// items (a typed record) less than half as large.
    private enum PreparedItem {
        indirect case row(PreparedRow, source: Int, name: String, ahead: [PlannedValue?]?)
        /// A row whose name the plan refused (`--skip-bad-rows`).
        indirect case refused(PreparedRow, [CloudSeedError])
        case unreadable(CloudSeedError)
        /// A row of a type the run creates, typed whole on the reading core.
        case flat(FlatRecord)
    }

    /// The folder each source's asset paths start from, by source number.
    private func assetFolders(_ sources: [SourceFile]) -> [String] {
        sources.map { options.assetsFolder ?? $0.folder }
    }

    /// The record type of a source's rows that do not name their own.
    private func defaultRecordType(of source: SourceFile) -> String {
        source.recordType ?? options.recordType ?? IdentifierMapping.recordType(forFileStem: source.stem)
    }

    /// A row as read, with its record type, its number among its type's rows in its source (from
    /// 1) and the number of its source.
    private struct ReadRow {
        var row: SourceRow
        var type: String
        var ordinal: Int
        var source: Int
        /// Whether its cells were surveyed where they were read (a record read as cells that the typing could not take).
        var surveyed = false
    }

    /// What reading hands on: a row, (with `--skip-bad-rows`) why a row could not be read, or what
    /// a source's ``CellWay`` makes of its records read as cells.
    private enum ReadItem {
        case row(ReadRow)
        case unreadable(CloudSeedError)
        /// Pass two: a record typed where it was read, its name still to make (``FlatCellTyping/NameToMake``).
        case flat(FlatRecord, name: FlatCellTyping.NameToMake)
        /// Pass two surveying too: a record typed where it was read, with the row that names it for the survey.
        indirect case flatNamed(FlatRecord, name: FlatCellTyping.NameToMake, naming: PreparedRow, source: Int)
        /// Pass two surveying too: a record typed where it was read, to be named, whose name
        /// alone the survey takes.
        case flatSurveyed(FlatRecord, name: FlatCellTyping.NameToMake, source: Int)
        /// Pass one: the row that names a record whose cells were surveyed where it was read.
        indirect case named(PreparedRow, source: Int)
        /// Pass one: the survey of the fields of a source of `type` read as cells, once its records are read.
        case columns(CellColumnSurvey, type: String)
    }

    /// What reading makes of the records of a CSV or JSON source whose header allows it.
    private enum CellWay {
        /// Pass two: records typed where they are read.
        case typed(FlatCellTyping)
        /// Pass one: records surveyed column by column where they are read, and handed on as rows
        /// that only name them.
        case surveyed(CellColumnSurvey)
        /// Pass two surveying too: both, each record handed on typed with the row that names it,
        /// or `namedByKeyAlone`, typed only, where the record's name tells the survey all it
        /// needs (``RunSurvey/add(_:key:name:source:)``).
        case typedAndSurveyed(FlatCellTyping, CellColumnSurvey, namedByKeyAlone: Bool)
    }

    /// What pass two's reading hands on: an item as read, or a row prepared where it was read
    /// (`surveyed` where its cells were surveyed as read).
    private enum ReadOrPrepared {
        case read(ReadItem)
        indirect case prepared(PreparedRow, source: Int, surveyed: Bool)
    }

    private func rowPreparation() -> RowPreparation {
        RowPreparation(
            nestedAsJSON: options.nestedAsJSON, locations: options.locations(for:),
            keepsTemplateValues: !options.nameTemplates.isEmpty)
    }

    /// Reads the sources on one thread, where `read` turns each item into what it hands to
    /// `prepare` on a second, which hands what it makes of it to `consume` on this one, in order:
    /// three stages that the two cores share as each is busy. With `preparingHere`, `prepare`
    /// runs on this thread too, before `consume`: two stages, one on each core, where the middle
    /// one would leave them waiting on each other. Each item is handed on, not shared: a row's
    /// fields reach `prepare` as the only reference to them, to be changed in place. Each stage
    /// runs at most about `rowsReadAhead` rows ahead of the next.
    private func readInStages<Read, Output>(
        _ sources: [SourceFile], firstRows: FirstRows? = nil, cellWay: ((CSVHeader, String, Int) -> CellWay?)? = nil,
        preparingHere: Bool = false,
        rowsReadAhead: Int = BackgroundProducer.defaultItemsAhead, read transform: (consuming ReadItem) throws -> Read,
        prepare: (consuming Read, (consuming Output) throws -> Void) throws -> Void,
        consume: (consuming Output) throws -> Void
    ) throws {
        func readAll(_ read: (consuming Read) throws -> Void) throws {
            try withoutActuallyEscaping(read) { read in
                try withoutActuallyEscaping(transform) { transform in
                    try forEachSourceRow(
                        sources, firstRows: firstRows, badRow: { try read(transform(.unreadable($0))) },
                        cellWay: cellWay,
                        taken: { (item: consuming ReadItem) in try read(transform(item)) }
                    ) { (row: consuming ReadRow) in try read(transform(.row(row))) }
                }
            }
        }
        // On two stages, the records the writing thread only reads are freed where they were made,
        // which is faster. On three, the second changes rows in place, and the
        // writing thread, the least busy, frees what it is handed.
        let batchesAhead = rowsReadAhead / BackgroundProducer.defaultBatchSize
        if preparingHere {
            return try withoutActuallyEscaping(consume) { consume in
                try BackgroundProducer.run(
                    batchesAhead: batchesAhead, freeingWhereMade: true, produce: readAll,
                    consume: { (item: consuming Read) in try prepare(consume item, consume) })
            }
        }
        try BackgroundProducer.run(
            batchesAhead: batchesAhead,
            produce: { emit in
                try withoutActuallyEscaping(emit) { emit in
                    try BackgroundProducer.run(
                        batchesAhead: batchesAhead, produce: readAll,
                        consume: { (item: consuming Read) in try prepare(consume item, emit) })
                }
            }, consume: consume)
    }

    /// Reads every source (or the ones numbered in `only`), preparing each row; `body` gets the
    /// row and the number of its source.
    private func forEachPreparedRow(
        _ sources: [SourceFile], only: Set<Int>? = nil, _ body: (PreparedRow, Int) throws -> Void
    ) throws {
        let preparation = rowPreparation()
        try forEachSourceRow(sources, only: only) { read in
            var row = read.row
            try body(try preparation.prepare(&row, type: read.type, ordinal: read.ordinal), read.source)
        }
    }

    /// Reads every source (or the ones numbered in `only`), giving each row its record type; with
    /// `firstRows`, only that many records of each. With `--skip-bad-rows`, a row that cannot be
    /// read goes to `badRow`. A CSV or JSON source whose header (a JSON Lines source's or a JSON
    /// array's: the keys of its first, flat record), record type and number `cellWay` takes has
    /// its records (a JSON source's that repeat its header's keys) handed to `taken` instead: as
    /// rows that name them, surveyed where they are read, then the survey (pass one), as typed
    /// records (pass two), or both, where a record the typing cannot take goes to `body` as a row.
    private func forEachSourceRow(
        _ sources: [SourceFile], only: Set<Int>? = nil, firstRows: FirstRows? = nil,
        badRow: ((CloudSeedError) throws -> Void)? = nil,
        cellWay: ((CSVHeader, _ recordType: String, _ source: Int) -> CellWay?)? = nil,
        taken: (consuming ReadItem) throws -> Void = { _ in },
        _ body: (consuming ReadRow) throws -> Void
    ) throws {
        let skipping: ((CloudSeedError) throws -> Void)? = options.skipBadRows ? (badRow ?? { _ in }) : nil
        /// Thrown to stop reading a source once `firstRows` of its records are read.
        struct Enough: Error {}
        for (sourceIndex, source) in sources.enumerated() where only?.contains(sourceIndex) ?? true {
            var counts: [String: Int] = [:]
            let sourceType = defaultRecordType(of: source)
            var documentTypes: [String: String] = [:]
            let reader = source.reader(csv: options.csv, badRow: skipping, meter: options.progress)
            let state = CellSourceState()
            func count() throws {
                state.records += 1
                if let firstRows, state.records > firstRows.limit {
                    firstRows.leftRowsUnread = true
                    throw Enough()
                }
            }
            /// Hands on a row the reader read whole, with its record type.
            func bodyOfRow(_ row: SourceRow) throws {
                var type = sourceType
                if let given = row.recordType {
                    type = try documentTypes[given] ?? IdentifierMapping.recordTypeName(for: given, at: row.position)
                    documentTypes[given] = type
                }
                counts[type, default: 0] += 1
                try body(ReadRow(row: row, type: type, ordinal: counts[type]!, source: sourceIndex))
            }
            /// Whether the records of `header` are taken as cells, as `cellWay` decides.
            func takesCells(of header: CSVHeader) -> Bool {
                switch cellWay?(header, sourceType, sourceIndex) {
                case .typed(let way)?: state.typing = way
                case .surveyed(let way)?: state.surveying = way
                case .typedAndSurveyed(let typed, let surveyed, let byKey)?:
                    (state.typing, state.surveying, state.namedByKeyAlone) = (typed, surveyed, byKey)
                case nil: break
                }
                return state.typing != nil || state.surveying != nil
            }
            /// Takes a record's cells (starting at `position`, the `ordinal`-th of its type) the
            /// way their header chose; `row` makes the row of those it hands on as a row.
            func take<Cells: FlatCells>(
                _ record: Cells, at position: SourcePosition, ordinal: Int, row: () throws -> SourceRow
            ) throws {
                // The typing is used where it is: a copy would count a reference to each of its parts.
                let typed = state.typing?.record(of: record, at: position, ordinal: ordinal)
                var naming: PreparedRow?
                if state.surveying != nil {
                    // The typing goes first: the survey leaves out the cells it found again.
                    state.surveying!.add(
                        record, except: state.typing?.columnsFoundAgain ?? [],
                        kinds: state.typing?.kindsTold ?? TextKindsTold())
                    if !state.namedByKeyAlone {
                        naming = state.surveying!.columns.namingRow(
                            of: record, recordType: sourceType, at: position, ordinal: ordinal)
                    }
                }
                if let flat = typed, let name = state.typing?.lastNameToMake {
                    // Named on the other thread, which surveys and writes the records: reading is the busier.
                    if state.namedByKeyAlone {
                        return try taken(.flatSurveyed(flat, name: name, source: sourceIndex))
                    }
                    if let naming {
                        return try taken(.flatNamed(flat, name: name, naming: naming, source: sourceIndex))
                    }
                    return try taken(.flat(flat, name: name))
                }
                if state.surveying != nil {
                    try taken(
                        .named(
                            naming
                                ?? state.surveying!.columns.namingRow(
                                    of: record, recordType: sourceType, at: position, ordinal: ordinal),
                            source: sourceIndex))
                    if state.typing == nil { return }
                }
                try body(
                    ReadRow(
                        row: try row(), type: sourceType, ordinal: ordinal, source: sourceIndex,
                        surveyed: state.surveying != nil))
            }
            if cellWay != nil, let csv = reader as? CSVReader {
                do {
                    try csv.forEachRecord { header, record, position in
                        try count()
                        if !state.decided {
                            state.decided = true
                            _ = takesCells(of: header)
                        }
                        state.ordinal += 1
                        try take(record, at: position, ordinal: state.ordinal) {
                            try header.row(of: record, at: position)
                        }
                    }
                } catch is Enough {}
                if let surveying = state.surveying { try taken(.columns(surveying, type: sourceType)) }
                continue
            }
            if cellWay != nil, let json = reader as? JSONReader {
                do {
                    try json.forEachRecord(header: takesCells(of:)) { header, record, position in
                        try count()
                        counts[sourceType, default: 0] += 1
                        try take(record, at: position, ordinal: counts[sourceType]!) {
                            record.row(of: header, at: position)
                        }
                    } row: { row in
                        try count()
                        try bodyOfRow(row)
                    }
                } catch is Enough {}
                if let surveying = state.surveying { try taken(.columns(surveying, type: sourceType)) }
                continue
            }
            do {
                try reader.forEachRow { row in
                    try count()
                    try bodyOfRow(row)
                }
            } catch is Enough {}
        }
    }

}

/// What reading one source keeps from record to record: how many records it read, and the way its
/// records are taken as cells, chosen at its header. Used by the reading thread alone, so its
/// properties are not checked for overlapping access at run time: captured as variables, they were
/// checked at every access, eight times a record.
private final class CellSourceState {
    @exclusivity(unchecked) var records = 0
    @exclusivity(unchecked) var typing: FlatCellTyping?
    @exclusivity(unchecked) var surveying: CellColumnSurvey?
    @exclusivity(unchecked) var namedByKeyAlone = false
    /// Whether the CSV header was looked at, and how many records of the source were taken as cells.
    @exclusivity(unchecked) var decided = false
    @exclusivity(unchecked) var ordinal = 0
}

extension RecordValue {
    /// The same value with `action` on its references.
    func withReferenceAction(_ action: ReferenceAction) -> RecordValue {
        switch self {
        case .reference(var reference):
            reference.action = action
            return .reference(reference)
        case .list(let type, let items): return .list(type, items.map { $0.withReferenceAction(action) })
        default: return self
        }
    }
}

/// Errors about a field's values, in CloudKit's words where CloudKit has them.
enum FieldErrors {
    static func typeError(
        _ mismatch: ValueConverter.Mismatch, field: String, recordType: String, planned: PlannedField,
        at position: SourcePosition
    ) -> CloudSeedError {
        var message =
            "invalid attempt to set value type \(mismatch.valueType) for field '\(field)' for type '\(recordType)', defined to be: \(planned.type.wireName)"
        if let detail = mismatch.detail { message += " (\(detail))" }
        switch planned.rule {
        case .schema: message += "; the store's schema defines '\(field)' as \(planned.type.schemaName): fix the value"
        case .override: message += "; fix the value or change --field \(field):\(planned.type.schemaName)"
        case .declared: message += "; fix the value or its declared type"
        case .cloudKitValue: message += "; fix the value or give its \"type\""
        case .inferred: message += "; fix the value"
        }
        return CloudSeedError(.invalidValue, message, at: position)
    }
}

/// CloudKit's limits on records.
package enum RecordLimits {
    /// A record's fields, assets excluded, encode to at most 1 MB.
    package static let maximumRecordSize = 1_048_576
}
