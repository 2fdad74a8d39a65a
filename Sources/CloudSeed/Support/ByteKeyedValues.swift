#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Values found again by the exact UTF-8 bytes of the text they were made of, without making a
/// `String`: hashing a string as `Set<String>` does normalises any text that is not ASCII, which
/// costs more than hashing its bytes. Only equal bytes match, so a text not found may still equal
/// one kept (the same text in another normalisation form): a miss is to be worked out the usual way.
struct ByteKeyedValues<Value> {
    /// Where each text kept is among ``keptBytes`` and ``values``, by the hash of its bytes; a text
    /// whose hash another has is not kept. The bytes and values are looked at where they are, not
    /// copied out with their references counted.
    private var slots: [Int: Int] = [:]
    private var keptBytes: [[UInt8]] = []
    private var values: [Value] = []

    var count: Int { values.count }

    /// The value kept for a text of exactly these bytes.
    func value(for bytes: UnsafeBufferPointer<UInt8>) -> Value? {
        guard let slot = slots[Self.hash(bytes)], keptBytes[slot].count == bytes.count else { return nil }
        let equal = keptBytes[slot].withUnsafeBufferPointer { kept in bytes.isEmpty || memcmp(kept.baseAddress!, bytes.baseAddress!, bytes.count) == 0 }
        return equal ? values[slot] : nil
    }

    /// Keeps a text's bytes with `value`, unless another text's bytes have the same hash.
    mutating func insert(_ bytes: UnsafeBufferPointer<UInt8>, value: Value) {
        let hash = Self.hash(bytes)
        guard slots[hash] == nil else { return }
        slots[hash] = values.count
        keptBytes.append(Array(bytes))
        values.append(value)
    }

    mutating func removeAll() {
        slots = [:]
        keptBytes = []
        values = []
    }

    private static func hash(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
        Int(truncatingIfNeeded: ByteHash.hash(UnsafeRawBufferPointer(bytes)))
    }
}

/// Texts found again by their bytes alone.
typealias ByteKeyedTexts = ByteKeyedValues<Void>

extension ByteKeyedValues where Value == Void {
    /// Whether a text of exactly these bytes was kept.
    func contains(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        value(for: bytes) != nil
    }

    /// Keeps a text's bytes.
    mutating func insert(_ bytes: UnsafeBufferPointer<UInt8>) {
        insert(bytes, value: ())
    }
}
