import Foundation

/// Reads property lists of every kind: XML (streamed, with lines and columns), binary `bplist00`
/// (its records built one at a time, with key paths) and OpenStep (whole, with lines). NSKeyedArchiver archives are refused.
struct PropertyListReader: SourceReader {
    var input: () throws -> ChunkedInput
    var file: String

    func forEachRow(_ body: (SourceRow) throws -> Void) throws {
        var chunked = try input()
        while chunked.buffer.count < 64, chunked.fill() {}
        let head = chunked.buffer.prefix(64)
        if head.starts(with: Array("bplist".utf8)) {
            chunked.readToEnd()
            var cursor = try BinaryPropertyListCursor(bytes: chunked.buffer, file: file)
            try DocumentShape.rows(in: &cursor, body)
            return
        }
        let text = head.drop { [0x20, 0x09, 0x0A, 0x0D, 0xEF, 0xBB, 0xBF].contains($0) }
        if text.first == UInt8(ascii: "<") {
            var parser = XMLPropertyListParser(input: chunked, file: file)
            try DocumentShape.rows(in: &parser, body)
            return
        }
        chunked.readToEnd()
        var parser = OpenStepPropertyListParser(bytes: chunked.buffer, file: file)
        var cursor = TreeCursor(root: try parser.parse())
        try DocumentShape.rows(in: &cursor, body)
    }
}
