/// A store's encoding of the values of a new record, made on the thread that types the record:
/// the bytes the store keeps for its fields (a PostgreSQL `COPY` row's field columns), so that the
/// writing thread only adds the record's name and system fields, and no value of the record
/// crosses to it to be read there and freed back where it was made.
///
/// A million-row CSV import into PostgreSQL: the writing thread encoded the values (a third of its
/// work), and the reading thread freed them when their batches came back (a tenth of its work).
public struct NewRecordEncoder: Sendable {
    private let encode: @Sendable (_ values: UnsafeBufferPointer<RecordValue?>) throws -> [UInt8]

    /// An encoder that encodes the values of a record (in the order of its type's field names,
    /// `nil` where unset), or throws for a value the store cannot keep.
    public init(encode: @escaping @Sendable (_ values: UnsafeBufferPointer<RecordValue?>) throws -> [UInt8]) {
        self.encode = encode
    }

    /// The values encoded; `nil` where the store cannot keep one of them: the record then keeps
    /// its values, and its save refuses it in the store's words.
    func encoded(_ values: [RecordValue?]) -> [UInt8]? {
        try? values.withUnsafeBufferPointer(encode)
    }
}
