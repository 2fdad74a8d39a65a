package import CloudSeedCore

/// Reads CSV and TSV (RFC 4180), streaming: a header row (or `--columns`, or `column1`… where the
/// first row is data), quoted fields holding delimiters, doubled quotes and line breaks, CRLF or
/// LF, UTF-8 with or without a byte-order mark.
///
/// Every cell is untyped text (``PlainValue/text(_:)``); an empty cell leaves its field unset.
package struct CSVReader: SourceReader {
    package var input: () throws -> ChunkedInput
    package var file: String
    package var options: CSVOptions
    /// Where a row wider than the header goes; `nil` makes it end the read.
    package var badRow: ((CloudSeedError) throws -> Void)? = nil

    package func forEachRow(_ body: (SourceRow) throws -> Void) throws {
        try forEachRecord { header, record, position in
            try body(header.row(of: record, at: position))
        }
    }

    /// Calls `body` with the header and each record, where the record starts: what
    /// ``forEachRow(_:)`` makes rows of, for a caller that takes cells without a row (the mapper's
    /// passes, through ``HeaderColumns``). Blank lines are skipped; a row wider than the header ends
    /// the read, or goes to ``badRow``. The record is lent: `body` takes what it keeps of it.
    package func forEachRecord(_ body: (CSVHeader, CSVRecord, SourcePosition) throws -> Void) throws {
        var scanner = try CSVScanner(input: input(), file: file)
        let separator = options.delimiter ?? scanner.sniffDelimiter()
        // One array of cells, and one of unescaped bytes, serves every record.
        var cells: [CSVRecord.Cell] = []
        var unescaped: [UInt8] = []
        var headerCells: [CSVCell] = []
        // Where the first row starts, where it is a record rather than the header.
        var firstRecord: SourcePosition?
        if let columns = options.columns {
            headerCells = columns.enumerated().map {
                CSVCell(text: $0.element, position: SourcePosition(file: "columns", line: 1, column: $0.offset + 1))
            }
        } else {
            guard let position = try scanner.nextRecord(delimiter: separator, into: &cells, unescaped: &unescaped)
            else {
                throw CloudSeedError(
                    .malformedSource, "the file is empty; expected a header row",
                    at: SourcePosition(file: file, line: 1, column: 1))
            }
            headerCells = scanner.lend(cells, unescaped) { $0.textCells }
            if !(options.hasHeader ?? !HeaderGuess.isData(headerCells.map(\.text))) {
                headerCells = headerCells.indices.map {
                    CSVCell(text: "column\($0 + 1)", position: SourcePosition(file: file, line: 1, column: $0 + 1))
                }
                firstRecord = position
            }
        }
        try Self.checkHeader(headerCells)
        let header = CSVHeader(columns: headerCells.map(Self.column))
        if let firstRecord {
            try scanner.lend(cells, unescaped) { try body(header, $0, firstRecord) }
            scanner.releaseConsumed()
        }
        while let position = try scanner.nextRecord(delimiter: separator, into: &cells, unescaped: &unescaped) {
            if cells.count == 1, cells[0].range.isEmpty { continue }
            if cells.count > header.columns.count {
                let error = CloudSeedError(
                    .malformedSource,
                    "this row has \(cells.count) fields but the header has \(header.columns.count); quote fields that contain the delimiter",
                    at: scanner.position(of: cells[header.columns.count]))
                guard let badRow else { throw error }
                try badRow(error)
                scanner.releaseConsumed()
                continue
            }
            try scanner.lend(cells, unescaped) { try body(header, $0, position) }
            scanner.releaseConsumed()
        }
    }

    /// A header cell's field name and, for `price:DOUBLE` (as `export` writes), its declared type.
    private static func column(_ cell: CSVCell) -> CSVHeader.Column {
        guard let colon = cell.text.lastIndex(of: ":"),
            let type = FieldType(name: String(cell.text[cell.text.index(after: colon)...]))
        else { return CSVHeader.Column(name: cell.text, type: nil) }
        return CSVHeader.Column(name: String(cell.text[..<colon]), type: type)
    }

    private static func checkHeader(_ header: [CSVCell]) throws {
        var seen: [String: SourcePosition] = [:]
        for cell in header {
            if cell.text.isEmpty {
                throw CloudSeedError(
                    .malformedSource, "empty column name in the header row; name every column", at: cell.position)
            }
            if let first = seen[cell.text] {
                throw CloudSeedError(
                    .malformedSource,
                    "duplicate column name '\(cell.text)' (first at column \(first.column ?? 0)); rename one of them",
                    at: cell.position)
            }
            seen[cell.text] = cell.position
        }
    }
}

/// The columns of a CSV source, from its header row (or `--columns`), and how a record's cells
/// become a row.
package struct CSVHeader {
    package struct Column {
        package var name: String
        /// The type a header such as `price:DOUBLE` declares.
        package var type: FieldType?
    }

    package var columns: [Column]

    /// The row of a record's cells (fewer cells than columns leave the last fields unset).
    package func row(of record: CSVRecord, at position: SourcePosition) throws -> SourceRow {
        var fields: [SourceField] = []
        fields.reserveCapacity(record.count)
        for (offset, column) in zip(0..<record.count, columns) where record.isSet(offset) {
            let cell = CSVCell(
                text: record.text(offset), position: record.position(offset), wasQuoted: record.cells[offset].wasQuoted)
            fields.append(
                SourceField(
                    key: column.name, value: try Self.value(of: cell, as: column.type), position: cell.position,
                    declaredType: column.type))
        }
        return SourceRow(fields: fields, position: position)
    }

    /// A cell's value: text to be typed; `""` quoted is the empty string (an empty cell is unset);
    /// under a declared LOCATION, ASSETID, list or JSON-form REFERENCE, the cell's CloudKit JSON.
    package static func value(of cell: CSVCell, as type: FieldType?) throws -> PlainValue {
        if cell.text.isEmpty { return .string("") }
        let isJSON: Bool =
            switch type {
            case .location?, .asset?, .list?: true
            case .reference?: cell.text.hasPrefix("{")
            default: false
            }
        guard isJSON else { return .text(cell.text) }
        var parser = JSONParser(input: ChunkedInput(bytes: Array(cell.text.utf8)), file: cell.position.file)
        do {
            return try parser.parsePlainDocument()
        } catch let error as CloudSeedError {
            throw CloudSeedError(
                error.code, "the \(type!.wireName) cell is not CloudKit JSON (\(error.message))", at: cell.position)
        }
    }
}

/// How a CSV source is laid out, where the user says so.
package struct CSVOptions: Sendable {
    /// The delimiter; `nil` sniffs it from the first line among `,` `;` tab and `|`.
    package var delimiter: UInt8?
    /// Column names for a file without a header row (`--columns a,b,c`).
    package var columns: [String]?
    /// Whether the first row is a header (`--header`, `--no-header`); `nil` tells from the row
    /// itself (``HeaderGuess``). Without a header or ``columns``, columns are `column1`, `column2`, ….
    package var hasHeader: Bool?

    package init(delimiter: UInt8? = nil, columns: [String]? = nil, hasHeader: Bool? = nil) {
        self.delimiter = delimiter
        self.columns = columns
        self.hasHeader = hasHeader
    }
}

/// A cell of a CSV record with where it starts.
package struct CSVCell {
    package var text: String
    package var position: SourcePosition
    package var wasQuoted = false
}

/// Splits CSV input into records of cells, tracking line and column, reading a chunk at a time.
package struct CSVScanner {
    package static let candidateDelimiters: [UInt8] = [0x2C, 0x3B, 0x09, 0x7C]

    private var input: ChunkedInput
    package let file: String
    /// Where the file starts: positions are made from it.
    private let origin: SourcePosition
    private var index = 0
    private var line = 1
    private var lineStart = 0

    package init(input: ChunkedInput, file: String) {
        self.input = input
        self.file = file
        origin = SourcePosition(file: file)
        if byte(at: 0) == 0xEF, byte(at: 1) == 0xBB, byte(at: 2) == 0xBF {
            index = 3
            lineStart = 3
        }
    }

    @inline(__always)
    private mutating func byte(at offset: Int) -> UInt8? { input.byte(at: offset) }

    private var position: SourcePosition {
        origin.at(line: line, column: index - lineStart + 1)
    }

    package mutating func releaseConsumed() {
        let dropped = input.compact(before: index)
        index -= dropped
        lineStart -= dropped
    }

    /// The candidate delimiter that occurs most often, outside quotes, on the first line.
    package mutating func sniffDelimiter() -> UInt8 {
        var counts = [UInt8: Int]()
        var inQuotes = false
        var offset = index
        while let byte = byte(at: offset) {
            if byte == 0x22 { inQuotes.toggle() }
            if !inQuotes {
                if byte == 0x0A || byte == 0x0D { break }
                if Self.candidateDelimiters.contains(byte) { counts[byte, default: 0] += 1 }
            }
            offset += 1
        }
        let best = Self.candidateDelimiters.max { counts[$0, default: 0] < counts[$1, default: 0] }!
        return counts[best, default: 0] > 0 ? best : 0x2C
    }

    /// Lends `body` the record whose `cells` the scanner just read (their bytes checked UTF-8),
    /// with the bytes their ranges point into.
    package func lend<Result>(_ cells: [CSVRecord.Cell], _ unescaped: [UInt8], _ body: (CSVRecord) throws -> Result)
        rethrows
        -> Result
    {
        try body(CSVRecord(cells: cells, input: input.buffer, unescaped: unescaped, origin: origin))
    }

    /// Where a cell the scanner read starts.
    package func position(of cell: CSVRecord.Cell) -> SourcePosition { CSVRecord.position(of: cell, in: origin) }

    /// Reads the next record's cells into `cells`, the bytes of quoted cells whose doubled quotes
    /// it undoes into `unescaped`; returns where the record starts, or `nil` at the end of the
    /// input. Every cell is checked to be UTF-8.
    package mutating func nextRecord(delimiter: UInt8, into cells: inout [CSVRecord.Cell], unescaped: inout [UInt8])
        throws
        -> SourcePosition?
    {
        guard byte(at: index) != nil else { return nil }
        let recordPosition = position
        let origin = origin  // what a cell's position is made of, if an error needs it: not the whole scanner
        cells.removeAll(keepingCapacity: true)
        unescaped.removeAll(keepingCapacity: true)
        while true {
            let cellLine = line
            let cellColumn = index - lineStart + 1
            var cellPosition: SourcePosition { origin.at(line: cellLine, column: cellColumn) }
            let quoted = byte(at: index) == 0x22
            if quoted {
                cells.append(try quotedCell(line: cellLine, column: cellColumn, unescaped: &unescaped))
            } else {
                let start = index
                var isASCII = true
                // A quote inside an unquoted field is taken literally (`5'10"`), as Python's csv,
                // sqlite3's .import and spreadsheets take it.
                while true {
                    index = plainRunEnd(from: index, stoppingAt: (delimiter, 0x0A, 0x0D, 0x0A), isASCII: &isASCII)
                    guard let byte = byte(at: index), byte != delimiter, byte != 0x0A, byte != 0x0D else { break }
                    if byte >= 0x80 { isASCII = false }
                    index += 1
                }
                if !isASCII { try checkUTF8(start..<index, at: cellPosition) }
                cells.append(
                    CSVRecord.Cell(
                        range: start..<index, isUnescaped: false, line: cellLine, column: cellColumn, wasQuoted: false))
            }
            guard let next = byte(at: index) else { return recordPosition }
            if next == delimiter {
                index += 1
                continue
            }
            if next != 0x0A, next != 0x0D {
                throw CloudSeedError(
                    .malformedSource,
                    "unexpected text after a closing quote; expected the delimiter or the end of the line", at: position
                )
            }
            if next == 0x0D { index += 1 }
            if byte(at: index) == 0x0A { index += 1 }
            line += 1
            lineStart = index
            return recordPosition
        }
    }

    /// The quoted cell that starts at `line` and `column`.
    private mutating func quotedCell(line cellLine: Int, column cellColumn: Int, unescaped: inout [UInt8]) throws
        -> CSVRecord.Cell
    {
        let origin = origin
        var start: SourcePosition { origin.at(line: cellLine, column: cellColumn) }
        index += 1
        // Most quoted cells hold no doubled quote: their text is the bytes up to the closing quote.
        var end = index
        var lines = 0
        var lastLineStart = lineStart
        var isASCII = true
        while true {
            end = plainRunEnd(from: end, stoppingAt: (0x22, 0x0A, 0x22, 0x22), isASCII: &isASCII)
            guard let byte = byte(at: end), byte != 0x22 else { break }
            end += 1
            if byte >= 0x80 { isASCII = false }
            if byte == 0x0A {
                lines += 1
                lastLineStart = end
            }
        }
        if byte(at: end) == 0x22, byte(at: end + 1) != 0x22 {
            if !isASCII { try checkUTF8(index..<end, at: start) }
            let cell = CSVRecord.Cell(
                range: index..<end, isUnescaped: false, line: cellLine, column: cellColumn, wasQuoted: true)
            index = end + 1
            line += lines
            lineStart = lastLineStart
            return cell
        }
        // A cell with doubled quotes: its runs between them are copied out, each found as the
        // closing quote was, not looked at a byte at a time.
        let cellStart = unescaped.count
        var runStart = index
        isASCII = true
        while true {
            index = plainRunEnd(from: index, stoppingAt: (0x22, 0x0A, 0x22, 0x22), isASCII: &isASCII)
            guard let byte = byte(at: index) else {
                throw CloudSeedError(.malformedSource, "unterminated quoted field; add the closing quote", at: start)
            }
            if byte == 0x22 {
                appendUnescaped(runStart..<index, to: &unescaped)
                if self.byte(at: index + 1) == 0x22 {
                    unescaped.append(0x22)
                    index += 2
                    runStart = index
                    continue
                }
                index += 1
                if !isASCII { try Self.checkUTF8(unescaped[cellStart...], at: start) }
                return CSVRecord.Cell(
                    range: cellStart..<unescaped.count, isUnescaped: true, line: cellLine, column: cellColumn,
                    wasQuoted: true)
            }
            index += 1
            if byte >= 0x80 { isASCII = false }
            if byte == 0x0A {
                line += 1
                lineStart = index
            }
        }
    }

    /// Appends the input's bytes in `range` to `unescaped`, from where they lie: a slice of the
    /// input would count a reference to its buffer.
    private func appendUnescaped(_ range: Range<Int>, to unescaped: inout [UInt8]) {
        input.buffer.withUnsafeBufferPointer { unescaped.append(contentsOf: UnsafeBufferPointer(rebasing: $0[range])) }
    }

    /// Where the run of bytes from `offset` that are none of `stops` ends, as far as the buffer
    /// holds a whole word (``PlainByteRun``); `isASCII` turns `false` at a byte past 0x7F in it.
    @inline(__always)
    private func plainRunEnd(from offset: Int, stoppingAt stops: (UInt8, UInt8, UInt8, UInt8), isASCII: inout Bool)
        -> Int
    {
        input.buffer.withUnsafeBufferPointer {
            PlainByteRun.end(in: $0, from: offset, stoppingAt: stops, isASCII: &isASCII)
        }
    }

    /// Checks that a cell's bytes are UTF-8; a cell whose bytes are all ASCII needs no check.
    private func checkUTF8(_ range: Range<Int>, at position: @autoclosure () -> SourcePosition) throws {
        try Self.checkUTF8(input.buffer[range], at: position(), offset: input.base + range.lowerBound)
    }

    /// Checks the bytes are UTF-8; the position is made only for the error.
    private static func checkUTF8(
        _ bytes: ArraySlice<UInt8>, at position: @autoclosure () -> SourcePosition, offset: Int? = nil
    ) throws {
        guard let bad = bytes.withUnsafeBufferPointer(UTF8Validation.firstInvalidOffset) else { return }
        let at = offset.map { " at byte offset \($0 + bad)" } ?? ""
        throw CloudSeedError(
            .invalidValue, "the field is not valid UTF-8\(at); re-save the file as UTF-8", at: position())
    }
}
