import CloudSeedCore
import Foundation

/// Reads property lists of every kind: XML (streamed by libxml2, with lines and columns), binary `bplist00`
/// (its records built one at a time, with key paths) and OpenStep (whole, with lines). NSKeyedArchiver archives are refused.
package struct PropertyListReader: SourceReader {
    package var input: () throws -> ChunkedInput
    package var file: String

    package func forEachRow(_ body: (SourceRow) throws -> Void) throws {
        var chunked = try input()
        while chunked.buffer.count < 64, chunked.fill() {}
        let head = chunked.buffer.prefix(64)
        if head.starts(with: Array("bplist".utf8)) {
            chunked.readToEnd()
            var cursor = try BinaryPropertyListCursor(bytes: chunked.buffer, file: file)
            try DocumentShape.rows(in: &cursor, body)
            return
        }
        if Self.isXML(head) {
            var cursor = XMLPropertyListCursor(input: chunked, file: file)
            try DocumentShape.rows(in: &cursor, body)
            return
        }
        chunked.readToEnd()
        var parser = OpenStepPropertyListParser(bytes: chunked.buffer, file: file)
        var cursor = TreeCursor(root: try parser.parse())
        try DocumentShape.rows(in: &cursor, body)
    }

    /// Whether a file starting with `head` is XML: `<` first, after white space and a UTF-8 byte
    /// order mark, or UTF-16 or UTF-32 text (a byte order mark, or `<` beside zero bytes).
    private static func isXML(_ head: ArraySlice<UInt8>) -> Bool {
        let bytes = Array(head.prefix(4))
        if bytes.starts(with: [0xFE, 0xFF]) || bytes.starts(with: [0xFF, 0xFE]) { return true }
        if bytes.count == 4, bytes.contains(0), bytes.contains(UInt8(ascii: "<")) { return true }
        let text = head.drop { [0x20, 0x09, 0x0A, 0x0D, 0xEF, 0xBB, 0xBF].contains($0) }
        return text.first == UInt8(ascii: "<")
    }
}
