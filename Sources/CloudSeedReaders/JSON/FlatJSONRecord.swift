package import CloudSeedCore

/// A flat JSON record's members (a JSON Lines record's, or an element's of the array a document
/// is) as ``JSONParser/readRecordCells(keys:into:)`` read them, in the order of the keys it
/// expected: each member's value, but a string without escapes, whose text is its bytes in the
/// input, made only where it is asked for.
///
/// A record is lent to the caller of ``JSONReader/forEachRecord(header:_:row:)`` for the time of the call.
package struct FlatJSONRecord {
    /// A member: where its value starts, and its value or its text's bytes.
    package struct Cell {
        /// The value; unused for a string read in place.
        package var value: PlainValue
        /// A string without escapes: its UTF-8 bytes (checked) are `input[text]`.
        package var text: Range<Int>?
        package var line: Int
        package var column: Int
    }

    package let cells: [Cell]
    /// The bytes the texts' ranges point into: the parser's input.
    package let input: [UInt8]
    /// The file, for the cells' positions.
    package let origin: SourcePosition

    /// Lends `body` the bytes of a text read in place.
    package func withBytes<Result>(_ text: Range<Int>, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        input.withUnsafeBufferPointer { body(UnsafeBufferPointer(rebasing: $0[text])) }
    }
}
