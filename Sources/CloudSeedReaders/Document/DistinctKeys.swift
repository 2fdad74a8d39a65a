import CloudSeedCore

/// The keys of one dictionary, to refuse a repeated one: compared one by one while there are few,
/// as most dictionaries have, hashed once there are many; a key the reader expected
/// (``ExpectedKeys``) noted as a bit.
package struct DistinctKeys {
    private var few: [String] = []
    private var many: Set<String>?
    private var expected: UInt64 = 0

    package init() {}

    /// Adds the expected key at `offset`; `false` if it was there already.
    package mutating func insert(expected offset: Int) -> Bool {
        let bit = UInt64(1) << offset
        defer { expected |= bit }
        return expected & bit == 0
    }

    package func contains(_ key: String) -> Bool { many?.contains(key) ?? containsFew(key) }

    /// Whether `few` holds `key`; lengths are compared first, as most keys differ in length and
    /// comparing those takes no call into the standard library.
    private func containsFew(_ key: String) -> Bool {
        let length = key.utf8.count
        return few.contains { $0.utf8.count == length && $0 == key }
    }

    /// Adds `key`; `false` if it was there already.
    package mutating func insert(_ key: String) -> Bool {
        if many != nil { return many!.insert(key).inserted }
        if containsFew(key) { return false }
        few.append(key)
        if few.count > 16 {
            many = Set(few)
            few = []
        }
        return true
    }
}
