import CloudSeedCore

/// The keys of the last record a ``JSONParser`` read, in order. Records of one file mostly repeat
/// their keys: the next record's key at the same place is recognised by comparing its bytes, and
/// reused rather than parsed into a new string, and keys that repeat the last record's, in order,
/// need no check for repeats (the last record's were distinct).
///
/// Only short keys of plain ASCII are reused: their bytes are their text (no escape), and a
/// string of up to 15 bytes is stored in place, so no two rows share a string's storage and its
/// reference count (the rows are read on one core and used on another).
package struct RecordKeys {
    private var keys: [String] = []
    /// Whether each key may be reused; the others are always parsed.
    private var reusable: [Bool] = []

    package var count: Int { keys.count }

    package func key(at offset: Int) -> String { keys[offset] }

    /// Makes `fields`' keys the last record's.
    package mutating func replace(with fields: [SourceField]) {
        keys = fields.map(\.key)
        reusable = keys.map { key in
            key.utf8.count <= 15
                && key.utf8.allSatisfy {
                    $0 >= 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\")
                }
        }
    }

    package mutating func removeAll() {
        keys.removeAll()
        reusable.removeAll()
    }

    /// Adds the first `count` keys to an object's `keys`: those of a record that stops repeating
    /// the last record's after them.
    package func insertFirst(_ count: Int, into distinct: inout DistinctKeys) {
        for offset in 0..<count { _ = distinct.insert(keys[offset]) }
    }

    /// The key at `offset` if the input at `index` is that key in double quotes: `index` then
    /// moves past the closing quote. `nil`, with `index` unmoved, for anything else.
    package func reuse(at offset: Int, from input: inout ChunkedInput, index: inout Int) -> String? {
        guard reusable[offset] else { return nil }
        var key = keys[offset]
        let length = key.utf8.count
        guard key.withUTF8({ input.holdsQuoted($0, at: index) }) else { return nil }
        index += length + 2
        return keys[offset]
    }
}
