/// What was found for the key at each offset of the last row. Rows of one source repeat their keys
/// in the same order, so a key is mostly found again here, compared at once where its string
/// storage is the same, without hashing it or searching for it.
struct RecentKeys<Value> {
    private var keys: [String] = []
    private var values: [Value] = []

    /// What was found for `key` if it was the key at `offset` of the last row.
    func value(of key: String, at offset: Int) -> Value? {
        offset < keys.count && keys[offset] == key ? values[offset] : nil
    }

    /// Notes that `key`, at `offset` of this row, found `value`.
    mutating func remember(_ value: Value, for key: String, at offset: Int) {
        if offset < keys.count {
            keys[offset] = key
            values[offset] = value
        } else if offset == keys.count {
            keys.append(key)
            values.append(value)
        }
    }

    mutating func removeAll() {
        keys.removeAll(keepingCapacity: true)
        values.removeAll(keepingCapacity: true)
    }
}
