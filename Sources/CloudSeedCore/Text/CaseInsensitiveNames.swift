/// Compares a key with lowercase ASCII names ignoring case, without making a lowercased copy:
/// the mapper asks this of every key of every row (`Latitude` is a latitude column, `TITLE` a natural key).
@usableFromInline package enum CaseInsensitiveNames {
    /// Whether `key`, lowercased, is `name`, which is lowercase ASCII.
    @inlinable
    package static func matches(_ key: String, _ name: String) -> Bool {
        var keyBytes = key.utf8.makeIterator()
        for expected in name.utf8 {
            guard let byte = keyBytes.next() else { return false }
            if byte >= 0x80 { return key.lowercased() == name }
            let lowered = byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte
            if lowered != expected { return false }
        }
        guard let extra = keyBytes.next() else { return true }
        return extra >= 0x80 && key.lowercased() == name
    }

    /// Whether `key`, lowercased, is one of `names` (lowercase ASCII).
    @inlinable
    package static func matchesAny<Names: Sequence<String>>(_ key: String, _ names: Names) -> Bool {
        names.contains { matches(key, $0) }
    }
}
