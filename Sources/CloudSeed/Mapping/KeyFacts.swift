/// What the mapper asks of a source key, worked out once per distinct key instead of for every
/// field of every row: a CSV file's million rows share its header's dozen keys.
struct KeyFacts {
    enum NaturalKeyRole {
        /// `name`, `title`, `code`, `slug`, `key` or `email`.
        case key
        /// A first name, which with a last name makes a person's name.
        case firstName
        case lastName
    }

    enum LocationRole {
        /// A field already named `location`.
        case location
        case latitude
        case longitude
    }

    let isValidIdentifier: Bool
    /// A name column that is the record's identity only, not kept as a field.
    let isIdentityOnly: Bool
    /// The rank among ``RecordNaming/nameColumns``, where the key is one.
    let nameColumnRank: Int?
    let naturalKeyRole: NaturalKeyRole?
    let locationRole: LocationRole?

    init(of key: String) {
        isValidIdentifier = IdentifierMapping.isValid(key)
        isIdentityOnly = RecordNaming.identityOnlyColumns.contains(key)
        nameColumnRank = RecordNaming.nameColumnRank(of: key)
        naturalKeyRole =
            if CaseInsensitiveNames.matchesAny(key, NaturalKeys.fields) { .key }
            else if CaseInsensitiveNames.matchesAny(key, NaturalKeys.firstNames) { .firstName }
            else if CaseInsensitiveNames.matchesAny(key, NaturalKeys.lastNames) { .lastName }
            else { nil }
        locationRole =
            if CaseInsensitiveNames.matches(key, "location") { .location }
            else if CaseInsensitiveNames.matchesAny(key, LocationKeys.latitude) { .latitude }
            else if CaseInsensitiveNames.matchesAny(key, LocationKeys.longitude) { .longitude }
            else { nil }
    }
}

/// The facts of the keys one reading thread has met. Rows of one source repeat their keys in
/// the same order, so the key at a field's offset is tried first, and a key held in the same
/// string storage compares at once.
final class KeyFactsCache {
    private var keys: [String] = []
    private var facts: [KeyFacts] = []
    /// Past this many distinct keys (documents whose keys are data), the cache starts afresh.
    private static let capacity = 512

    /// The facts of `key`, which is likely the key at `offset` of the previous row of its shape.
    func facts(of key: String, near offset: Int) -> KeyFacts {
        if offset < keys.count, keys[offset] == key { return facts[offset] }
        // A row that leaves a field out (an empty cell) has the keys after it one place earlier.
        if offset + 1 < keys.count, keys[offset + 1] == key { return facts[offset + 1] }
        if let index = keys.firstIndex(of: key) { return facts[index] }
        if keys.count >= Self.capacity {
            keys.removeAll(keepingCapacity: true)
            facts.removeAll(keepingCapacity: true)
        }
        let found = KeyFacts(of: key)
        keys.append(key)
        facts.append(found)
        return found
    }
}
