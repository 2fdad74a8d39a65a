package import CloudSeedCore

/// A store's encoding of the values of a new record, made on the thread that types the record:
/// the bytes the store keeps for its fields (a PostgreSQL `COPY` row's field columns, SQLite's
/// column values), so that the writing thread only adds the record's name and system fields, and
/// no value of the record crosses to it to be read there and freed back where it was made.
///
/// Before, the writing thread encoded the values, and the reading thread freed them when their
/// batches came back, both much work.
package struct StoredValueEncoder: Sendable {
    /// The STRING values of a record given as the bytes of their text (valid UTF-8) rather than as
    /// values, by the value's place: the text is the cell's, not made a `String` only to be encoded.
    package struct Texts {
        /// The texts' bytes, one after another.
        package let bytes: UnsafeBufferPointer<UInt8>
        /// Where each value's text lies in ``bytes``; `nil` for a value given as a value.
        package let ranges: UnsafeBufferPointer<Range<Int>?>

        /// The text of the value at `place`, if it is given as bytes.
        package func text(at place: Int) -> UnsafeBufferPointer<UInt8>? {
            place < ranges.count ? ranges[place].map { UnsafeBufferPointer(rebasing: bytes[$0]) } : nil
        }
    }

    private let encode: @Sendable (_ values: UnsafeBufferPointer<RecordValue?>, _ texts: Texts) throws -> [UInt8]

    /// An encoder that encodes the values of a record (in the order of its type's field names,
    /// `nil` where unset, unless `texts` gives their text), or throws for a value the store cannot keep.
    package init(
        encode: @escaping @Sendable (_ values: UnsafeBufferPointer<RecordValue?>, _ texts: Texts) throws -> [UInt8]
    ) {
        self.encode = encode
    }

    /// The values encoded, with the texts at `textRanges` in `textBytes`; `nil` where the store
    /// cannot keep one of them: the record then keeps its values, and its save refuses it in the store's words.
    package func encoded(_ values: [RecordValue?], textBytes: [UInt8] = [], textRanges: [Range<Int>?] = []) -> [UInt8]?
    {
        values.withUnsafeBufferPointer { values in
            textBytes.withUnsafeBufferPointer { bytes in
                textRanges.withUnsafeBufferPointer { ranges in try? encode(values, Texts(bytes: bytes, ranges: ranges))
                }
            }
        }
    }
}
