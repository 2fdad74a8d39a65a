/// Reads JSON documents (an array of records, records keyed by type, CloudKit records, Django
/// fixtures) and JSON Lines, streaming: memory holds one record at a time.
struct JSONReader: SourceReader {
    var input: () throws -> ChunkedInput
    var file: String
    /// One JSON value per line (`.jsonl`, `.ndjson`) rather than one document.
    var isLines: Bool

    func forEachRow(_ body: (SourceRow) throws -> Void) throws {
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
}
