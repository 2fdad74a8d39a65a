#if canImport(Glibc)
    public import Glibc
#elseif canImport(Darwin)
    public import Darwin
#endif

/// Values found again by the exact UTF-8 bytes of the text they were made of, without making a
/// `String`: hashing a string as `Set<String>` does normalises any text that is not ASCII, which
/// costs more than hashing its bytes. Only equal bytes match, so a text not found may still equal
/// one kept (the same text in another normalisation form): a miss is to be worked out the usual way.
///
/// An open-addressed table of the bytes' own hashes (``ByteHash``), which are not hashed again as
/// a `Dictionary` key would be. Each slot holds what a lookup compares (part of the hash, where
/// the kept bytes start and how many there are) beside the entry's number: a lookup reads one slot,
/// then the kept bytes, then the value, and counts no reference. A column that names one of 10,000
/// records looks its texts up in a table larger than the processor's nearest caches, so each read
/// may wait for memory: where a slot only pointed to an array of hashes, and that to another of
/// where the bytes start, lookups waited more often and took longer.
@usableFromInline package struct ByteKeyedValues<Value> {
    /// Where an entry is found: the high half of its hash (the low half places it), where its bytes
    /// start in ``keptBytes`` and how many there are, and its number plus one (0: an empty slot).
    @usableFromInline struct Slot {
        @usableFromInline var tag: UInt32 = 0
        @usableFromInline var entry: UInt32 = 0
        @usableFromInline var start: UInt32 = 0
        @usableFromInline var length: UInt32 = 0

        @inlinable init() {}

        @inlinable init(tag: UInt32, entry: UInt32, start: UInt32, length: UInt32) {
            self.tag = tag
            self.entry = entry
            self.start = start
            self.length = length
        }
    }

    /// The slots; their count is a power of two, at least four thirds of the entries', so that a
    /// probe soon meets an empty slot (on average within the slot's cache line) while the table
    /// stays small enough for the processor's nearer caches: 10,000 entries take 256 KB of slots,
    /// not 512 (most of a lookup's time is the wait for its slot to come from memory).
    @usableFromInline var slots: [Slot] = []
    /// The kept bytes, one text after another.
    @usableFromInline var keptBytes: [UInt8] = []
    @usableFromInline var values: [Value] = []

    @inlinable package var count: Int { values.count }

    /// An empty table.
    @inlinable package init() {}

    /// The value kept for a text of exactly these bytes.
    @inlinable package func value(for bytes: UnsafeBufferPointer<UInt8>) -> Value? {
        guard !slots.isEmpty else { return nil }
        return entry(of: bytes, hash: Self.hash(bytes)).found.map { values[$0] }
    }

    /// Keeps a text's bytes with `value`, unless they are kept already (or would not fit in the
    /// 4 GiB a table keeps).
    @inlinable package mutating func insert(_ bytes: UnsafeBufferPointer<UInt8>, value: Value) {
        guard keptBytes.count + bytes.count <= Int(UInt32.max), values.count < Int(UInt32.max) else { return }
        if (values.count + 1) * 4 > slots.count * 3 { grow() }
        let hash = Self.hash(bytes)
        let (found, emptySlot) = entry(of: bytes, hash: hash)
        guard found == nil else { return }
        slots[emptySlot] = Slot(
            tag: Self.tag(hash), entry: UInt32(values.count + 1), start: UInt32(keptBytes.count),
            length: UInt32(bytes.count))
        keptBytes.append(contentsOf: bytes)
        values.append(value)
    }

    @inlinable package mutating func removeAll() {
        self = ByteKeyedValues()
    }

    /// The entry kept for `bytes`, whose hash is `hash`, or else the empty slot that ends its
    /// probe; the table must have slots.
    @inlinable func entry(of bytes: UnsafeBufferPointer<UInt8>, hash: UInt64) -> (found: Int?, emptySlot: Int) {
        let tag = Self.tag(hash)
        return slots.withUnsafeBufferPointer { slots in
            let mask = slots.count - 1
            var index = Int(truncatingIfNeeded: hash) & mask
            while true {
                let slot = slots[index]
                if slot.entry == 0 { return (nil, index) }
                if slot.tag == tag, Int(slot.length) == bytes.count, equal(bytes, at: Int(slot.start)) {
                    return (Int(slot.entry) - 1, index)
                }
                index = (index + 1) & mask
            }
        }
    }

    @inlinable func equal(_ bytes: UnsafeBufferPointer<UInt8>, at start: Int) -> Bool {
        bytes.isEmpty
            || keptBytes.withUnsafeBufferPointer {
                memcmp($0.baseAddress! + start, bytes.baseAddress!, bytes.count) == 0
            }
    }

    /// Doubles the slots (16 at first) and places every entry again, by its bytes' hash.
    @inlinable mutating func grow() {
        let old = slots
        slots = Array(repeating: Slot(), count: max(16, slots.count * 2))
        let mask = slots.count - 1
        keptBytes.withUnsafeBufferPointer { kept in
            for slot in old where slot.entry != 0 {
                let bytes = UnsafeBufferPointer(rebasing: kept[Int(slot.start)..<Int(slot.start + slot.length)])
                var index = Int(truncatingIfNeeded: Self.hash(bytes)) & mask
                while slots[index].entry != 0 { index = (index + 1) & mask }
                slots[index] = slot
            }
        }
    }

    @inlinable static func hash(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
        ByteHash.hash(UnsafeRawBufferPointer(bytes))
    }

    @inlinable static func tag(_ hash: UInt64) -> UInt32 {
        UInt32(truncatingIfNeeded: hash >> 32)
    }
}

/// Texts found again by their bytes alone.
package typealias ByteKeyedTexts = ByteKeyedValues<Void>

extension ByteKeyedValues where Value == Void {
    /// Whether a text of exactly these bytes was kept.
    @inlinable package func contains(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        value(for: bytes) != nil
    }

    /// Keeps a text's bytes.
    @inlinable package mutating func insert(_ bytes: UnsafeBufferPointer<UInt8>) {
        insert(bytes, value: ())
    }
}
