package import CloudSeedCore
import Foundation

/// The field columns of a new record's `COPY` row, encoded on the thread that typed the record
/// (``StoredValueEncoder``): the bytes ``PostgresBinaryRow/appendValue(_:)`` appends for its values.
///
/// Where every value's size is known before it is written (texts, numbers, dates, locations of
/// coordinates only, references kept as names, NULLs), the fields are written in place on the
/// stack and copied at once into an array with room for exactly them, not appended one by one:
/// each append has a fixed cost whatever it appends. Other values take ``PostgresBinaryRow``'s appends.
package enum PostgresEncodedFields {
    /// The values at `offsets` among `values` (or their texts, where `texts` gives them), one
    /// field each, NULL where an offset is `nil`.
    package static func encoded(
        _ values: UnsafeBufferPointer<RecordValue?>, texts: StoredValueEncoder.Texts, at offsets: [Int?]
    )
        throws -> [UInt8]
    {
        var size = 0
        for offset in offsets {
            guard let offset else {
                size += nullSize
                continue
            }
            if let text = texts.text(at: offset) {
                size += 4 + text.count
            } else if let fieldSize = fieldSize(of: values[offset]) {
                size += fieldSize
            } else {
                return try appended(values, texts: texts, at: offsets)
            }
        }
        guard size > 0 else { return [] }
        // Written on the stack, then copied into an array made with room for them: an array made
        // at its size (uninitialized or zeroed) looked up its storage's generic type at every call,
        // where reserving room does not.
        var bytes: [UInt8] = []
        bytes.reserveCapacity(size)
        try withUnsafeTemporaryAllocation(byteCount: size, alignment: 8) { buffer in
            var field = buffer.baseAddress!
            for offset in offsets {
                if let offset, let text = texts.text(at: offset) {
                    field = try storeText(text, at: field)
                } else if let offset {
                    field = try store(values[offset], at: field)
                } else {
                    field = storeNull(at: field)
                }
            }
            bytes.append(contentsOf: UnsafeRawBufferPointer(buffer).assumingMemoryBound(to: UInt8.self))
        }
        return bytes
    }

    /// The same fields appended one by one, for values whose size is not known before they are written.
    private static func appended(
        _ values: UnsafeBufferPointer<RecordValue?>, texts: StoredValueEncoder.Texts, at offsets: [Int?]
    ) throws -> [UInt8] {
        var row = PostgresBinaryRow()
        for offset in offsets {
            if let offset, let text = texts.text(at: offset) {
                try row.appendText(utf8: text)
            } else if let offset {
                try row.appendValue(values[offset])
            } else {
                row.appendNull()
            }
        }
        return row.bytes
    }

    private static let nullSize = 4

    /// How many bytes a value's field takes, with its length; `nil` where that is only known once written.
    private static func fieldSize(of value: borrowing RecordValue?) -> Int? {
        switch value {
        case nil: nullSize
        case .string(let text)?: 4 + text.utf8.count
        case .int64?, .double?, .timestamp?: PostgresBinaryRow.eightByteFieldSize
        case .location(let location)? where location.hasCoordinatesOnly: PostgresBinaryRow.coordinatesFieldSize
        case .reference(let reference)? where reference.isKeptAsName: 4 + reference.recordName.utf8.count
        default: nil
        }
    }

    /// Stores a value whose size ``fieldSize(of:)`` knows at `field`; returns where the next field goes.
    private static func store(_ value: borrowing RecordValue?, at field: UnsafeMutableRawPointer) throws
        -> UnsafeMutableRawPointer
    {
        switch value {
        case .string(let text)?: return try storeText(text, at: field)
        case .int64(let number)?: PostgresBinaryRow.storeEightBytes(UInt64(bitPattern: number), at: field)
        case .double(let number)?: PostgresBinaryRow.storeEightBytes(number.bitPattern, at: field)
        case .timestamp(let milliseconds)?:
            PostgresBinaryRow.storeEightBytes(
                UInt64(bitPattern: try PostgresBinaryRow.timestamp(milliseconds)), at: field)
        case .location(let location)?:
            PostgresBinaryRow.storeCoordinates(of: location, at: field)
            return field + PostgresBinaryRow.coordinatesFieldSize
        case .reference(let reference)?: return try storeText(reference.recordName, at: field)
        default: return storeNull(at: field)
        }
        return field + PostgresBinaryRow.eightByteFieldSize
    }

    private static func storeNull(at field: UnsafeMutableRawPointer) -> UnsafeMutableRawPointer {
        field.storeBytes(of: UInt32(bitPattern: -1).bigEndian, as: UInt32.self)
        return field + nullSize
    }

    /// Stores a text's length and bytes (a native string's, where they lie; a copy's otherwise).
    private static func storeText(_ text: String, at field: UnsafeMutableRawPointer) throws -> UnsafeMutableRawPointer {
        if let next = try text.utf8.withContiguousStorageIfAvailable({ try storeText($0, at: field) }) { return next }
        var copy = text
        return try copy.withUTF8 { try storeText($0, at: field) }
    }

    private static func storeText(_ utf8: UnsafeBufferPointer<UInt8>, at field: UnsafeMutableRawPointer) throws
        -> UnsafeMutableRawPointer
    {
        try PostgresBinaryRow.checkText(utf8)
        field.storeBytes(of: UInt32(utf8.count).bigEndian, as: UInt32.self)
        if let start = utf8.baseAddress { (field + 4).copyMemory(from: start, byteCount: utf8.count) }
        return field + 4 + utf8.count
    }
}
