/// Reads JSON documents (an array of records, records keyed by type, CloudKit records) and JSON Lines.
struct JSONReader: SourceReader {
    var bytes: [UInt8]
    var file: String
    /// One JSON value per line (`.jsonl`, `.ndjson`) rather than one document.
    var isLines: Bool

    func forEachRow(_ body: (SourceRow) throws -> Void) throws {
        guard isLines else {
            var parser = JSONParser(bytes: bytes, file: file)
            try DocumentShape.rows(in: try parser.parseDocument(), body)
            return
        }
        var lineNumber = 0
        for line in bytes.split(separator: 0x0A, omittingEmptySubsequences: false) {
            lineNumber += 1
            let content = line.last == 0x0D ? line.dropLast() : line
            if content.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { continue }
            var parser = JSONParser(bytes: Array(content), file: file, startLine: lineNumber)
            let node = try parser.parseDocument()
            try body(try DocumentShape.row(from: node, recordType: nil, recordName: nil))
        }
    }
}
