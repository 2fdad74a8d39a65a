package import CloudSeedCore
import Foundation

/// A new record's field values in the form their SQLite columns keep them (``SQLiteValueCodec``),
/// written as bytes: each value a tag and its column value, one after another. Encoded on the
/// thread that typed the record (``StoredValueEncoder``), they cross to the writing thread as one
/// array, which only binds them; no value of the record is read, copied or freed there.
package enum SQLiteEncodedFields {
    private enum Tag: UInt8 {
        case null, integer, real, text, blob
    }

    /// The values (or their texts, where `texts` gives them), in their order, NULL where unset.
    package static func encoded(_ values: UnsafeBufferPointer<RecordValue?>, texts: StoredValueEncoder.Texts)
        -> [UInt8]
    {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(16 * values.count + texts.bytes.count)
        append(values, texts: texts, to: &bytes)
        return bytes
    }

    /// Appends the values (or their texts, where `texts` gives them), in their order, NULL where unset.
    package static func append(
        _ values: UnsafeBufferPointer<RecordValue?>, texts: StoredValueEncoder.Texts? = nil, to bytes: inout [UInt8]
    ) {
        for place in values.indices {
            if let text = texts?.text(at: place) {
                append(.text, text, to: &bytes)
            } else if let value = values[place] {
                append(value, to: &bytes)
            } else {
                bytes.append(Tag.null.rawValue)
            }
        }
    }

    /// Appends `value` in its column's form: a timestamp's, a location's or a list's text written
    /// straight into `bytes`.
    private static func append(_ value: RecordValue, to bytes: inout [UInt8]) {
        switch value {
        case .string(var text): text.withUTF8 { append(.text, $0, to: &bytes) }
        case .int64(let number): appendScalar(.integer, UInt64(bitPattern: number), to: &bytes)
        case .double(let number): appendScalar(.real, number.bitPattern, to: &bytes)
        case .timestamp(let milliseconds):
            let start = bytes.count
            var written = false
            appendSized(.text, to: &bytes) { written = Timestamp.append(milliseconds, to: &$0) }
            if !written {
                bytes.removeSubrange(start...)
                append(SQLiteValueCodec.encode(value), to: &bytes)
            }
        case .location, .list:
            appendSized(.text, to: &bytes) { SQLiteValueCodec.appendJSONElement(value, to: &$0) }
        case .bytes, .reference, .asset: append(SQLiteValueCodec.encode(value), to: &bytes)
        }
    }

    /// Binds the values `bytes` holds, the `n`-th (from 0) to the parameter `parameter(n)` gives;
    /// one it gives none is left out.
    package static func bind(
        _ bytes: UnsafeBufferPointer<UInt8>, to statement: SQLiteStatement, parameter: (Int) -> Int32?
    ) throws {
        var offset = 0
        var ordinal = 0
        while offset < bytes.count {
            let tag = Tag(rawValue: bytes[offset])!
            let index = parameter(ordinal)
            offset += 1
            ordinal += 1
            switch tag {
            case .null:
                if let index { try statement.bind(.null, at: index) }
            case .integer:
                let bits = load(bytes, at: &offset)
                if let index { try statement.bind(.integer(Int64(bitPattern: bits)), at: index) }
            case .real:
                let bits = load(bytes, at: &offset)
                if let index { try statement.bind(.real(Double(bitPattern: bits)), at: index) }
            case .text, .blob:
                let count = loadSize(bytes, at: &offset)
                let value = UnsafeBufferPointer(rebasing: bytes[offset..<offset + count])
                offset += count
                guard let index else { continue }
                if tag == .text {
                    try statement.bindText(bytes: value, at: index)
                } else {
                    try statement.bind(.blob(Data(value)), at: index)
                }
            }
        }
    }

    private static func append(_ value: SQLiteValue, to bytes: inout [UInt8]) {
        switch value {
        case .null: bytes.append(Tag.null.rawValue)
        case .integer(let number): appendScalar(.integer, UInt64(bitPattern: number), to: &bytes)
        case .real(let number): appendScalar(.real, number.bitPattern, to: &bytes)
        case .text(var text): text.withUTF8 { append(.text, $0, to: &bytes) }
        case .blob(let data): appendSized(.blob, to: &bytes) { $0.append(contentsOf: data) }
        }
    }

    private static func appendScalar(_ tag: Tag, _ bits: UInt64, to bytes: inout [UInt8]) {
        bytes.append(tag.rawValue)
        withUnsafeBytes(of: bits.littleEndian) { bytes.append(contentsOf: $0) }
    }

    /// Appends `tag`, the size of `value` and `value`.
    private static func append(_ tag: Tag, _ value: UnsafeBufferPointer<UInt8>, to bytes: inout [UInt8]) {
        bytes.append(tag.rawValue)
        withUnsafeBytes(of: UInt32(value.count).littleEndian) { bytes.append(contentsOf: $0) }
        bytes.append(contentsOf: value)
    }

    /// Appends `tag`, then the size of what `write` appends, then that.
    private static func appendSized(_ tag: Tag, to bytes: inout [UInt8], _ write: (inout [UInt8]) -> Void) {
        bytes.append(tag.rawValue)
        let sizeAt = bytes.count
        for _ in 0..<4 { bytes.append(0) }
        write(&bytes)
        withUnsafeBytes(of: UInt32(bytes.count - sizeAt - 4).littleEndian) { size in
            for index in 0..<4 { bytes[sizeAt + index] = size[index] }
        }
    }

    private static func load(_ bytes: UnsafeBufferPointer<UInt8>, at offset: inout Int) -> UInt64 {
        defer { offset += 8 }
        return UInt64(littleEndian: UnsafeRawPointer(bytes.baseAddress! + offset).loadUnaligned(as: UInt64.self))
    }

    private static func loadSize(_ bytes: UnsafeBufferPointer<UInt8>, at offset: inout Int) -> Int {
        defer { offset += 4 }
        return Int(UInt32(littleEndian: UnsafeRawPointer(bytes.baseAddress! + offset).loadUnaligned(as: UInt32.self)))
    }
}
