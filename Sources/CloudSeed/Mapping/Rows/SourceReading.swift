import Foundation

/// The read stage of a run: reads its sources a record at a time, each row with its record type
/// and its number among its type's rows, or (for a CSV or flat JSON source whose header allows it)
/// each record's cells as its reader lends them, taken the way ``CellWay`` chooses. It also runs the
/// stage after it beside the reading, on the other core (``inStages(_:firstRows:cellWay:rowsReadAhead:read:consume:)``).
struct SourceReading {
    let options: MappingOptions

    /// How many records of each source a survey takes, and whether a source had more.
    final class FirstRows: @unchecked Sendable {
        let limit: Int
        /// Set (on the reading thread, read once the survey is done) where a source had more than `limit` records.
        var leftRowsUnread = false

        init(_ limit: Int) { self.limit = limit }
    }

    /// The folder each source's asset paths start from, by source number.
    func assetFolders(_ sources: [SourceFile]) -> [String] {
        sources.map { options.assetsFolder ?? $0.folder }
    }

    /// The record type of a source's rows that do not name their own.
    func recordType(of source: SourceFile) -> String {
        let type = source.recordType ?? options.recordType ?? IdentifierMapping.recordType(forFileStem: source.stem)
        return options.modelMapping?.recordType(named: type) ?? type
    }

    /// A row as read, with its record type, its number among its type's rows in its source (from
    /// 1) and the number of its source.
    struct ReadRow {
        var row: SourceRow
        var type: String
        var ordinal: Int
        var source: Int
    }

    /// What reading hands on: a row, (with `--skip-bad-rows`) why a row could not be read, or what
    /// a source's ``CellWay`` makes of its records read as cells.
    enum ReadItem {
        case row(ReadRow)
        case unreadable(CloudSeedError)
        /// Pass two: a record typed where it was read, its name still to make (``ColumnTyping/NameToMake``).
        case built(TypedRecord, name: ColumnTyping.NameToMake)
        /// Pass two surveying too: a record typed where it was read, to be named, whose name
        /// alone the survey takes, with the name column whose text it has (``ColumnTyping/lastNameColumn``).
        case builtSurveyed(TypedRecord, name: ColumnTyping.NameToMake, nameColumn: String?, source: Int)
        /// Pass two: a record read as cells and refused, to be named before it is told why.
        case refused(ColumnTyping.Refusal)
        /// The row that names a record whose cells were surveyed where it was read: every record
        /// in pass one, a refused one in pass two surveying too.
        indirect case named(PreparedRow, source: Int)
        /// Pass one: the survey of the fields of a source of `type` read as cells, once its records are read.
        case columns(ColumnSurvey, type: String)
    }

    /// What reading makes of the records of a CSV or JSON source whose header allows it.
    enum CellWay {
        /// Pass two: records typed where they are read.
        case typed(ColumnTyping)
        /// Pass one: records surveyed column by column where they are read, and handed on as rows
        /// that only name them.
        case surveyed(ColumnSurvey)
        /// Pass two surveying too: both, each record handed on typed and named by the plan, which
        /// tells the survey all it needs of its naming (``RunSurvey/add(_:key:nameColumn:name:source:)``).
        case typedAndSurveyed(ColumnTyping, ColumnSurvey)
    }

    func rowPreparation() -> RowPreparation {
        var preparation = RowPreparation(
            nestedAsJSON: options.nestedAsJSON, locations: options.locations(for:),
            keepsTemplateValues: !options.nameTemplates.isEmpty,
            columnRoles: ColumnRolesCache(findsLocations: options.modelMapping == nil))
        if let mapping = options.modelMapping { preparation.childLink = { mapping.childLink(parentType: $0, key: $1) } }
        return preparation
    }

    /// Reads the sources on a second thread, where `read` turns each item into what it hands to
    /// `consume` on this one, in order: the two cores share the run, one reading (and preparing
    /// what it reads), the other taking what is read. `consume` gets each item to read, not to
    /// change: its batch goes back to the reading thread, which frees it, so that memory is freed on
    /// the thread that allocated it (``BackgroundProducer``). The reading runs at most about
    /// `rowsReadAhead` rows ahead of `consume`.
    func inStages<Read>(
        _ sources: [SourceFile], firstRows: FirstRows? = nil, cellWay: ((CSVHeader, String, Int) -> CellWay?)? = nil,
        rowsReadAhead: Int = BackgroundProducer.defaultItemsAhead, read transform: (consuming ReadItem) throws -> Read,
        consume: (consuming Read) throws -> Void
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
        try BackgroundProducer.run(
            batchesAhead: rowsReadAhead / BackgroundProducer.defaultBatchSize, produce: readAll, consume: consume)
    }

    /// Reads every source (or the ones numbered in `only`), preparing each row; `body` gets the
    /// row and the number of its source.
    func forEachPreparedRow(
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
    /// rows that name them, surveyed where they are read, then the survey (pass one), as typed or
    /// refused records (pass two), or both.
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
            let sourceType = recordType(of: source)
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
                case .typedAndSurveyed(let typed, let surveyed)?: (state.typing, state.surveying) = (typed, surveyed)
                case nil: break
                }
                return state.typing != nil || state.surveying != nil
            }
            /// Takes a record's cells (starting at `position`, the `ordinal`-th of its type) the
            /// way their header chose.
            func take<Cells: SurveyedCells>(_ record: Cells, at position: SourcePosition, ordinal: Int) throws {
                // The typing is used where it is: a copy would count a reference to each of its parts.
                let typed = state.typing?.record(of: record, at: position, ordinal: ordinal)
                if state.surveying != nil {
                    // The typing goes first: the survey leaves out the cells it found again.
                    state.surveying!.add(
                        record, except: state.typing?.columnsFoundAgain ?? [],
                        kinds: state.typing?.kindsTold ?? TypedCellKinds())
                }
                if let flat = typed, let typing = state.typing {
                    // Named on the other thread, which surveys and writes the records: reading is the busier.
                    if state.surveying != nil {
                        return try taken(
                            .builtSurveyed(
                                flat, name: typing.lastNameToMake, nameColumn: typing.lastNameColumn,
                                source: sourceIndex))
                    }
                    return try taken(.built(flat, name: typing.lastNameToMake))
                }
                if state.surveying != nil {
                    try taken(
                        .named(
                            state.surveying!.columns.namingRow(
                                of: record, recordType: sourceType, at: position, ordinal: ordinal),
                            source: sourceIndex))
                }
                if let refusal = state.typing?.lastRefusal { try taken(.refused(refusal)) }
            }
            if cellWay != nil, let csv = reader as? CSVReader {
                do {
                    try csv.forEachRecord { header, record, position in
                        try count()
                        if !state.decided {
                            state.decided = true
                            state.takesCells = takesCells(of: header)
                        }
                        state.ordinal += 1
                        guard state.takesCells else {
                            return try body(
                                ReadRow(
                                    row: try header.row(of: record, at: position), type: sourceType,
                                    ordinal: state.ordinal, source: sourceIndex))
                        }
                        try take(record, at: position, ordinal: state.ordinal)
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
                        try take(record, at: position, ordinal: counts[sourceType]!)
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
    @exclusivity(unchecked) var typing: ColumnTyping?
    @exclusivity(unchecked) var surveying: ColumnSurvey?
    /// Whether the CSV header was looked at, whether its records are taken as cells, and how many
    /// records of the source were read.
    @exclusivity(unchecked) var decided = false
    @exclusivity(unchecked) var takesCells = false
    @exclusivity(unchecked) var ordinal = 0
}
