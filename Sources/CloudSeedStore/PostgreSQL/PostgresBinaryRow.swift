package import CloudSeedCore
import Foundation

/// A record table's row in `COPY`'s binary format: a 16-bit count of fields, then each field as a
/// 32-bit length (-1 for NULL) and its bytes, every number big-endian.
///
/// Each column gets the binary form of its SQL type (``PostgresValueCodec/sqlType(for:)``): the
/// server stores a `bigint`, a `double precision` or a `timestamptz` as it comes, where text would
/// have it parse every number and date (timestamps above all). A location is an array of doubles; a `jsonb` field is its JSON
/// text behind the format's version byte; a `text` or `bytea` field, its bytes.
package struct PostgresBinaryRow {
    /// What a `COPY … (FORMAT binary)` starts with: its signature, no flags, no header extension.
    package static let header: [UInt8] =
        Array("PGCOPY\n".utf8) + [0xFF, 0x0D, 0x0A, 0x00] + [0, 0, 0, 0] + [0, 0, 0, 0]
    /// What it ends with: a field count of -1.
    package static let trailer: [UInt8] = [0xFF, 0xFF]

    /// Microseconds from 1970 to 2000-01-01, PostgreSQL's epoch for timestamps.
    private static let epochOffset: Int64 = 946_684_800_000_000

    package private(set) var bytes: [UInt8] = []

    /// Starts a row of `fieldCount` fields in `memory`, emptied: rows encoded one after another
    /// reuse one buffer, given back with ``giveBack(to:)``, rather than allocating one each.
    package init(fieldCount: Int, reusing memory: inout [UInt8]) {
        swap(&bytes, &memory)
        bytes.removeAll(keepingCapacity: true)
        appendBigEndian(UInt16(fieldCount))
    }

    /// Starts a row of `fieldCount` fields at the end of `memory` (a batch's rows), to be given
    /// back with ``giveBack(to:)``: the row is encoded where it is kept, not copied there.
    package init(fieldCount: Int, appendingTo memory: inout [UInt8]) {
        swap(&bytes, &memory)
        appendBigEndian(UInt16(fieldCount))
    }

    /// Gives the row's buffer back for the next row (``init(fieldCount:reusing:)``).
    package mutating func giveBack(to memory: inout [UInt8]) {
        swap(&bytes, &memory)
    }

    /// Fields without a row's count, to be appended to rows whole (``appendEncoded(_:)``): a run's
    /// shared system columns, or a record's values encoded apart (``PostgresEncodedFields``).
    package init() {}

    package mutating func appendNull() {
        appendBigEndian(UInt32(bitPattern: -1))
    }

    package mutating func appendInt64(_ number: Int64) {
        appendEightBytes(UInt64(bitPattern: number))
    }

    package mutating func appendDouble(_ number: Double) {
        appendEightBytes(number.bitPattern)
    }

    /// A field of eight bytes, after its length: twelve bytes appended at once.
    private mutating func appendEightBytes(_ value: UInt64) {
        appendAtOnce(Self.eightByteFieldSize) { Self.storeEightBytes(value, at: $0) }
    }

    /// How many bytes a field of eight bytes takes, with its length.
    package static let eightByteFieldSize = 12

    /// Stores a field of eight bytes, after its length, at `field`.
    package static func storeEightBytes(_ value: UInt64, at field: UnsafeMutableRawPointer) {
        field.storeBytes(of: UInt32(8).bigEndian, as: UInt32.self)
        field.storeBytes(of: value.bigEndian, toByteOffset: 4, as: UInt64.self)
    }

    /// A `timestamptz` of milliseconds since 1970, within the years a store keeps.
    package mutating func appendTimestamp(_ milliseconds: Int64) throws {
        appendInt64(try Self.timestamp(milliseconds))
    }

    /// A `timestamptz`'s microseconds since 2000 for milliseconds since 1970, within the years a store keeps.
    package static func timestamp(_ milliseconds: Int64) throws -> Int64 {
        guard Timestamp.range.contains(milliseconds) else { throw PostgresValueCodec.outOfRange(milliseconds) }
        return milliseconds * 1000 - epochOffset
    }

    /// A `text` field; text cannot hold U+0000 (looked for with `memchr`, many bytes at a time).
    /// A native string's bytes are read where they are, without a copy of the string.
    package mutating func appendText(_ text: String) throws {
        if try text.utf8.withContiguousStorageIfAvailable({ try appendText(utf8: $0) }) != nil { return }
        var copy = text
        try copy.withUTF8 { try appendText(utf8: $0) }
    }

    /// A `text` field of these bytes (valid UTF-8).
    package mutating func appendText(utf8: UnsafeBufferPointer<UInt8>) throws {
        try Self.checkText(utf8)
        appendBigEndian(UInt32(utf8.count))
        bytes.append(contentsOf: utf8)
    }

    /// Throws where a text's bytes hold U+0000, which `text` cannot hold.
    package static func checkText(_ utf8: UnsafeBufferPointer<UInt8>) throws {
        guard let start = utf8.baseAddress, memchr(start, 0, utf8.count) != nil else { return }
        throw PostgresValueCodec.nulError
    }

    /// The system columns between a record's name and its change tag: when and by whom it was
    /// created and last modified.
    package mutating func appendSystemColumns(_ system: SystemFields) throws {
        try appendTimestamp(system.createdTimestamp)
        try appendText(system.createdUserRecordName)
        try appendTimestamp(system.modifiedTimestamp)
        try appendText(system.modifiedUserRecordName)
    }

    /// Fields already encoded, as ``bytes`` of another row holds them (a run's shared system columns).
    package mutating func appendEncoded(_ fields: [UInt8]) {
        bytes += fields
    }

    /// A field's value in the binary form of its column's type; `nil` is NULL. Inlined where
    /// rows are encoded: a call less for each of a row's fields.
    @inline(__always)
    package mutating func appendValue(_ value: borrowing RecordValue?) throws {
        switch value {
        case nil: appendNull()
        case .string(let text)?: try appendText(text)
        case .int64(let number)?: appendInt64(number)
        case .double(let number)?: appendDouble(number)
        case .timestamp(let milliseconds)?: try appendTimestamp(milliseconds)
        case .bytes(let data)?:
            appendBigEndian(UInt32(data.count))
            bytes.append(contentsOf: data)
        case .location(let location)?:
            appendLocation(location)
        case .list?:
            // jsonb: its format's version, then the JSON text, written in place; its length goes before them.
            guard !PostgresValueCodec.holdsNUL((copy value)!) else { throw PostgresValueCodec.nulError }
            let lengthAt = bytes.count
            appendBigEndian(UInt32(0))
            bytes.append(1)
            SQLiteValueCodec.appendJSONElement((copy value)!, to: &bytes)
            let length = UInt32(bytes.count - lengthAt - 4)
            bytes.withUnsafeMutableBytes {
                $0.storeBytes(of: length.bigEndian, toByteOffset: lengthAt, as: UInt32.self)
            }
        case .reference(let reference)? where reference.isKeptAsName:
            try appendText(reference.recordName)
        case .reference?, .asset?:
            try appendText(try PostgresValueCodec.encode((copy value)!))
        }
    }

    /// A `double precision[]` of ``PostgresValueCodec/locationElements(_:)``: its length, its
    /// dimensions (one, of as many elements, from 1), whether it has a NULL and the element type's
    /// id, then each element as a field.
    private mutating func appendLocation(_ location: Location) {
        if location.hasCoordinatesOnly {
            // The common case, without an array of elements, appended at once.
            appendAtOnce(Self.coordinatesFieldSize) { Self.storeCoordinates(of: location, at: $0) }
            return
        }
        let elements = PostgresValueCodec.locationElements(location)
        let holdsNull = elements.contains { $0 == nil }
        let nonNull = elements.count(where: { $0 != nil })
        appendBigEndian(UInt32(20 + 12 * nonNull + 4 * (elements.count - nonNull)))
        appendArrayHeader(count: elements.count, holdsNull: holdsNull)
        for element in elements {
            if let element { appendDouble(element) } else { appendNull() }
        }
    }

    /// How many bytes a location of coordinates only takes, with its length: 20 bytes of the
    /// array's header, then two doubles of 12.
    package static let coordinatesFieldSize = 48

    /// Stores a location of coordinates only (``Location/hasCoordinatesOnly``), after its length, at `field`.
    package static func storeCoordinates(of location: Location, at field: UnsafeMutableRawPointer) {
        for (offset, word) in [44, 1, 0, Self.float8TypeID, 2, 1, 8].enumerated() {
            field.storeBytes(of: UInt32(word).bigEndian, toByteOffset: 4 * offset, as: UInt32.self)
        }
        field.storeBytes(of: location.latitude.bitPattern.bigEndian, toByteOffset: 28, as: UInt64.self)
        field.storeBytes(of: UInt32(8).bigEndian, toByteOffset: 36, as: UInt32.self)
        field.storeBytes(of: location.longitude.bitPattern.bigEndian, toByteOffset: 40, as: UInt64.self)
    }

    /// A one-dimensional array of `count` doubles, numbered from 1.
    private mutating func appendArrayHeader(count: Int, holdsNull: Bool) {
        appendBigEndian(UInt32(1))
        appendBigEndian(UInt32(holdsNull ? 1 : 0))
        appendBigEndian(Self.float8TypeID)
        appendBigEndian(UInt32(count))
        appendBigEndian(UInt32(1))
    }

    /// PostgreSQL's id of the `double precision` type, which a binary array names its elements by.
    private static let float8TypeID: UInt32 = 701

    /// Appends the number's bytes, most significant first: as typed bytes, which an array appends
    /// at once, where raw bytes were appended one at a time.
    private mutating func appendBigEndian<Number: FixedWidthInteger>(_ number: Number) {
        withUnsafeBytes(of: number.bigEndian) { bytes.append(contentsOf: $0.assumingMemoryBound(to: UInt8.self)) }
    }

    /// Appends `count` bytes that `write` stores, in one append: each append has a fixed cost
    /// whatever it appends.
    private mutating func appendAtOnce(_ count: Int, _ write: (UnsafeMutableRawPointer) -> Void) {
        withUnsafeTemporaryAllocation(byteCount: count, alignment: 8) { field in
            write(field.baseAddress!)
            bytes.append(contentsOf: UnsafeRawBufferPointer(field).assumingMemoryBound(to: UInt8.self))
        }
    }
}
