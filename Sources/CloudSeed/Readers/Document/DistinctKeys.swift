/// The keys of one dictionary, to refuse a repeated one: compared one by one while there are few,
/// as most dictionaries have, hashed once there are many.
struct DistinctKeys {
    private var few: [String] = []
    private var many: Set<String>?

    func contains(_ key: String) -> Bool { many?.contains(key) ?? few.contains(key) }

    /// Adds `key`; `false` if it was there already.
    mutating func insert(_ key: String) -> Bool {
        if many != nil { return many!.insert(key).inserted }
        if few.contains(key) { return false }
        few.append(key)
        if few.count > 16 {
            many = Set(few)
            few = []
        }
        return true
    }
}
