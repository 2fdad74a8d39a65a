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
    /// The bytes of each text kept, with its value, by their hash; a text whose hash another has is not kept.
    private var entries: [Int: (bytes: [UInt8], value: Value)] = [:]

    var count: Int { entries.count }

    /// The value kept for a text of exactly these bytes.
    func value(for bytes: UnsafeBufferPointer<UInt8>) -> Value? {
        guard let kept = entries[Self.hash(bytes)], kept.bytes.count == bytes.count else { return nil }
        let equal = kept.bytes.withUnsafeBufferPointer { kept in bytes.isEmpty || memcmp(kept.baseAddress!, bytes.baseAddress!, bytes.count) == 0 }
        return equal ? kept.value : nil
    }

    /// Keeps a text's bytes with `value`, unless another text's bytes have the same hash.
    mutating func insert(_ bytes: UnsafeBufferPointer<UInt8>, value: Value) {
        let hash = Self.hash(bytes)
        if entries[hash] == nil { entries[hash] = (Array(bytes), value) }
    }

    mutating func removeAll() {
        entries = [:]
    }

    private static func hash(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
        var hasher = Hasher()
        hasher.combine(bytes: UnsafeRawBufferPointer(bytes))
        return hasher.finalize()
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
