/// Reads CSV and TSV (RFC 4180): a header row, quoted fields holding delimiters, doubled quotes and
/// line breaks, CRLF or LF, UTF-8 with or without a byte-order mark.
///
/// Every cell is untyped text (``PlainValue/text(_:)``); an empty cell leaves its field unset.
struct CSVReader: SourceReader {
    var bytes: [UInt8]
    var file: String
    /// The delimiter; `nil` sniffs it from the header line among `,` `;` tab and `|`.
    var delimiter: UInt8?

    static let candidateDelimiters: [UInt8] = [0x2C, 0x3B, 0x09, 0x7C]

    func forEachRow(_ body: (SourceRow) throws -> Void) throws {
        var scanner = CSVScanner(bytes: bytes, file: file)
        let separator = delimiter ?? sniffDelimiter(from: scanner.index)
        guard let header = try scanner.nextRecord(delimiter: separator) else {
            throw CloudSeedError("the file is empty; expected a header row", at: SourcePosition(file: file, line: 1, column: 1))
        }
        var seen: [String: SourcePosition] = [:]
        for cell in header.cells {
            if cell.text.isEmpty {
                throw CloudSeedError("empty column name in the header row; name every column", at: cell.position)
            }
            if let first = seen[cell.text] {
                throw CloudSeedError(
                    "duplicate column name '\(cell.text)' (first at column \(first.column ?? 0)); rename one of them",
                    at: cell.position)
            }
            seen[cell.text] = cell.position
        }
        while let record = try scanner.nextRecord(delimiter: separator) {
            if record.cells.count == 1, record.cells[0].text.isEmpty { continue }
            if record.cells.count > header.cells.count {
                throw CloudSeedError(
                    "this row has \(record.cells.count) fields but the header has \(header.cells.count); quote fields that contain the delimiter",
                    at: record.cells[header.cells.count].position)
            }
            var fields: [SourceField] = []
            fields.reserveCapacity(record.cells.count)
            for (cell, name) in zip(record.cells, header.cells) where !cell.text.isEmpty {
                fields.append(SourceField(key: name.text, value: .text(cell.text), position: cell.position))
            }
            try body(SourceRow(fields: fields, position: record.position))
        }
    }

    /// The candidate delimiter that occurs most often, outside quotes, on the first line.
    private func sniffDelimiter(from start: Int) -> UInt8 {
        var counts = [UInt8: Int]()
        var inQuotes = false
        var index = start
        while index < bytes.count {
            let byte = bytes[index]
            if byte == 0x22 { inQuotes.toggle() }
            if !inQuotes {
                if byte == 0x0A || byte == 0x0D { break }
                if CSVReader.candidateDelimiters.contains(byte) { counts[byte, default: 0] += 1 }
            }
            index += 1
        }
        return CSVReader.candidateDelimiters.max { counts[$0, default: 0] < counts[$1, default: 0] }
            .flatMap { counts[$0, default: 0] > 0 ? $0 : nil } ?? 0x2C
    }
}

/// A cell of a CSV record with where it starts.
struct CSVCell {
    var text: String
    var position: SourcePosition
}

/// Splits CSV bytes into records of cells, tracking line and column.
struct CSVScanner {
    let bytes: [UInt8]
    let file: String
    private(set) var index = 0
    private var line = 1
    private var lineStart = 0

    init(bytes: [UInt8], file: String) {
        self.bytes = bytes
        self.file = file
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) {
            index = 3
            lineStart = 3
        }
    }

    private var position: SourcePosition {
        SourcePosition(file: file, line: line, column: index - lineStart + 1)
    }

    /// The next record, or `nil` at the end of the input.
    mutating func nextRecord(delimiter: UInt8) throws -> (cells: [CSVCell], position: SourcePosition)? {
        guard index < bytes.count else { return nil }
        let recordPosition = position
        var cells: [CSVCell] = []
        while true {
            let cellPosition = position
            let text: String
            if index < bytes.count, bytes[index] == 0x22 {
                text = try quotedCell(startingAt: cellPosition)
            } else {
                let start = index
                while index < bytes.count, bytes[index] != delimiter, bytes[index] != 0x0A, bytes[index] != 0x0D {
                    if bytes[index] == 0x22 {
                        throw CloudSeedError(
                            "a quote inside an unquoted field; put the whole field in quotes and double the quote (\"\")",
                            at: position)
                    }
                    index += 1
                }
                text = try decode(bytes[start..<index], at: cellPosition)
            }
            cells.append(CSVCell(text: text, position: cellPosition))
            if index < bytes.count, bytes[index] == delimiter {
                index += 1
                continue
            }
            if index < bytes.count {
                if bytes[index] != 0x0A, bytes[index] != 0x0D {
                    throw CloudSeedError(
                        "unexpected text after a closing quote; expected the delimiter or the end of the line",
                        at: position)
                }
                if bytes[index] == 0x0D { index += 1 }
                if index < bytes.count, bytes[index] == 0x0A { index += 1 }
                line += 1
                lineStart = index
            }
            return (cells, recordPosition)
        }
    }

    private mutating func quotedCell(startingAt start: SourcePosition) throws -> String {
        index += 1
        var buffer: [UInt8] = []
        var runStart = index
        while true {
            guard index < bytes.count else {
                throw CloudSeedError("unterminated quoted field; add the closing quote", at: start)
            }
            let byte = bytes[index]
            if byte == 0x22 {
                buffer.append(contentsOf: bytes[runStart..<index])
                if index + 1 < bytes.count, bytes[index + 1] == 0x22 {
                    buffer.append(0x22)
                    index += 2
                    runStart = index
                    continue
                }
                index += 1
                return try decode(buffer[...], at: start)
            }
            index += 1
            if byte == 0x0A {
                line += 1
                lineStart = index
            }
        }
    }

    private func decode(_ slice: ArraySlice<UInt8>, at position: SourcePosition) throws -> String {
        if slice.allSatisfy({ $0 < 0x80 }) { return String(decoding: slice, as: UTF8.self) }
        guard let text = String(validating: slice, as: UTF8.self) else {
            throw CloudSeedError("the field is not valid UTF-8; re-save the file as UTF-8", at: position)
        }
        return text
    }
}
