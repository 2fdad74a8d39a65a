#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Values found again by the exact UTF-8 bytes of the text they were made of, without making a
/// `String`: hashing a string as `Set<String>` does normalises any text that is not ASCII, which
/// costs more than hashing its bytes. Only equal bytes match, so a text not found may still equal
/// one kept (the same text in another normalisation form): a miss is to be worked out the usual way.
///
/// An open-addressed table of the bytes' own hashes (``ByteHash``), which are not hashed again as
/// a `Dictionary` key would be, beside flat arrays: the kept bytes one after another in one array,
/// so that a lookup touches no array of arrays and counts no reference.
struct ByteKeyedValues<Value> {
    /// For each slot, the entry that has it plus one; 0 for an empty slot. Its count is a power of
    /// two, at least twice the entries', so that a probe soon meets an empty slot.
    private var slots: [UInt32] = []
    /// Each entry's hash, where its bytes start in ``keptBytes`` (they end where the next
    /// entry's start) and its value.
    private var hashes: [UInt64] = []
    private var starts: [Int] = [0]
    private var keptBytes: [UInt8] = []
    private var values: [Value] = []

    var count: Int { values.count }

    /// The value kept for a text of exactly these bytes.
    func value(for bytes: UnsafeBufferPointer<UInt8>) -> Value? {
        guard !slots.isEmpty else { return nil }
        let hash = Self.hash(bytes)
        guard let entry = entry(withHash: hash) else { return nil }
        let start = starts[entry]
        guard starts[entry + 1] - start == bytes.count else { return nil }
        let equal = bytes.isEmpty || keptBytes.withUnsafeBufferPointer { memcmp($0.baseAddress! + start, bytes.baseAddress!, bytes.count) == 0 }
        return equal ? values[entry] : nil
    }

    /// Keeps a text's bytes with `value`, unless another text's bytes have the same hash.
    mutating func insert(_ bytes: UnsafeBufferPointer<UInt8>, value: Value) {
        let hash = Self.hash(bytes)
        if !slots.isEmpty, entry(withHash: hash) != nil { return }
        if (values.count + 1) * 2 > slots.count { grow() }
        hashes.append(hash)
        keptBytes.append(contentsOf: bytes)
        starts.append(keptBytes.count)
        values.append(value)
        place(entry: values.count - 1, hash: hash)
    }

    mutating func removeAll() {
        self = ByteKeyedValues()
    }

    /// The entry whose hash is `hash`; the table must have slots.
    private func entry(withHash hash: UInt64) -> Int? {
        slots.withUnsafeBufferPointer { slots in
            let mask = slots.count - 1
            var slot = Int(truncatingIfNeeded: hash) & mask
            while true {
                let held = Int(slots[slot])
                if held == 0 { return nil }
                if hashes[held - 1] == hash { return held - 1 }
                slot = (slot + 1) & mask
            }
        }
    }

    /// Puts `entry` in the first empty slot from its hash's on.
    private mutating func place(entry: Int, hash: UInt64) {
        let mask = slots.count - 1
        var slot = Int(truncatingIfNeeded: hash) & mask
        while slots[slot] != 0 { slot = (slot + 1) & mask }
        slots[slot] = UInt32(entry + 1)
    }

    /// Doubles the slots (16 at first) and places every entry again.
    private mutating func grow() {
        slots = Array(repeating: 0, count: max(16, slots.count * 2))
        for entry in hashes.indices { place(entry: entry, hash: hashes[entry]) }
    }

    private static func hash(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
        ByteHash.hash(UnsafeRawBufferPointer(bytes))
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
