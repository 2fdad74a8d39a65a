package import CloudSeedCore

/// A CSV record's cells as the scanner read them: each cell's bytes (checked to be UTF-8), where it
/// starts and whether it was quoted. A cell's text is made only when it is asked for, so that a
/// pass that needs few texts makes few strings: pass one types a number or a date by its bytes.
///
/// A record is lent to the caller of ``CSVReader/forEachRecord(_:)`` for the time of the call.
@usableFromInline package struct CSVRecord {
    /// A cell: its bytes are `input[range]`, or `unescaped[range]` for a quoted cell whose doubled
    /// quotes were undone, and the line and column it starts at. Plain values, which a record's
    /// cells are copied and cleared as without counting references: each held a position, whose
    /// key path was retained and released for every cell.
    @usableFromInline package struct Cell {
        @usableFromInline package var range: Range<Int>
        @usableFromInline package var isUnescaped: Bool
        package var line: Int?
        package var column: Int?
        @usableFromInline package var wasQuoted: Bool
    }

    @usableFromInline package let cells: [Cell]
    /// The bytes the cells' ranges point into: the scanner's input.
    @usableFromInline package let input: [UInt8]
    @usableFromInline package let unescaped: [UInt8]
    /// The file the cells are in: their positions are made from it.
    package let origin: SourcePosition

    /// A record of these texts, each as an unquoted cell at `position` (for tests and `--columns`).
    package init(texts: [String], position: SourcePosition) {
        var input: [UInt8] = []
        cells = texts.map { text in
            let start = input.count
            input += text.utf8
            return Cell(
                range: start..<input.count, isUnescaped: false, line: position.line, column: position.column,
                wasQuoted: false)
        }
        self.input = input
        unescaped = []
        origin = position
    }

    package init(cells: [Cell], input: [UInt8], unescaped: [UInt8], origin: SourcePosition) {
        self.cells = cells
        self.input = input
        self.unescaped = unescaped
        self.origin = origin
    }

    @inlinable package var count: Int { cells.count }

    /// Whether the record has the column and the cell sets it: an empty cell leaves its field
    /// unset, `""` quoted is the empty string.
    @inlinable package func isSet(_ column: Int) -> Bool {
        column < cells.count && (!cells[column].range.isEmpty || cells[column].wasQuoted)
    }

    /// Whether the cell holds no bytes.
    @inlinable package func isEmpty(_ column: Int) -> Bool { cells[column].range.isEmpty }

    package func position(_ column: Int) -> SourcePosition { Self.position(of: cells[column], in: origin) }

    /// Where `cell` starts, in the file of `origin`.
    package static func position(of cell: Cell, in origin: SourcePosition) -> SourcePosition {
        var position = origin
        position.line = cell.line
        position.column = cell.column
        return position
    }

    /// The cell's text.
    package func text(_ column: Int) -> String {
        withBytes(column) { String(decoding: $0, as: UTF8.self) }
    }

    /// The column's text where it names (``PlainValue/namingText``): set and not empty.
    package func namingText(_ column: Int) -> String? {
        column < cells.count && !cells[column].range.isEmpty ? text(column) : nil
    }

    /// Lends `body` the cell's bytes.
    @inlinable package func withBytes<Result>(_ column: Int, _ body: (UnsafeBufferPointer<UInt8>) throws -> Result)
        rethrows
        -> Result
    {
        let range = cells[column].range
        // Each array lent where it is, not chosen into a copy: a copy counts a reference to the
        // bytes for every cell.
        if cells[column].isUnescaped {
            return try unescaped.withUnsafeBufferPointer { try body(UnsafeBufferPointer(rebasing: $0[range])) }
        }
        return try input.withUnsafeBufferPointer { try body(UnsafeBufferPointer(rebasing: $0[range])) }
    }

    /// The cells as texts, each with where it starts and whether it was quoted.
    package var textCells: [CSVCell] {
        cells.indices.map { CSVCell(text: text($0), position: position($0), wasQuoted: cells[$0].wasQuoted) }
    }
}
