package import CloudSeedCore

/// Reads JSON documents (an array of records, records keyed by type, CloudKit records, Django
/// fixtures) and JSON Lines, streaming: memory holds one record at a time.
package struct JSONReader: SourceReader {
    package var input: () throws -> ChunkedInput
    package var file: String
    /// One JSON value per line (`.jsonl`, `.ndjson`) rather than one document.
    package var isLines: Bool

    package func forEachRow(_ body: (SourceRow) throws -> Void) throws {
        var parser = JSONParser(input: try input(), file: file)
        guard isLines else {
            try DocumentShape.rows(in: &parser, body)
            return
        }
        var index = 0
        try parser.forEachRecord { read in
            try body(try DocumentShape.row(from: read, recordType: nil, keyPath: "[\(index)]"))
            index += 1
        }
    }

    /// For JSON Lines and a document that is an array of records: calls `body` with each record
    /// whose keys are the first record's, in order, as flat cells (``FlatJSONRecord``) with where
    /// it starts, once `header` has taken those keys as a header; `row` takes every other record
    /// (and every record of a document of another shape) as ``forEachRow(_:)`` reads it. `header`
    /// is asked once, where the first record is flat: a `false` leaves every record to `row`.
    package func forEachRecord(
        header: (CSVHeader) -> Bool, _ body: (CSVHeader, FlatJSONRecord, SourcePosition) throws -> Void,
        row: (SourceRow) throws -> Void
    ) throws {
        var parser = JSONParser(input: try input(), file: file)
        if !isLines, try parser.peekValue() != .array { return try DocumentShape.rows(in: &parser, row) }
        var taken: (header: CSVHeader, keys: [[UInt8]])?
        var index = 0
        try parser.forEachRecord(
            inArray: !isLines, keys: { taken?.keys },
            flat: { record, start in
                var start = start
                start.keyPath = "[\(index)]"
                index += 1
                try body(taken!.header, record, start)
            },
            other: { read in
                if index == 0, case .fields(let fields, _) = read,
                    fields.allSatisfy({ !$0.value.isNested || Self.isFlatList($0.value) })
                {
                    let columns = CSVHeader(columns: fields.map { CSVHeader.Column(name: $0.key, type: nil) })
                    if header(columns) { taken = (columns, fields.map { Array($0.key.utf8) }) }
                }
                try row(try DocumentShape.row(from: read, recordType: nil, keyPath: "[\(index)]"))
                index += 1
            })
    }

    /// Whether a value is an array of values that are not nested, as a flat record's may be.
    private static func isFlatList(_ value: PlainValue) -> Bool {
        guard case .array(let items) = value else { return false }
        return !items.contains(where: \.isNested)
    }
}
