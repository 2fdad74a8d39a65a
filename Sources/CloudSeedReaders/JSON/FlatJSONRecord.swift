package import CloudSeedCore

/// A flat JSON record's members (a JSON Lines record's, or an element's of the array a document
/// is) as ``JSONParser/readRecordCells(keys:into:values:)`` read them, in the order of the keys it
/// expected. A cell holds no reference: a string without escapes is its bytes in the input, made
/// a text only where it is asked for, and a number or boolean is held in place; the rare string
/// with escapes and list are values beside the cells.
///
/// A record is lent to the caller of ``JSONReader/forEachRecord(header:_:row:)`` for the time of the call.
package struct FlatJSONRecord {
    /// A member: where its value starts, and its value.
    package struct Cell {
        package enum Kind: UInt8 {
            /// A string without escapes: its UTF-8 bytes (checked) are `input[bytes]`.
            case text
            /// A number or a boolean, in ``scalar``.
            case integer, real, bool
            case null
            /// A string with escapes or a list: `values[bytes.lowerBound]`.
            case value
        }

        package var kind: Kind
        package var bytes: Range<Int>
        /// An integer's bits, a real's bits, or 1 for `true`.
        package var scalar: UInt64
        package var line: Int
        package var column: Int
    }

    package let cells: [Cell]
    /// The values cells of kind ``Cell/Kind/value`` hold.
    package let values: [PlainValue]
    /// The bytes the texts' ranges point into: the parser's input.
    package let input: [UInt8]
    /// The file, for the cells' positions.
    package let origin: SourcePosition

    /// The bytes of a text read in place; `nil` for any other cell.
    package func text(_ column: Int) -> Range<Int>? {
        cells[column].kind == .text ? cells[column].bytes : nil
    }

    /// The value of a cell, a text read in place made a string.
    package func value(_ column: Int) -> PlainValue {
        let cell = cells[column]
        return switch cell.kind {
        case .text: .string(withBytes(cell.bytes) { String(decoding: $0, as: UTF8.self) })
        case .integer: .integer(Int64(bitPattern: cell.scalar))
        case .real: .real(Double(bitPattern: cell.scalar))
        case .bool: .bool(cell.scalar != 0)
        case .null: .null
        case .value: values[cell.bytes.lowerBound]
        }
    }

    /// Lends `body` the bytes of a text read in place.
    package func withBytes<Result>(_ text: Range<Int>, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        input.withUnsafeBufferPointer { body(UnsafeBufferPointer(rebasing: $0[text])) }
    }
}
